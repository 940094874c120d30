//go:build !linux && !darwin

package acp

import "os/exec"

// inOwnGroup would give the agent a process group of its own; elsewhere than
// Linux and macOS only the agent's own process is signalled.
func inOwnGroup(*exec.Cmd) {}

// terminateGroup has no portable equivalent here: Stop goes on to killGroup.
func terminateGroup(*exec.Cmd) {}

// killGroup ends the agent's process.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
