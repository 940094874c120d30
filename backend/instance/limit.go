package instance

import (
	"io"
	"net"
)

func ioLimit(c net.Conn) io.Reader { return io.LimitReader(c, maxMessage) }
