package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentero/agentero/backend/refs"
)

// relationsOutput is what `agentero relations --json` prints (SPEC §12):
// one list per kind asked for.
type relationsOutput struct {
	References *[]refs.Card `json:"references,omitempty"`
	CitedBy    *[]refs.Card `json:"citedBy,omitempty"`
	Related    *[]refs.Card `json:"related,omitempty"`
}

// runRelations is `agentero relations DIR REF [--kind K] [--limit N]
// [--write-sidecars] [--json]`: it brings the index and the reference lists
// up to date, then prints the paper's references, the library papers that
// cite it and the related ones.
func runRelations(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("relations", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	kind := fs.String("kind", "", "references, citedBy or related (default: all three)")
	limit := fs.Int("limit", refs.DefaultLimit, "cards per kind")
	sidecars := fs.Bool("write-sidecars", false, "write source/agentero-cite.json into the paper folders")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	kinds := refs.Kinds
	if *kind != "" {
		k, err := refs.ParseKind(*kind)
		if err != nil {
			return usageError{err.Error()}
		}
		kinds = []refs.Kind{k}
	}
	if *limit < 1 || *limit > refs.MaxLimit {
		return usageError{fmt.Sprintf("--limit must be between 1 and %d", refs.MaxLimit)}
	}
	ws, err := env.openSynced(ctx, pos[0])
	if err != nil {
		return err
	}
	defer ws.Close()
	if *sidecars {
		if err := ws.SyncRelations(ctx, true); err != nil {
			return err
		}
	}
	rel, err := ws.Relations(ctx, paperRef(ws.Root(), pos[1]), *limit, kinds...)
	if err != nil {
		return err
	}
	var out relationsOutput
	for _, k := range kinds {
		switch k {
		case refs.References:
			out.References = &rel.References
		case refs.CitedBy:
			out.CitedBy = &rel.CitedBy
		case refs.Related:
			out.Related = &rel.Related
		}
	}
	if *asJSON {
		return printJSON(env.Stdout, out)
	}
	for _, section := range []struct {
		name  string
		cards *[]refs.Card
	}{{"references", out.References}, {"cited by", out.CitedBy}, {"related", out.Related}} {
		if section.cards == nil {
			continue
		}
		fmt.Fprintf(env.Stdout, "%s (%d)\n", section.name, len(*section.cards))
		for _, c := range *section.cards {
			printCard(env, c)
		}
	}
	return nil
}

func printCard(env Env, c refs.Card) {
	where := c.PaperPath
	if where == "" {
		where = c.CitationURI
	}
	year := ""
	if c.Year > 0 {
		year = fmt.Sprintf(" (%d)", c.Year)
	}
	fmt.Fprintf(env.Stdout, "  %s%s", c.Title, year)
	if where != "" {
		fmt.Fprintf(env.Stdout, "  %s", where)
	}
	if c.MatchBy != "" {
		fmt.Fprintf(env.Stdout, "  [%s]", c.MatchBy)
	}
	fmt.Fprintln(env.Stdout)
}

// paperRef turns what the user typed into a paper ref: "papers/raft",
// "papers/raft/", the paper's PDF, or an absolute path inside the vault.
func paperRef(root, arg string) string {
	p := arg
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(root, p); err == nil {
			p = rel
		}
	}
	p = strings.Trim(filepath.ToSlash(filepath.Clean(p)), "/")
	if strings.HasSuffix(strings.ToLower(p), ".pdf") {
		p = strings.TrimSuffix(p, "/"+filepath.Base(p))
	}
	return p
}
