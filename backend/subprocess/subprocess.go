// Package subprocess starts the programs Agentero runs (its PDF workers,
// agents, the MCP servers an agent is given) so that they inherit nothing
// of the app but what they are handed. Go opens its own files
// close-on-exec, but the libraries the window runs on do not all do so:
// WebKitGTK's response pipes, for one, would otherwise live on in every
// child started while a response is open, and the response never end
// (the viewer stayed at "Opening paper…").
package subprocess

import (
	"os/exec"
	"syscall"
)

// Start marks every file the process holds close-on-exec, then starts
// cmd: the child gets its standard streams and ExtraFiles only.
func Start(cmd *exec.Cmd) error {
	// Go's own forks hold ForkLock for reading while they create and
	// start; holding it for writing keeps a file opened between the
	// marking and the fork of another goroutine's child out of it.
	syscall.ForkLock.Lock()
	closeOnExec()
	syscall.ForkLock.Unlock()
	return cmd.Start()
}
