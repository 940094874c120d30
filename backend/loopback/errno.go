package loopback

import "syscall"

var syscallEADDRINUSE = syscall.EADDRINUSE
