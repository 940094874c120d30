package docs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/vault"
)

// Editing is for the user, through the app; agents get no tool that writes.

// MaxSource is the largest document the editor saves.
const MaxSource = 1 << 20

// folder returns the real path of the vault's context folder, creating it
// when create is set. A context folder that is a symlink is refused.
func folder(vaultRoot string, create bool) (string, error) {
	rootReal, err := filepath.EvalSymlinks(vaultRoot)
	if err != nil {
		return "", fmt.Errorf("open vault: %w", err)
	}
	dir := filepath.Join(rootReal, filepath.FromSlash(Dir))
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder", Dir)
	}
	return dir, nil
}

// target is where document id lives, checked to stay inside the folder.
func target(dir, id string) (string, error) {
	if !validID(id) {
		return "", &InputError{"a document id is a relative path to a .md file inside the context folder, with no hidden or .. parts"}
	}
	p := filepath.Join(dir, filepath.FromSlash(id))
	parent := filepath.Dir(p)
	if real, err := filepath.EvalSymlinks(parent); err == nil && real != dir && !strings.HasPrefix(real, dir+string(filepath.Separator)) {
		return "", ErrNotFound
	}
	if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return "", ErrNotFound
	}
	return p, nil
}

// Source returns a document's whole file, front matter included, for the
// editor.
func Source(vaultRoot, id string) (string, error) {
	dir, err := folder(vaultRoot, false)
	if err != nil {
		return "", ErrNotFound
	}
	if _, err := target(dir, id); err != nil {
		return "", err
	}
	data, err := vault.ReadFile(context.Background(), vaultRoot, Dir+"/"+id, vault.KindContextDoc)
	if err != nil {
		return "", ErrNotFound
	}
	return string(data), nil
}

// Save checks a document the user wrote and stores it: front matter that
// does not parse (an unknown trigger, say) is an error to show, and nothing
// is written.
func Save(vaultRoot, id, content string) error {
	if len(content) > MaxSource {
		return &InputError{fmt.Sprintf("a context document may hold at most %d KB", MaxSource>>10)}
	}
	if _, _, err := parseDoc([]byte(content)); err != nil {
		return &InputError{err.Error()}
	}
	dir, err := folder(vaultRoot, true)
	if err != nil {
		return err
	}
	p, err := target(dir, id)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, []byte(content), atomicfile.Private)
}

// Delete removes a document.
func Delete(vaultRoot, id string) error {
	dir, err := folder(vaultRoot, false)
	if err != nil {
		return ErrNotFound
	}
	p, err := target(dir, id)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ErrNotFound
		}
		return err
	}
	return nil
}
