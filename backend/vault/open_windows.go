package vault

// Windows has no FIFOs or devices in a folder to block on.
const (
	nonblock = 0
	noctty   = 0
)
