//go:build !linux && !darwin

package subprocess

// closeOnExec does nothing where children inherit only what they are
// handed anyway.
func closeOnExec() {}
