// Package sandbox runs an agent confined to what a turn lets it reach: the
// system's programs and libraries, its own installation and configuration,
// a scratch home and working folder, and nothing of the vault or the rest
// of the user's home. Its reads of papers go through the turn's MCP server,
// which runs outside the sandbox and which the agent reaches through a
// bridge (Bridge).
//
// Two ways to confine: bubblewrap (mount namespaces: what is not bound in
// does not exist) where user namespaces work, and Landlock (the kernel
// refuses access outside the listed paths) where they are restricted, as
// on Ubuntu 24.04. Where neither works the agent runs unconfined, and the
// caller says so.
package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Kind is how an agent runs.
type Kind string

const (
	Bubblewrap Kind = "bubblewrap"
	Landlock   Kind = "landlock"
	None       Kind = "none"
)

// Modes a user can choose per agent: "" is Auto.
const (
	Auto = "auto"
	Off  = "off"
)

// Spec is what a confined agent may reach.
type Spec struct {
	Read  []string `json:"read"`  // files and folders it may read and run
	Write []string `json:"write"` // files and folders it may read and write
	Dir   string   `json:"dir"`   // its working folder (also written)
	Env   []string `json:"env"`   // its whole environment
}

// Report says how an agent runs, and why that way.
type Report struct {
	Kind Kind   `json:"kind"`
	Why  string `json:"why"`
}

// DefaultEnv names the environment variable that sets the mode of agents
// whose settings choose none (auto when it is unset too).
const DefaultEnv = "AGENTERO_SANDBOX"

// Choose decides how to run for the mode the user chose ("", "auto",
// "bubblewrap", "landlock" or "off"): the strongest available for auto, the
// one asked for otherwise, and None with the reason when that cannot be.
// An empty mode is AGENTERO_SANDBOX's.
func Choose(mode string) Report {
	if strings.TrimSpace(mode) == "" {
		mode = os.Getenv(DefaultEnv)
	}
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case Off:
		return Report{None, "confinement is switched off for this agent (its settings, or " + DefaultEnv + "=off): it can read every file your user can"}
	case string(Bubblewrap):
		if err := bubblewrapWorks(); err != nil {
			return Report{None, "this agent is set to run in bubblewrap, which is unavailable (" + err.Error() + "): it runs unconfined and can read every file your user can"}
		}
		return Report{Bubblewrap, bubblewrapWhy}
	case string(Landlock):
		if err := landlockWorks(); err != nil {
			return Report{None, "this agent is set to run under Landlock, which is unavailable (" + err.Error() + "): it runs unconfined and can read every file your user can"}
		}
		return Report{Landlock, landlockWhy}
	}
	bwErr := bubblewrapWorks()
	if bwErr == nil {
		return Report{Bubblewrap, bubblewrapWhy}
	}
	llErr := landlockWorks()
	if llErr == nil {
		return Report{Landlock, landlockWhy + " (bubblewrap: " + bwErr.Error() + ")"}
	}
	return Report{None, fmt.Sprintf("the agent is not confined: bubblewrap %s, and Landlock %s; it can read every file your user can", bwErr, llErr)}
}

const (
	bubblewrapWhy = "bubblewrap: the agent sees only the system, its own installation and configuration, and a scratch folder; the vault and the rest of your home do not exist for it"
	landlockWhy   = "Landlock: the kernel refuses the agent every file outside the system, its own installation and configuration, and a scratch folder"
)

// Command is the command that runs path with args as kind says, confined
// to spec. self is this executable, which applies Landlock in the child
// (see RunConfined) before it becomes the agent.
func Command(kind Kind, spec Spec, self, path string, args []string) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	switch kind {
	case Bubblewrap:
		bwrap, err := exec.LookPath("bwrap")
		if err != nil {
			return nil, fmt.Errorf("bubblewrap is not installed: %w", err)
		}
		cmd = exec.Command(bwrap, append(append(bubblewrapArgs(spec), "--", path), args...)...)
	case Landlock:
		data, err := json.Marshal(spec)
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(self, append([]string{ConfinedFlag, string(data), "--", path}, args...)...)
	default:
		cmd = exec.Command(path, args...)
	}
	cmd.Env = spec.Env
	cmd.Dir = spec.Dir
	return cmd, nil
}

// ConfinedFlag is the flag of this executable that applies Landlock and
// then executes the agent (RunConfined).
const ConfinedFlag = "--agentero-confined"

// systemRead are the folders every program needs to run: programs,
// libraries and the system's configuration. /etc is read whole, but its
// secrets are hidden (bubblewrap) — see etcSecrets.
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
	"/run/systemd/resolve", "/nix/store"}

// etcSecrets are files of /etc no agent needs, hidden from it under
// bubblewrap (Landlock cannot hide a file inside a folder it allows).
var etcSecrets = []string{"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers", "/etc/ssh", "/etc/sudoers.d", "/etc/ssl/private"}

// bubblewrapArgs are bwrap's options for spec: an empty root with the
// system read-only, fresh /proc, /dev and /tmp, then spec's paths, parents
// before children so that none hides another.
func bubblewrapArgs(spec Spec) []string {
	args := []string{"--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"}
	for _, p := range systemRead {
		args = append(args, "--ro-bind-try", p, p)
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp")
	for _, p := range etcSecrets {
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.IsDir():
			args = append(args, "--tmpfs", p)
		default:
			args = append(args, "--ro-bind", os.DevNull, p)
		}
	}
	type bind struct {
		path  string
		write bool
	}
	var binds []bind
	for _, p := range spec.Read {
		binds = append(binds, bind{p, false})
	}
	for _, p := range append(slices.Clone(spec.Write), spec.Dir) {
		if p != "" {
			binds = append(binds, bind{p, true})
		}
	}
	slices.SortStableFunc(binds, func(a, b bind) int { return cmp.Compare(a.path, b.path) })
	for _, b := range binds {
		if b.write {
			args = append(args, "--bind-try", b.path, b.path)
		} else {
			args = append(args, "--ro-bind-try", b.path, b.path)
		}
	}
	if spec.Dir != "" {
		args = append(args, "--chdir", spec.Dir)
	}
	return args
}

// Within reports whether path is dir or lies inside it.
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
