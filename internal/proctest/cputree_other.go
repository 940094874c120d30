//go:build !linux

package proctest

import "time"

// TreeCPUTime is measured on Linux only (through /proc): false here.
func TreeCPUTime() (time.Duration, bool) { return 0, false }
