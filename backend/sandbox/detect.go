package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

var (
	bwOnce sync.Once
	bwErr  error
)

// bubblewrapWorks runs bwrap once, as an agent would run in it, and
// reports why it cannot be used (not installed, or user namespaces
// refused), or nil.
func bubblewrapWorks() error {
	bwOnce.Do(func() {
		bwrap, err := exec.LookPath("bwrap")
		if err != nil {
			bwErr = errors.New("is not installed (Debian: apt install bubblewrap)")
			return
		}
		truePath, err := exec.LookPath("true")
		if err != nil {
			bwErr = fmt.Errorf("could not be tried: %w", err)
			return
		}
		args := append(bubblewrapArgs(Spec{}), "--", truePath)
		var stderr bytes.Buffer
		cmd := exec.Command(bwrap, args...)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if i := strings.IndexByte(msg, '\n'); i > 0 {
				msg = msg[:i]
			}
			if msg == "" {
				msg = err.Error()
			}
			bwErr = fmt.Errorf("cannot make a sandbox here (%s)", msg)
		}
	})
	return bwErr
}
