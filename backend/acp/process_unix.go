//go:build linux || darwin

package acp

import (
	"os/exec"
	"syscall"
)

// inOwnGroup makes the agent the leader of a process group of its own, so
// that what it starts stays with it: npx, for one, runs the real agent as
// its child, which a signal to npx alone would leave running.
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup asks every process of the agent's group to exit.
func terminateGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// killGroup ends every process of the agent's group. The group is the
// leader's pid; once the leader is reaped that number stays taken while any
// member lives, so a signal after the reap reaches what the agent left
// behind (or nothing, with ESRCH).
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
