//go:build unix && !linux

package vault

import "syscall"

const (
	nonblock = syscall.O_NONBLOCK
	noctty   = syscall.O_NOCTTY
)
