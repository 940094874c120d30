//go:build unix

package atomicfile

import "syscall"

// noFollow makes an open fail on a symbolic link instead of following it.
const noFollow = syscall.O_NOFOLLOW

// nonBlock keeps an open of a FIFO from waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
