//go:build !unix

package loopback

import "io/fs"

// ownedByMe cannot tell owners apart here: the file's mode is what is checked.
func ownedByMe(fs.FileInfo) bool { return true }
