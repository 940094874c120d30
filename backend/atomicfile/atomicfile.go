// Package atomicfile writes files so that a reader sees the old content or
// the new, never a torn mix: state files (grants, conversations, settings)
// are read by other processes while Agentero writes them. It also opens
// the append-only state files (transcripts, usage logs) and reads state
// back without following links planted in a vault's state folder.
package atomicfile

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"
)

// Private is the mode of state files: conversations, transcripts, grants,
// usage logs and the user's configuration are the user's alone.
const Private = 0o600

// Write stores data at path: a temporary file in the same folder, synced,
// then renamed over path (a link at path is replaced, not followed). The
// folder is created when missing. A private file (perm with no group or
// other bits, such as Private) gets a private folder: a new one is made
// 0700 and an existing one that others may enter is tightened to 0700, so
// that state written by older versions (0644 in 0755 folders) becomes
// private the next time it is written.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := folder(dir, perm); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return named("write", path, err)
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := cmp.Or(werr, serr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		os.Remove(tmp.Name())
		return named("write", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return named("replace", path, err)
	}
	return nil
}

// named reports err, met on the temporary file, as the file being written:
// the user knows that one, not the temporary name.
func named(op, path string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &os.PathError{Op: op, Path: path, Err: err}
}

// Append adds data at the end of the file at path in one write, never
// through a symbolic link (O_NOFOLLOW), creating the file with perm when it
// is missing. Like Write, a private file gets a private folder, and an
// existing file looser than perm is tightened to it. A write the disk
// cannot take whole (it is full) is taken back, so that the file still ends
// with whole records: a torn one would swallow the record appended after
// it. Appends to one file must not run concurrently.
func Append(path string, data []byte, perm os.FileMode) error {
	return appendTo(path, data, perm, true)
}

// AppendShared is Append for a file that several processes append to at
// once (a turn's budget ledger): each write is one O_APPEND write, so
// records never interleave, but a write the disk cannot take whole is not
// taken back, since that could cut a record another process appended
// meanwhile. Its reader must refuse a torn record.
func AppendShared(path string, data []byte, perm os.FileMode) error {
	return appendTo(path, data, perm, false)
}

func appendTo(path string, data []byte, perm os.FileMode, takeBack bool) error {
	if err := folder(filepath.Dir(path), perm); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, perm)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = &os.PathError{Op: "append", Path: path, Err: errNotRegular}
	case st.Mode().Perm()&^perm != 0:
		err = f.Chmod(perm)
	}
	if err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		if !takeBack {
			return errors.Join(err, f.Close())
		}
		return errors.Join(err, f.Truncate(st.Size()), f.Close())
	}
	return f.Close()
}

// Open opens a state file for reading: never through a symbolic link, and
// only a regular file (a FIFO or device planted in its place is refused
// before it can block or flood the reader).
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &os.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

var errNotRegular = errors.New("not a regular file")

// folder creates dir for a file of mode perm, and makes an existing one
// private when the file is.
func folder(dir string, perm os.FileMode) error {
	if perm&0o077 != 0 {
		return os.MkdirAll(dir, 0o755)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}
