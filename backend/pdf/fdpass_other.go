//go:build !unix

package pdf

import "os"

// Without descriptor passing (Windows) the worker opens the path its
// parent opened; the parent checked it first.

const nonblock = 0

func fileSocket() (parent, child *os.File, err error) { return nil, nil, nil }

func sendFile(_, f *os.File, req *request) error {
	req.Path = f.Name()
	return nil
}

func receiveFile(req request) (*os.File, error) { return os.Open(req.Path) }

func nativePath(f *os.File) string { return f.Name() }
