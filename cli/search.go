package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/index"
)

// runSearch is `agentero search DIR QUERY [--limit N] [--json]`: a
// whole-vault search, as the library's search box does it.
func runSearch(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 10, "number of hits")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	if *limit < 1 || *limit > 200 {
		return usageError{"--limit must be between 1 and 200"}
	}
	ws, err := env.openSynced(ctx, pos[0])
	if err != nil {
		return err
	}
	defer ws.Close()
	hits, err := ws.Search(ctx, pos[1], *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		for i := range hits {
			hits[i].Snippet = strings.NewReplacer(index.MarkStart, "", index.MarkEnd, "").Replace(hits[i].Snippet)
		}
		return printJSON(env.Stdout, map[string]any{"hits": hits})
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stdout, "no matches")
	}
	for _, h := range hits {
		snip := strings.NewReplacer(index.MarkStart, "*", index.MarkEnd, "*").Replace(h.Snippet)
		fmt.Fprintf(env.Stdout, "%s  (%s)\n  %s\n\n", h.Title, h.CitationURI, snip)
	}
	return nil
}
