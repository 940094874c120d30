//go:build unix

package loopback

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to the user running Agentero.
func ownedByMe(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
