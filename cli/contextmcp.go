package cli

import (
	"context"

	"github.com/agentero/agentero/backend/mcp"
)

// runContextMCP is `agentero --agentero-context-mcp GRANT`: the per-turn
// MCP server on stdio, reading only what the grant allows. Its stdout
// belongs to the protocol; logs go to stderr.
func runContextMCP(ctx context.Context, env Env, args []string) error {
	if len(args) != 1 {
		return usageError{"want the grant file"}
	}
	return mcp.Serve(ctx, args[0], env.Stdin, env.Stdout, env.logger())
}
