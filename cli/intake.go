package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/workspace"
)

// runAdd is `agentero add DIR FILE|FOLDER… [--json]`: it adds PDFs to the
// vault as papers and indexes them.
func runAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("add", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseVarArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usageError{"want the vault and at least one file or folder"}
	}
	return env.intake(ctx, pos[0], *asJSON, func(ws *workspace.Workspace) (*intake.Report, error) {
		return ws.Add(ctx, pos[1:])
	})
}

// runImport is `agentero import zotero|bibtex|csl SOURCE DIR [--json]`.
func runImport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseVarArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 3 {
		return usageError{"want: import zotero|bibtex|csl SOURCE DIR"}
	}
	kind, source, dir := pos[0], pos[1], pos[2]
	var do func(*workspace.Workspace) (*intake.Report, error)
	switch kind {
	case "zotero":
		do = func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportZotero(ctx, source) }
	case "bibtex", "biblatex", "bib":
		do = func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportBibTeX(ctx, source) }
	case "csl", "csl-json":
		do = func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportCSL(ctx, source) }
	default:
		return usageError{fmt.Sprintf("unknown source %q: want zotero, bibtex or csl", kind)}
	}
	return env.intake(ctx, dir, *asJSON, do)
}

// intake opens the vault, runs do with progress on stderr, and prints the report.
func (env Env) intake(ctx context.Context, dir string, asJSON bool, do func(*workspace.Workspace) (*intake.Report, error)) error {
	progress := func(name string, payload any) {
		if p, ok := payload.(events.IntakeProgressEvent); ok && p.Total > 0 && !asJSON {
			fmt.Fprintf(env.Stderr, "\rpapers %d/%d %-60.60s", p.Done, p.Total, p.Current)
			if p.Done == p.Total {
				fmt.Fprintln(env.Stderr)
			}
		}
	}
	ws, err := env.open(dir, progress)
	if err != nil {
		return err
	}
	defer ws.Close()
	rep, err := do(ws)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(env.Stdout, rep)
	}
	printReport(env.Stdout, rep)
	return nil
}

func printReport(w io.Writer, rep *intake.Report) {
	fmt.Fprintf(w, "%d added, %d updated, %d unchanged, %d skipped, %d without PDF, %d errors\n",
		len(rep.Added), len(rep.Updated), len(rep.Unchanged), len(rep.Skipped), len(rep.WithoutPDF), len(rep.Errors))
	name := func(it intake.Item) string {
		switch {
		case it.Key != "" && it.Title != "":
			return it.Key + " (" + it.Title + ")"
		case it.Key != "":
			return it.Key
		}
		return it.File
	}
	for _, it := range rep.Added {
		fmt.Fprintf(w, "added: %s\n", it.Ref)
	}
	for _, it := range rep.Updated {
		fmt.Fprintf(w, "updated: %s (%v)\n", it.Ref, it.Changed)
	}
	for _, it := range rep.Skipped {
		fmt.Fprintf(w, "skipped: %s: %s\n", name(it), it.Why)
	}
	for _, it := range rep.WithoutPDF {
		fmt.Fprintf(w, "without PDF: %s: %s\n", name(it), it.Why)
	}
	for _, it := range rep.Errors {
		fmt.Fprintf(w, "error: %s: %s\n", name(it), it.Why)
	}
}

// parseVarArgs parses flags anywhere among a variable number of positional
// arguments.
func parseVarArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
