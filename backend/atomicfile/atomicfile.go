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

// Append adds data at the end of the file at path (created with perm when
// missing, its folder too) in one write. A write the disk cannot take whole
// (it is full) is taken back, so that the file still ends with whole
// records: a torn one would swallow the record appended after it. Appends
// to one file must not run concurrently.
func Append(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		return errors.Join(err, f.Truncate(st.Size()), f.Close())
	}
	return f.Close()
}
