//go:build !linux

package vault

import (
	"errors"
	"os"
)

// Without openat2 (not Linux) every open resolves its path component by
// component and opens it through os.Root, which never leaves the folder.

var forcePortable bool

func openDirFD(string) int { return -1 }
func closeDirFD(int)       {}

func openBeneath(int, string, string, Kind) (*os.File, error) {
	return nil, errors.New("openat2 is Linux only")
}
