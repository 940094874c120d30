// Package atomicfile writes files so that a reader sees the old content or
// the new, never a torn mix: state files (grants, conversations, settings)
// are read by other processes while Agentero writes them.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write stores data at path: a temporary file in the same folder, synced,
// then renamed over path. The folder is created when missing.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
