package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentero/agentero/backend/acp"
)

// runCompact prints what would be sent for a conversation's history to a new
// session: the tiers applied and the turns kept whole, pruned and
// summarized. It changes nothing: neither the transcript nor the stored
// summary.
func runCompact(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	agents, exe, _, err := configuredAgents()
	if err != nil {
		return err
	}
	lib, err := openLibrary(pos[0], stderr, nil)
	if err != nil {
		return err
	}
	defer lib.Close()
	host := acp.NewHost(lib.Root(), exe, lib.DB(), agents, acp.HostOptions{PoolSize: -1,
		Logger: warnLogger(stderr)})
	defer host.Close()
	if _, err := os.Stat(host.Store().Dir(*convID)); err != nil {
		return fmt.Errorf("no conversation %q in this vault", *convID)
	}
	res, err := host.Compaction(ctx, *convID, *agentName, *window, false)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(stdout, res)
	}
	tiers := "none"
	if len(res.Tiers) > 0 {
		tiers = strings.Join(res.Tiers, ", ")
	}
	fmt.Fprintf(stdout, "tiers: %s\nturns whole %v, pruned %v, summarized %v\nabout %d tokens before, %d after (history limit %d of a %d-token window)\n",
		tiers, res.Whole, res.Pruned, res.Summarized, res.TokensBefore, res.TokensAfter, res.Limit, res.Window)
	for _, n := range res.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return nil
}
