package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentero/agentero/backend/events"
)

// runIndex is `agentero index DIR [--json]`: it indexes or updates the
// vault and prints what it holds.
func runIndex(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	show := progressPrinter(env.Stderr, "indexing")
	progress := func(name string, payload any) {
		if p, ok := payload.(events.IndexProgressEvent); ok && !*asJSON {
			show(p.Done, p.Total, p.Current)
		}
	}
	ws, err := env.open(pos[0], progress)
	if err != nil {
		return err
	}
	defer ws.Close()
	st, err := ws.Sync(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, st)
	}
	fmt.Fprintf(env.Stdout, "%d papers, %d pages (%d read now, %d removed) in %.1f s\n", st.Papers, st.Pages, st.Extracted, st.Removed, st.Seconds)
	for _, ref := range st.NoTextPapers {
		fmt.Fprintf(env.Stdout, "no text layer: %s\n", ref)
	}
	for _, e := range st.Errors {
		fmt.Fprintf(env.Stdout, "error: %s: %s\n", e.Ref, e.Error)
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(env.Stdout, "warning: %s: %s\n", w.Ref, w.Error)
	}
	for _, k := range st.Skipped {
		fmt.Fprintf(env.Stdout, "skipped: %s: %s\n", k.Path, k.Problem)
	}
	return nil
}
