//go:build linux

package proctest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// every Linux port).
const clockTick = 10 * time.Millisecond

// TreeCPUTime is the CPU time (user and system) this process and its
// children have used: the children it has reaped, and those still
// running (a pool of worker processes, say). The difference of two
// readings is the machine's cost of the work between them, wherever
// the work ran.
func TreeCPUTime() (time.Duration, bool) {
	self, ok := CPUTime()
	if !ok {
		return 0, false
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0, false
	}
	total := self + time.Duration(ru.Utime.Nano()+ru.Stime.Nano())
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, pid := range strings.Fields(string(b)) {
			total += liveCPU(pid)
		}
	}
	return total, true
}

// liveCPU is the CPU time of the running process pid: utime and stime of
// /proc/<pid>/stat, the 14th and 15th fields (after the command's name,
// which may hold spaces, in parentheses).
func liveCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	// f[0] is field 3 (state): utime is f[11], stime f[12]
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+st) * clockTick
}
