package pdf

import (
	"log/slog"
	"syscall"
)

// limitMemory caps the process's address space at limit bytes.
func limitMemory(limit uint64, log *slog.Logger) {
	rl := syscall.Rlimit{Cur: limit, Max: limit}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		log.Warn("pdf worker: cannot limit memory", "err", err)
	}
}
