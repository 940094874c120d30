package intake

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// Add adds PDFs to the vault at root: each file named, and every *.pdf in
// each folder named (at any depth; hidden folders and links to folders are
// not entered). Each new PDF becomes papers/<slug>/paper.pdf with a
// metadata.json from what opts.Describe reads in it; a file whose content
// (SHA-256) is already in the vault is skipped with the paper it is, and a
// file that is not a PDF is skipped with why.
func Add(ctx context.Context, root string, paths []string, opts Options) (*Report, error) {
	opts.defaults()
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	var entries []entry
	for _, path := range paths {
		for _, file := range expand(path, rep) {
			entries = append(entries, entry{From: "file", File: file, Folder: vault.PapersDir})
		}
	}
	return rep, run(ctx, p, entries, opts, rep)
}

// expand lists the PDFs a path names: the file itself, or the PDFs in a
// folder, sorted. A folder without PDFs is reported as skipped.
func expand(path string, rep *Report) []string {
	abs, err := filepath.Abs(path)
	if err != nil {
		rep.Skipped = append(rep.Skipped, Item{File: path, Why: path + " cannot be read."})
		return nil
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return []string{abs} // openPDF says what is wrong with it
	}
	var out []string
	filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != abs && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(d.Name()), ".pdf") && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 {
		rep.Skipped = append(rep.Skipped, Item{File: path, Why: "there are no PDFs in " + path + "."})
	}
	return out
}
