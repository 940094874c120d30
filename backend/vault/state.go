package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrStateLink is returned when Agentero's state folder, or a folder in it,
// is a symbolic link or not a folder at all. A vault is often someone
// else's folder: a .agentero that points elsewhere would have Agentero
// write (and read its "own" state) outside the vault, so it is refused.
var ErrStateLink = errors.New("Agentero's state folder (.agentero) in this vault is a symbolic link or not a folder; " +
	"Agentero keeps its state only in a real folder inside the vault: remove or rename it, then open the vault again")

// StatePerm is the mode of Agentero's state folders: the conversations,
// grants and index in them are the user's alone.
const StatePerm = 0o700

// StateFolder makes sure <root>/.agentero/<rel…> is a real folder and
// returns its path. Every folder from .agentero down is checked with Lstat:
// one that is missing is created private (StatePerm), one that is a
// symbolic link or a file is refused with ErrStateLink, and one that others
// may enter is made private. rel names folders below .agentero, each a plain
// name or a slash path with no "..", "." or empty part.
//
// The check holds against a vault that was prepared in advance (the
// threat a shared or downloaded vault brings), not against someone
// swapping folders while Agentero writes; files are then written with
// rename (which replaces a link instead of following it) or opened with
// O_NOFOLLOW.
func StateFolder(root string, rel ...string) (string, error) {
	parts := []string{StateDir}
	for _, r := range rel {
		for _, p := range strings.Split(r, "/") {
			if p == "" || p == "." || p == ".." || strings.ContainsAny(p, "\x00\\") || filepath.IsAbs(p) {
				return "", fmt.Errorf("state folder %q: %w", strings.Join(rel, "/"), ErrOutside)
			}
			parts = append(parts, p)
		}
	}
	dir := root
	for _, p := range parts {
		dir = filepath.Join(dir, p)
		if err := privateFolder(dir); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// FindStateFolder returns <root>/.agentero/<rel…> when it is there, without
// making anything: fs.ErrNotExist when a folder on the way is missing,
// ErrStateLink when one is a symbolic link or not a folder. Reading state
// back goes through it, so that a conversation's folder linked to another
// vault's (or anywhere else) is not read as this vault's.
func FindStateFolder(root string, rel ...string) (string, error) {
	dir := root
	for _, p := range append([]string{StateDir}, rel...) {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, "/\\\x00") {
			return "", fmt.Errorf("state folder %q: %w", p, ErrOutside)
		}
		dir = filepath.Join(dir, p)
		st, err := os.Lstat(dir)
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
			return "", fmt.Errorf("%s: %w", dir, ErrStateLink)
		}
	}
	return dir, nil
}

// CheckStateFolder refuses, without making anything, a vault whose state
// folder is a symbolic link or not a folder (ErrStateLink), for what only
// reads a vault. A missing one is fine.
func CheckStateFolder(root string) error {
	dir := filepath.Join(root, StateDir)
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state folder: %w", err)
	}
	if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return fmt.Errorf("%s: %w", dir, ErrStateLink)
	}
	return nil
}

// privateFolder makes dir a private folder of its own, or refuses it.
func privateFolder(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, StatePerm); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("make state folder: %w", err)
		}
		st, err = os.Lstat(dir) // another process may have made it first
	}
	if err != nil {
		return fmt.Errorf("state folder: %w", err)
	}
	if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
		return fmt.Errorf("%s: %w", dir, ErrStateLink)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, StatePerm); err != nil {
			return fmt.Errorf("the state folder %s is open to other users and cannot be made private (is it someone else's?): %w", dir, err)
		}
	}
	return nil
}
