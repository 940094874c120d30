package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// WriteFrom is Write for content too large to hold in memory (a PDF added
// to a vault): r is copied into a temporary file in path's folder, synced,
// and renamed over path only when whole. The temporary file's name starts
// with a dot, so a watcher of the folder that skips hidden files never
// reads it half-written.
func WriteFrom(path string, r io.Reader, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := folder(dir, perm); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := io.Copy(tmp, r)
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
