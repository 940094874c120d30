// Package userdir finds and checks the user's own folders outside any
// vault: the cache (the agents' working folders, the PDF engine's compiled
// code, the built-in agent's sessions) and the configuration (agents,
// settings). What Agentero keeps there is the user's alone, and some of it
// is run or trusted later (compiled code, an agent's working folder), so a
// folder another user made or may write to is refused rather than used.
package userdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Perm is the mode of the folders this package makes.
const Perm = 0o700

// ErrNotPrivate is returned for a folder that is not safely the user's: a
// symbolic link, a file, one owned by another user, or one that others may
// write to.
var ErrNotPrivate = errors.New("folder is not safely yours")

// Cache returns Agentero's cache folder, made private when missing:
// agentero/ in the user's cache directory, or, where there is none (no
// HOME), agentero-<uid>/ in the temporary directory. Never a shared
// /tmp/agentero: another user could make that first and own what goes in.
func Cache() (string, error) {
	return base(os.UserCacheDir, "agentero")
}

// Config returns Agentero's configuration folder, made private when
// missing: agentero/ in the user's configuration directory, or
// agentero-config-<uid>/ in the temporary directory.
func Config() (string, error) {
	return base(os.UserConfigDir, "agentero-config")
}

func base(user func() (string, error), fallback string) (string, error) {
	if d, err := user(); err == nil {
		return Folder(filepath.Join(d, "agentero"))
	}
	return Folder(filepath.Join(os.TempDir(), fallback+"-"+strconv.Itoa(os.Geteuid())))
}

// Folder makes sure root, then each of parts below it, is a private folder
// of this user and returns the joined path. A missing folder is made (with
// its missing parents) 0700; an existing one must be a real folder (not a
// link), owned by this user and writable by no one else, and one others may
// read or enter is tightened to 0700. parts are single names: none may be
// empty, ".", ".." or hold a separator.
func Folder(root string, parts ...string) (string, error) {
	dir := root
	if err := private(dir, true); err != nil {
		return "", err
	}
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, `/\`+"\x00") {
			return "", fmt.Errorf("folder name %q: %w", p, ErrNotPrivate)
		}
		dir = filepath.Join(dir, p)
		if err := private(dir, false); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// private checks (making it when missing) one folder; parents says whether
// its missing parents may be made too.
func private(dir string, parents bool) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		mk := os.Mkdir
		if parents {
			mk = os.MkdirAll
		}
		if err := mk(dir, Perm); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("make %s: %w", dir, err)
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return fmt.Errorf("check %s: %w", dir, err)
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: %w", dir, ErrNotPrivate)
	case !st.IsDir():
		return fmt.Errorf("%s is not a folder: %w", dir, ErrNotPrivate)
	case !ownedByMe(st):
		return fmt.Errorf("%s belongs to another user: %w", dir, ErrNotPrivate)
	case st.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s may be written by other users (mode %v): %w", dir, st.Mode().Perm(), ErrNotPrivate)
	case st.Mode().Perm()&0o077 != 0:
		if err := os.Chmod(dir, Perm); err != nil {
			return fmt.Errorf("make %s private: %w", dir, err)
		}
	}
	return nil
}
