//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// landlockWorks reports why Landlock cannot be used, or nil.
func landlockWorks() error {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil || v < 1 {
		return errors.New("is not enabled in this kernel")
	}
	return nil
}

// RunConfined is this executable run as `--agentero-confined SPEC -- PATH
// ARGS…`: it restricts itself with Landlock to spec's paths and the
// system's, then becomes PATH (exec), which keeps the restriction, as do
// its children. It returns only on failure.
func RunConfined(args []string) error {
	if len(args) < 3 || args[1] != "--" {
		return errors.New("want SPEC -- COMMAND [ARGS…]")
	}
	var spec Spec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		return fmt.Errorf("read the confinement: %w", err)
	}
	var roDirs, roFiles, rwDirs, rwFiles []string
	split := func(paths []string, dirs, files *[]string) {
		for _, p := range paths {
			st, err := os.Stat(p)
			switch {
			case err != nil:
			case st.IsDir():
				*dirs = append(*dirs, p)
			default:
				*files = append(*files, p)
			}
		}
	}
	split(append(systemRead, append(spec.Read, "/proc")...), &roDirs, &roFiles)
	split(append(spec.Write, spec.Dir), &rwDirs, &rwFiles)
	err := landlock.V7.BestEffort().RestrictPaths(
		landlock.RODirs(roDirs...),
		landlock.ROFiles(roFiles...),
		landlock.RWDirs(rwDirs...),
		landlock.RWFiles(rwFiles...),
		landlock.RWDirs("/dev").WithIoctlDev().IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("confine the agent with Landlock: %w", err)
	}
	if spec.Dir != "" {
		if err := os.Chdir(spec.Dir); err != nil {
			return err
		}
	}
	return syscall.Exec(args[2], args[2:], spec.Env)
}
