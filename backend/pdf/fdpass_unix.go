//go:build unix

package pdf

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// The worker reads the very file its parent opened: the parent hands the
// open descriptor over a socket beside the worker's pipes (SCM_RIGHTS),
// one per request, so that a worker never resolves a path in the vault.
// The parent opened it through the vault's confined opener, so a symlink
// swapped in after that, or a path that would leave the vault, is never
// read.

// nonblock opens a FIFO without waiting for a writer.
const nonblock = unix.O_NONBLOCK

// filesFD is the worker's descriptor of its end of the socket.
const filesFD = 3

// fileSocket returns a connected pair: the parent's end and the worker's,
// which becomes its descriptor filesFD.
func fileSocket() (parent, child *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("file socket: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "pdf-files"), os.NewFile(uintptr(fds[1]), "pdf-files"), nil
}

// sendFile hands f to the worker at the other end of sock. The request
// that reads it follows on the worker's stdin.
func sendFile(sock, f *os.File, req *request) error {
	err := unix.Sendmsg(int(sock.Fd()), []byte{1}, unix.UnixRights(int(f.Fd())), nil, 0)
	runtime.KeepAlive(f)
	runtime.KeepAlive(sock)
	if err != nil {
		return fmt.Errorf("hand the file to the pdf worker: %w", err)
	}
	return nil
}

// receiveFile takes the file the parent handed for req.
func receiveFile(req request) (*os.File, error) {
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4*4))
	_, oobn, _, _, err := unix.Recvmsg(filesFD, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("receive the file: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil {
		return nil, fmt.Errorf("receive the file: %w", err)
	}
	var fds []int
	for _, m := range msgs {
		if got, err := unix.ParseUnixRights(&m); err == nil {
			fds = append(fds, got...)
		}
	}
	if len(fds) != 1 {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return nil, errors.New("receive the file: no descriptor came")
	}
	return os.NewFile(uintptr(fds[0]), "pdf"), nil
}

// nativePath is a path that opens the same file as f, for the native
// PDFium, which opens files by name.
func nativePath(f *os.File) string {
	if runtime.GOOS == "linux" {
		return fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	}
	return fmt.Sprintf("/dev/fd/%d", f.Fd())
}
