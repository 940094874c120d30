package sandbox

import (
	"errors"
	"io"
	"net"
)

// BridgeFlag is the flag of this executable that connects an agent's MCP
// stdio to the turn's server outside the sandbox (Bridge).
const BridgeFlag = "--agentero-mcp-bridge"

// Bridge connects in and out (the agent's pipes to the MCP server it
// started) to the Unix socket the host serves the turn's MCP server on,
// and copies both ways until the server ends the connection. The end of
// in is passed on as the end of the connection's writing side.
func Bridge(socket string, in io.Reader, out io.Writer) error {
	conn, err := net.Dial("unix", socket)
	if err != nil {
		return err
	}
	defer conn.Close()
	go func() {
		io.Copy(conn, in)
		if u, ok := conn.(*net.UnixConn); ok {
			u.CloseWrite()
		}
	}()
	_, err = io.Copy(out, conn)
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}
