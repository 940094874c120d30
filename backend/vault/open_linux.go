package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

const (
	nonblock = unix.O_NONBLOCK
	noctty   = unix.O_NOCTTY
)

// resolveBeneath is how every open below resolves its path: never above
// the folder, through no symlink (the caller resolved them), and never
// through /proc's magic links.
const resolveBeneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// forcePortable makes OpenRoot skip openat2, so tests cover the portable
// path on Linux too.
var forcePortable bool

var openat2Works = sync.OnceValue(func() bool {
	dir, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(dir)
	fd, err := unix.Openat2(dir, ".", &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolveBeneath})
	if err != nil {
		return false // ENOSYS before Linux 5.6, EPERM under some seccomp filters
	}
	unix.Close(fd)
	return true
})

// openDirFD returns an O_PATH descriptor of the folder real for openat2,
// or -1 when openat2 cannot be used here.
func openDirFD(real string) int {
	if forcePortable || !openat2Works() {
		return -1
	}
	fd, err := unix.Open(real, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}

func closeDirFD(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// openBeneath opens real (a path with no symlink) beneath the folder dir
// with openat2: first as O_PATH, which opens nothing (no FIFO waits, no
// device driver runs), to check its type and size; then for reading,
// without blocking, checking that the same file was opened.
func openBeneath(dir int, dirName, real string, kind Kind) (*os.File, error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: resolveBeneath}
	pfd, err := openat2(dir, real, &how)
	if err != nil {
		return nil, err
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return nil, err
	}
	typ := st.Mode & unix.S_IFMT
	if err := kind.checkType(typ == unix.S_IFDIR, typ == unix.S_IFREG, st.Size); err != nil {
		return nil, err
	}
	how.Flags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_NONBLOCK
	if kind == kindDir {
		how.Flags |= unix.O_DIRECTORY
	}
	fd, err := openat2(dir, real, &how)
	if err != nil {
		return nil, err
	}
	var got unix.Stat_t
	if err := unix.Fstat(fd, &got); err != nil || got.Dev != st.Dev || got.Ino != st.Ino {
		unix.Close(fd)
		return nil, errChanged
	}
	if kind != kindDir {
		// Reads of a regular file never wait anyway; a blocking descriptor
		// keeps os.File from trying to poll it.
		_ = unix.SetNonblock(fd, false)
	}
	return os.NewFile(uintptr(fd), filepath.Join(dirName, filepath.FromSlash(real))), nil
}

// openat2 retries the spurious EAGAIN and EINTR openat2 may return, and
// maps its errors onto the opener's.
func openat2(dir int, name string, how *unix.OpenHow) (int, error) {
	for range 8 {
		fd, err := unix.Openat2(dir, name, how)
		switch {
		case err == nil:
			return fd, nil
		case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.ELOOP):
			return -1, errSymlink
		case errors.Is(err, unix.EXDEV):
			return -1, errLeaves
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
			return -1, fs.ErrNotExist
		default:
			return -1, &fs.PathError{Op: "openat2", Path: name, Err: err}
		}
	}
	return -1, &fs.PathError{Op: "openat2", Path: name, Err: unix.EAGAIN}
}
