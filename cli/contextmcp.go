package cli

import (
	"context"
	"github.com/agentero/agentero/backend/sandbox"

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

// runMCPBridge is `agentero --agentero-mcp-bridge SOCKET`: what a confined
// agent starts as its agentero-context server. It carries the MCP stdio
// to the turn's server, which the app runs outside the sandbox on SOCKET.
func runMCPBridge(ctx context.Context, env Env, args []string) error {
	if len(args) != 1 {
		return usageError{"want the socket of the turn's MCP server"}
	}
	return sandbox.Bridge(args[0], env.Stdin, env.Stdout)
}

// runConfined is `agentero --agentero-confined SPEC -- COMMAND ARGS…`: the
// Landlock confinement of an agent, applied in the agent's own process
// before it becomes COMMAND. It returns only on failure.
func runConfined(ctx context.Context, env Env, args []string) error {
	return sandbox.RunConfined(args)
}
