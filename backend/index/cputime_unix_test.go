//go:build unix

package index_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user and system): a
// measure that, unlike the clock, does not grow when the machine is busy
// with other work.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
