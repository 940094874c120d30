//go:build unix

package proctest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time this process has used (user and system): a
// measure that, unlike the clock, does not grow when the machine is busy
// with other work. Benchmarks print it beside their clock times.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
