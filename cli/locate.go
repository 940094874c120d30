package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/agentero/agentero/backend/applink"
)

// runLocate is `agentero locate DIR URI [--json]`: where a citation's
// quote is on its page, as rectangles in PDF points from the page's
// top-left corner, with the page's words under them. A quote that is not
// on the cited page is said so, with the page that has it when one does;
// that is a finding, not a failure.
func runLocate(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("locate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	ws, err := env.openSynced(ctx, pos[0])
	if err != nil {
		return err
	}
	defer ws.Close()
	uri := pos[1]
	if applink.IsLink(uri) {
		if uri, err = ws.LinkCitation(ctx, uri); err != nil {
			return err
		}
	}
	loc, err := ws.Locate(ctx, uri)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(env.Stdout, loc)
	}
	fmt.Fprintln(env.Stdout, loc.Why+".")
	if len(loc.Rects) > 0 {
		fmt.Fprintf(env.Stdout, "page %d (%.0f × %.0f pt): %s\n", loc.Page, loc.Width, loc.Height, loc.Text)
		for _, r := range loc.Rects {
			fmt.Fprintf(env.Stdout, "  [%.1f, %.1f, %.1f, %.1f]\n", r[0], r[1], r[2], r[3])
		}
	}
	if loc.Next != nil {
		fmt.Fprintf(env.Stdout, "page %d:\n", loc.Next.Page)
		for _, r := range loc.Next.Rects {
			fmt.Fprintf(env.Stdout, "  [%.1f, %.1f, %.1f, %.1f]\n", r[0], r[1], r[2], r[3])
		}
	}
	return nil
}
