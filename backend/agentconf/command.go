package agentconf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentero/agentero/backend/usererr"
)

// ResolveCommand returns the absolute path of an agent's command: an
// absolute path as it is, a bare name looked up on PATH — the agent's own
// PATH when its env sets one, else this program's. A relative path is
// refused rather than resolved, since it would depend on whichever folder
// the agent happens to start in. The error (ErrCommandNotFound or
// ErrRelativeCommand) names the command in the user's words.
func ResolveCommand(command string, env map[string]string) (string, error) {
	command = strings.TrimSpace(command)
	path, ok := env["PATH"]
	if !ok {
		path = os.Getenv("PATH")
	}
	switch {
	case command == "":
		return "", fail("an agent needs a command", ErrCommandNotFound)
	case filepath.IsAbs(command):
		if err := Executable(command); err != nil {
			return "", fail(fmt.Sprintf("the command %q %s", command, err), ErrCommandNotFound)
		}
		return filepath.Clean(command), nil
	case strings.ContainsRune(command, '/') || strings.ContainsRune(command, filepath.Separator):
		return "", fail(fmt.Sprintf("the command %q is a relative path: give its absolute path, or a command name found on PATH", command), ErrRelativeCommand)
	}
	if found := LookPath(command, path); found != "" {
		return found, nil
	}
	return "", fail(fmt.Sprintf("the command %q was not found: it must be on PATH or given as an absolute path", command), ErrCommandNotFound)
}

// LookPath finds an executable file named name in the folders of the PATH
// list pathList, like exec.LookPath but against any PATH. Relative folders
// (".", "") are skipped: a command must never depend on the working folder.
func LookPath(name, pathList string) string {
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if Executable(p) == nil {
			return p
		}
	}
	return ""
}

// Executable says why the file at path cannot be run as a command, in
// words that follow the command's name, or returns nil.
func Executable(path string) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("was not found")
	case st.IsDir():
		return fmt.Errorf("is a folder, not a program")
	case st.Mode()&0o111 == 0:
		return fmt.Errorf("is not executable")
	}
	return nil
}

// The configuration's errors, each told in the user's words by the error
// that wraps it (package acp classifies them for the UI).
var (
	// ErrInvalidAgent means an agent the form cannot save as it is: no
	// name, the built-in agent's name, or no command.
	ErrInvalidAgent = errors.New("invalid agent")
	// ErrCommandNotFound means the agent's command is not a program that
	// can be run: not on PATH, or not at the absolute path given.
	ErrCommandNotFound = errors.New("the agent's command was not found")
	// ErrRelativeCommand means the agent's command is a relative path,
	// which would depend on the folder the agent starts in.
	ErrRelativeCommand = errors.New("the agent's command is a relative path")
)

// fail returns an error that reads msg and is kind.
func fail(msg string, kind error) error { return usererr.New(msg, kind) }
