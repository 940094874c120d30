package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/workspace"
)

// runAdd is `agentero add DIR FILE|FOLDER… [--init] [--json]`: it adds
// PDFs to the vault as papers and indexes them. DIR must be a vault: a
// mistyped path is refused rather than made a new vault, unless --init
// asks for one (a missing folder is then created).
func runAdd(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("add", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	init := fs.Bool("init", false, "make DIR a vault when it is not one")
	pos, err := parseVarArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usageError{"want the vault and at least one file or folder"}
	}
	if !*init && !applink.IsVault(pos[0]) {
		what := "is not a vault (it has no papers/ or .agentero/)"
		if _, err := os.Stat(pos[0]); errors.Is(err, iofs.ErrNotExist) {
			what = "does not exist"
		}
		return fmt.Errorf("%s %s: check the path, or add --init to make it a new vault", pos[0], what)
	}
	return env.intake(ctx, pos[0], *asJSON, addJSON, func(ws *workspace.Workspace) (*intake.Report, error) {
		return ws.Add(ctx, pos[1:])
	})
}

// runImport is `agentero import zotero|bibtex|csl SOURCE DIR [--json]`
// (zotero also takes --base-dir PATH, Zotero's Linked Attachment Base
// Directory).
func runImport(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	baseDir := fs.String("base-dir", "", "Zotero's Linked Attachment Base Directory")
	pos, err := parseVarArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 3 {
		return usageError{"want: import zotero|bibtex|csl SOURCE DIR"}
	}
	kind, source, dir := pos[0], pos[1], pos[2]
	if *baseDir != "" && kind != "zotero" {
		return usageError{"--base-dir is for import zotero only"}
	}
	var do func(*workspace.Workspace) (*intake.Report, error)
	switch kind {
	case "zotero":
		do = func(ws *workspace.Workspace) (*intake.Report, error) {
			return ws.ImportZoteroBase(ctx, source, *baseDir)
		}
	case "bibtex", "biblatex", "bib":
		do = func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportBibTeX(ctx, source) }
	case "csl", "csl-json":
		do = func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportCSL(ctx, source) }
	default:
		return usageError{fmt.Sprintf("unknown source %q: want zotero, bibtex or csl", kind)}
	}
	return env.intake(ctx, dir, *asJSON, importJSON, do)
}

// intake opens the vault, runs do with progress on stderr, and prints the report.
func (env Env) intake(ctx context.Context, dir string, asJSON bool, shape func(*intake.Report) any, do func(*workspace.Workspace) (*intake.Report, error)) (err error) {
	// A new user's first step makes the vault: a folder that is not there
	// yet is created (the folder it goes in must be), and removed again
	// when the run fails, with the index made in it.
	if _, statErr := os.Stat(dir); errors.Is(statErr, iofs.ErrNotExist) {
		if mkErr := os.Mkdir(dir, 0o755); mkErr != nil {
			return fmt.Errorf("create the vault folder: %w", mkErr)
		}
		defer func() {
			if err != nil {
				os.RemoveAll(dir)
			}
		}()
	}
	show := progressPrinter(env.Stderr, "papers")
	progress := func(name string, payload any) {
		if p, ok := payload.(events.IntakeProgressEvent); ok && !asJSON {
			show(p.Done, p.Total, p.Current)
		}
	}
	ws, err := env.open(dir, progress)
	if err != nil {
		return err
	}
	rep, err := do(ws)
	ws.Close() // before a new folder that failed is removed
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(env.Stdout, shape(rep))
	}
	printReport(env.Stdout, rep)
	return nil
}

// The JSON of add and import (SPEC §12): the papers as refs, what was not
// brought in as {file or key, title, why}.
type (
	addOutput struct {
		Added   []string     `json:"added"`   // refs of the new papers
		Skipped []notBrought `json:"skipped"` // files not added (already in the vault, not a PDF, failed), with why
	}
	importOutput struct {
		Added      []string     `json:"added"`     // refs of the new papers
		Updated    []string     `json:"updated"`   // refs whose metadata.json the import changed
		Unchanged  []string     `json:"unchanged"` // refs the import found as they were
		WithoutPDF []notBrought `json:"withoutPdf"`
		Skipped    []notBrought `json:"skipped"` // entries whose PDF was refused or is already another paper's
		Errors     []notBrought `json:"errors"`
		// Changes says which metadata.json keys each update rewrote.
		Changes []change `json:"changes"`
		// Gone are papers an earlier import of this source brought in whose
		// entry it no longer has; they stay in the vault.
		Gone []notBrought `json:"gone"`
		// Notes are what else to know of a paper (its other PDFs, not copied).
		Notes []note `json:"notes"`
	}
	note struct {
		Ref  string `json:"ref,omitempty"`
		Key  string `json:"key,omitempty"`
		Note string `json:"note"`
	}
	notBrought struct {
		File  string `json:"file,omitempty"`
		Key   string `json:"key,omitempty"`
		Title string `json:"title,omitempty"`
		Ref   string `json:"ref,omitempty"` // the paper it is already, when it is
		Why   string `json:"why"`
	}
	change struct {
		Ref     string   `json:"ref"`
		Changed []string `json:"changed"`
	}
)

func refsOf(items []intake.Item) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Ref)
	}
	return out
}

func notBroughtIn(lists ...[]intake.Item) []notBrought {
	out := []notBrought{}
	for _, items := range lists {
		for _, it := range items {
			out = append(out, notBrought{File: it.File, Key: it.Key, Title: it.Title, Ref: it.Ref, Why: it.Why})
		}
	}
	return out
}

func addJSON(rep *intake.Report) any {
	// add has no metadata to update or lack: a file is added or not.
	return addOutput{Added: refsOf(rep.Added), Skipped: notBroughtIn(rep.Skipped, rep.WithoutPDF, rep.Errors)}
}

func importJSON(rep *intake.Report) any {
	out := importOutput{
		Added: refsOf(rep.Added), Updated: refsOf(rep.Updated), Unchanged: refsOf(rep.Unchanged),
		WithoutPDF: notBroughtIn(rep.WithoutPDF), Skipped: notBroughtIn(rep.Skipped), Errors: notBroughtIn(rep.Errors),
		Changes: []change{}, Gone: notBroughtIn(rep.Gone), Notes: []note{},
	}
	for _, it := range rep.Updated {
		out.Changes = append(out.Changes, change{Ref: it.Ref, Changed: append([]string{}, it.Changed...)})
	}
	for _, list := range [][]intake.Item{rep.Added, rep.Updated, rep.Unchanged} {
		for _, it := range list {
			if it.Note != "" {
				out.Notes = append(out.Notes, note{Ref: it.Ref, Key: it.Key, Note: it.Note})
			}
		}
	}
	return out
}

func printReport(w io.Writer, rep *intake.Report) {
	fmt.Fprintf(w, "%d added, %d updated, %d unchanged, %d skipped, %d without PDF, %d errors",
		len(rep.Added), len(rep.Updated), len(rep.Unchanged), len(rep.Skipped), len(rep.WithoutPDF), len(rep.Errors))
	if len(rep.Gone) > 0 {
		fmt.Fprintf(w, ", %d no longer in the source", len(rep.Gone))
	}
	fmt.Fprintln(w)
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
	for _, it := range rep.Gone {
		fmt.Fprintf(w, "no longer in the source: %s: %s: %s\n", it.Ref, name(it), it.Why)
	}
	for _, list := range [][]intake.Item{rep.Added, rep.Updated, rep.Unchanged} {
		for _, it := range list {
			if it.Note != "" {
				fmt.Fprintf(w, "note: %s: %s\n", it.Ref, it.Note)
			}
		}
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
