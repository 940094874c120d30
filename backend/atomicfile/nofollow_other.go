//go:build !unix

package atomicfile

// noFollow is not available here; callers check their folders with Lstat.
const noFollow = 0

// nonBlock is not available here.
const nonBlock = 0
