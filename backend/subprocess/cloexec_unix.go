//go:build linux || darwin

package subprocess

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// fdDir lists the process's open files.
func fdDir() string {
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		return "/proc/self/fd"
	}
	return "/dev/fd"
}

// closeOnExec sets FD_CLOEXEC on every open file from 3 on.
func closeOnExec() {
	d, err := os.Open(fdDir())
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	own := int(d.Fd())
	d.Close()
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil || fd < 3 || fd == own {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC != 0 {
			continue
		}
		unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC)
	}
}
