package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/workspace"
)

// metadataOut is what `agentero metadata --json` prints.
type metadataOut struct {
	Papers []paperMeta             `json:"papers"`
	Lookup *workspace.OnlineReport `json:"lookup,omitempty"` // with --online
}

type paperMeta struct {
	Ref         string   `json:"ref"`
	Title       string   `json:"title"`
	TitleSource string   `json:"titleSource"`
	Authors     []string `json:"authors"`
	Year        int      `json:"year"`
	DOI         string   `json:"doi"`
	ArxivID     string   `json:"arxivId"`
	Abstract    string   `json:"abstract,omitempty"`
	Status      string   `json:"status"`
}

// runMetadata indexes the vault and lists its papers' metadata; with
// --online (the user's consent for this run) it first looks the papers'
// DOIs and arXiv ids up (those looked up before only with --again).
func runMetadata(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("metadata", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	online := fs.Bool("online", false, "look DOIs up at Crossref and arXiv ids at arXiv")
	again := fs.Bool("again", false, "with --online: look up papers looked up before too")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if *again && !*online {
		return usageError{"--again needs --online"}
	}
	ws, err := env.open(pos[0], nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	if _, err := ws.Sync(ctx); err != nil {
		return err
	}
	var out metadataOut
	if *online {
		r, err := ws.LookupMetadata(ctx, true, *again)
		if err != nil {
			return err
		}
		out.Lookup = &r
	}
	papers, err := ws.Papers(ctx)
	if err != nil {
		return err
	}
	for _, p := range papers {
		out.Papers = append(out.Papers, metaOf(p))
	}
	if *asJSON {
		if out.Papers == nil {
			out.Papers = []paperMeta{}
		}
		return printJSON(env.Stdout, out)
	}
	for _, p := range out.Papers {
		year := ""
		if p.Year != 0 {
			year = fmt.Sprintf(" (%d)", p.Year)
		}
		first := ""
		if len(p.Authors) > 0 {
			first = p.Authors[0]
			if len(p.Authors) > 1 {
				first += " et al."
			}
			first += ": "
		}
		ids := strings.TrimSpace(strings.Join([]string{prefixed("doi:", p.DOI), prefixed("arXiv:", p.ArxivID)}, " "))
		fmt.Fprintf(env.Stdout, "%s\n  %s%s%s  [title from %s] %s\n", p.Ref, first, p.Title, year, p.TitleSource, ids)
	}
	if r := out.Lookup; r != nil {
		fmt.Fprintf(env.Stdout, "looked up %d papers online: %d updated, %d failed\n", r.Papers, r.Updated, r.Failed)
		for _, rep := range r.Reports {
			switch {
			case rep.Error != "":
				fmt.Fprintf(env.Stdout, "  %s (%s %s): %s\n", rep.Ref, rep.Source, rep.ID, rep.Error)
			case len(rep.Wrote) > 0:
				fmt.Fprintf(env.Stdout, "  %s (%s %s): wrote %s\n", rep.Ref, rep.Source, rep.ID, strings.Join(rep.Wrote, ", "))
			}
		}
	}
	return nil
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func metaOf(p index.Paper) paperMeta {
	return paperMeta{Ref: p.Ref, Title: p.Title, TitleSource: p.TitleSource, Authors: p.Authors, Year: p.Year, DOI: p.DOI, ArxivID: p.ArxivID, Abstract: p.Abstract, Status: p.Status}
}
