// Package proctest lets tests start an agent the way npx does — a wrapper
// that runs the real program as its child — and check by process group that
// nothing of it is left afterwards, and which sockets listen on a port
// (Linux: /proc).
package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Wrapper writes a shell script into dir that records its own pid (the
// process group the agent leads, once started) in the file it returns, and
// then runs command with args as its child, without exec: the shell stays
// the parent, as npx does. Extra lines of shell run before the command.
func Wrapper(t testing.TB, dir, command string, args []string, extra ...string) (script, pidFile string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("process groups are checked through /proc")
	}
	pidFile = filepath.Join(dir, "wrapper.pid")
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\necho $$ > %s\n", quote(pidFile))
	for _, l := range extra {
		b.WriteString(l + "\n")
	}
	b.WriteString(quote(command))
	for _, a := range args {
		b.WriteString(" " + quote(a))
	}
	b.WriteString("\n")
	script = filepath.Join(dir, "wrapper.sh")
	if err := os.WriteFile(script, []byte(b.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, pidFile
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// PID reads a pid file that a wrapper writes, waiting for it a little.
func PID(t testing.TB, file string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(file)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && pid > 0 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("the wrapper never wrote its pid to %s", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Group lists the live processes of process group pgid as "pid name";
// zombies (dead, waiting to be reaped) are not counted.
func Group(pgid int) []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []string
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		// After the name: state ppid pgrp ...
		f := strings.Fields(s[close+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			out = append(out, strings.TrimSpace(s[:open])+" "+s[open+1:close])
		}
	}
	return out
}

// GroupGone fails the test unless process group pgid is empty within
// wait (a signal takes a moment to be delivered). What is left is then
// killed, so that a failed test leaves nothing running either.
func GroupGone(t testing.TB, pgid int, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		left := Group(pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes of the agent's group %d are left: %v", pgid, left)
			syscall.Kill(-pgid, syscall.SIGKILL)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Gone fails the test unless process pid has ended within wait; one left
// is then killed.
func Gone(t testing.TB, pid int, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for Alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("the agent's process %d is left", pid)
			syscall.Kill(pid, syscall.SIGKILL)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Alive reports whether process pid exists and is not a zombie.
func Alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// Listeners reads /proc/net/tcp and tcp6 for the local addresses (hex)
// that listen on port.
func Listeners(t *testing.T, port int) []string {
	t.Helper()
	var out []string
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			if f == "/proc/net/tcp" {
				t.Fatal(err)
			}
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) < 4 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			addr, hexPort, _ := strings.Cut(fields[1], ":")
			if n, _ := strconv.ParseInt(hexPort, 16, 32); int(n) == port {
				out = append(out, addr)
			}
		}
	}
	return out
}
