package cli

import (
	"context"

	"github.com/agentero/agentero/backend/agent"
)

// runBuiltinAgent is `agentero --builtin-agent`: the built-in ACP agent on
// stdio.
func runBuiltinAgent(ctx context.Context, env Env, args []string) error {
	if len(args) != 0 {
		return usageError{"takes no arguments"}
	}
	return agent.Serve(ctx, env.Stdin, env.Stdout, agent.Options{Logger: env.logger()})
}
