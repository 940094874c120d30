package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
)

// runCompact is `agentero compact DIR --conversation ID [--window TOKENS]
// [--agent NAME] [--json]`: what would be sent of a conversation's history
// to a new session, the tiers applied and the turns kept whole, pruned and
// summarized. It changes nothing: neither the transcript nor the stored
// summary.
func runCompact(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("compact", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	convID := fs.String("conversation", "", "conversation id (required)")
	window := fs.Int("window", 0, "the agent's context window in tokens (default: the agent's setting)")
	agentName := fs.String("agent", "", "agent to summarize with (default: the conversation's)")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if *convID == "" {
		return usageError{"--conversation ID is required"}
	}
	if *window < 0 {
		return usageError{"--window must be positive"}
	}
	ws, err := env.open(pos[0], nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	res, err := ws.Compaction(ctx, *convID, *agentName, *window)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, res)
	}
	tiers := "none"
	if len(res.Tiers) > 0 {
		tiers = strings.Join(res.Tiers, ", ")
	}
	fmt.Fprintf(env.Stdout, "tiers: %s\nturns whole %v, pruned %v, summarized %v\nabout %d tokens before, %d after (history limit %d of a %d-token window)\n",
		tiers, res.Whole, res.Pruned, res.Summarized, res.TokensBefore, res.TokensAfter, res.Limit, res.Window)
	for _, n := range res.Notes {
		fmt.Fprintf(env.Stdout, "note: %s\n", n)
	}
	return nil
}
