//go:build !linux

package pdf

import "log/slog"

// limitMemory does nothing here: only Linux workers cap their memory.
func limitMemory(uint64, *slog.Logger) {}
