// Package mcp is the per-turn agentero-context MCP server (SPEC §4): it
// serves read-only tools over the sources one grant allows, and refuses
// everything else.
package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
)

// Serve runs the server for the grant at grantPath over in/out until the
// client disconnects or ctx ends. A missing or malformed grant is an error
// before anything is served.
func Serve(ctx context.Context, grantPath string, in io.Reader, out io.Writer, log *slog.Logger) error {
	return errors.New("not implemented yet")
}
