//go:build unix

package pdf

import (
	"syscall"
	"time"
)

// childrenCPU is the user and system time of the waited-for children.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
