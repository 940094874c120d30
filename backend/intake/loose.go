package intake

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/agentero/agentero/backend/metadata"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// Found is what a folder holds, for a folder that may not be a vault yet
// (the most common real layout is a folder of loose PDFs).
type Found struct {
	Vault      bool     `json:"vault"`      // it has papers/ or .agentero/
	Papers     int      `json:"papers"`     // paper folders under papers/
	TopPDFs    []string `json:"topPdfs"`    // PDFs directly in the folder, folder-relative
	NestedPDFs []string `json:"nestedPdfs"` // PDFs in its other folders (not under papers/ or hidden ones)
}

// Inspect reports what the folder dir holds. It writes nothing.
func Inspect(dir string) (*Found, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, refuse("%s is not a folder.", dir)
	}
	f := &Found{TopPDFs: []string{}, NestedPDFs: []string{}}
	for _, name := range []string{vault.PapersDir, vault.StateDir} {
		if st, err := os.Lstat(filepath.Join(abs, name)); err == nil && st.IsDir() {
			f.Vault = true
		}
	}
	if f.Vault {
		if snap, err := vault.Scan(abs); err == nil {
			f.Papers = len(snap.Papers)
		}
	}
	filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == abs {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, abs+string(filepath.Separator)))
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || rel == vault.PapersDir {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.EqualFold(path.Ext(rel), ".pdf") && !strings.HasPrefix(d.Name(), ".") {
			if strings.Contains(rel, "/") {
				f.NestedPDFs = append(f.NestedPDFs, rel)
			} else {
				f.TopPDFs = append(f.TopPDFs, rel)
			}
		}
		return nil
	})
	sort.Strings(f.TopPDFs)
	sort.Strings(f.NestedPDFs)
	return f, nil
}

// Move is one step of an arrangement: the PDF From (folder-relative) goes
// to To (papers/<slug>/paper.pdf), with the metadata read from it.
type Move struct {
	From    string   `json:"from"`
	To      string   `json:"to"`
	Title   string   `json:"title,omitempty"`
	Authors []string `json:"authors,omitempty"`
	Year    int      `json:"year,omitempty"`
}

// PlanArrangement is the preview of arranging the loose PDFs of dir (the
// ones Inspect lists) into papers/<slug>/paper.pdf: nothing is written.
// Apply performs exactly this plan.
func PlanArrangement(ctx context.Context, dir string, opts Options) ([]Move, error) {
	f, err := Inspect(dir)
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(dir)
	taken := map[string]bool{}
	var moves []Move
	for _, rel := range append(append([]string{}, f.TopPDFs...), f.NestedPDFs...) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := Move{From: rel}
		if opts.Describe != nil {
			if d, err := opts.Describe(ctx, filepath.Join(abs, filepath.FromSlash(rel))); err == nil {
				m.Title, m.Authors, m.Year = d.Title, d.Authors, d.Year
			}
		}
		base := slug(m.Authors, m.Year, m.Title, rel)
		for i := 1; ; i++ {
			name := base
			if i > 1 {
				name += "-" + strconv.Itoa(i)
			}
			folder := path.Join(vault.PapersDir, name)
			if _, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(folder))); errors.Is(err, fs.ErrNotExist) && !taken[folder] {
				taken[folder] = true
				m.To = folder + "/paper.pdf"
				break
			}
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// ApplyArrangement performs the moves of a plan in dir (copies them when
// copy is set, leaving the loose PDFs where they are), each only if its
// source is still a PDF inside dir and its folder still free: a move that
// no longer fits is skipped with why, never forced.
func ApplyArrangement(ctx context.Context, dir string, moves []Move, copy bool) (*Report, error) {
	p, err := newPlacer(ctx, dir)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		item := Item{File: m.From, Title: m.Title, Ref: path.Dir(m.To)}
		skip := func(why string) { item.Why = why; rep.Skipped = append(rep.Skipped, item) }
		folder := path.Dir(m.To)
		if !vault.ValidRel(m.From) || !vault.ValidRel(m.To) || path.Base(m.To) != "paper.pdf" || path.Dir(folder) != vault.PapersDir {
			skip("the move " + m.From + " → " + m.To + " is not one Agentero plans.")
			continue
		}
		src := filepath.Join(p.root, filepath.FromSlash(m.From))
		if real, err := filepath.EvalSymlinks(src); err != nil || real != src {
			skip(m.From + " is no longer a file in this folder.")
			continue
		}
		f, _, err := openPDF(src)
		if err != nil {
			skip(err.Error())
			continue
		}
		err = func() error {
			defer f.Close()
			if err := p.mkdirs(vault.PapersDir); err != nil {
				return err
			}
			target := filepath.Join(p.root, filepath.FromSlash(folder))
			if err := os.Mkdir(target, 0o755); err != nil {
				if errors.Is(err, fs.ErrExist) {
					return refuse("%s exists now; %s was left where it is.", folder, m.From)
				}
				return err
			}
			vals := map[string]any{"title": m.Title, "authors": m.Authors, "year": m.Year}
			values := marshalValues(vals)
			raw := map[string]json.RawMessage{}
			for k, v := range values {
				raw[k] = v
			}
			if err := metadata.WriteImported(target, raw, record{From: "file", File: m.From, Values: values}); err != nil {
				os.RemoveAll(target)
				return err
			}
			if copy {
				if err := atomicWriteFrom(filepath.Join(target, "paper.pdf"), f, ctx); err != nil {
					os.RemoveAll(target)
					return err
				}
				return nil
			}
			if err := os.Rename(src, filepath.Join(target, "paper.pdf")); err != nil {
				os.RemoveAll(target)
				return err
			}
			return nil
		}()
		if err != nil {
			var ue *userError
			if errors.As(err, &ue) {
				skip(ue.msg)
			} else {
				item.Why = err.Error()
				rep.Errors = append(rep.Errors, item)
			}
			continue
		}
		rep.Added = append(rep.Added, item)
	}
	return rep, nil
}
