package intake

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/ident"
)

// run brings entries into the vault in order and accounts for each in rep.
func run(ctx context.Context, p *placer, entries []entry, opts Options, rep *Report) error {
	for i, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		cur := e.File
		if e.Key != "" {
			cur = e.Key
		}
		opts.Progress(Progress{Done: i, Total: len(entries), Current: cur})
		one(ctx, p, e, opts, rep)
	}
	opts.Progress(Progress{Done: len(entries), Total: len(entries)})
	return ctx.Err()
}

func one(ctx context.Context, p *placer, e entry, opts Options, rep *Report) {
	item := Item{File: e.File, Key: e.Key, Title: e.Title, Note: e.Note}
	fail := func(err error) {
		var ue *userError
		if errors.As(err, &ue) {
			item.Why = ue.msg
		} else {
			item.Why = "it could not be added: " + err.Error() + "."
		}
		rep.Errors = append(rep.Errors, item)
	}
	updated := func(ref string) {
		item.Ref = ref
		changed, err := p.update(e, ref)
		switch {
		case err != nil:
			fail(err)
		case len(changed) > 0:
			item.Changed = changed
			rep.Updated = append(rep.Updated, item)
		default:
			rep.Unchanged = append(rep.Unchanged, item)
		}
	}
	if ref := p.existing(e); ref != "" {
		sum, note, err := p.refreshPDF(ctx, e, ref)
		if err != nil {
			item.Ref = ref
			fail(err)
			return
		}
		if note != "" {
			item.Note = joinNotes(item.Note, note)
		}
		if sum != "" {
			e.sha256 = sum
			item.Ref = ref
			changed, err := p.update(e, ref)
			if err != nil {
				fail(err)
				return
			}
			item.Changed = append(changed, "paper.pdf")
			rep.Updated = append(rep.Updated, item)
			return
		}
		updated(ref)
		return
	}
	if ref := p.otherImport(e); ref != "" {
		item.Ref = ref
		item.Why = "it is already in the vault as " + ref + ", imported from " + p.meta[ref].record().From + " (same DOI)."
		rep.Skipped = append(rep.Skipped, item)
		return
	}
	if e.File == "" {
		item.Why = "it has no PDF attachment."
		if e.Missing != "" {
			item.Why, item.File = e.Missing, e.MissingFile
		}
		rep.WithoutPDF = append(rep.WithoutPDF, item)
		return
	}
	f, st, err := openPDF(e.File)
	if err != nil {
		if _, serr := os.Stat(e.File); e.From != "file" && serr != nil {
			item.Why = "its PDF is missing: " + e.File + " does not exist."
			rep.WithoutPDF = append(rep.WithoutPDF, item)
			return
		}
		item.Why = err.Error()
		rep.Skipped = append(rep.Skipped, item)
		return
	}
	defer f.Close()
	sum, err := hashReader(&ctxReader{ctx: ctx, r: f})
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		fail(err)
		return
	}
	if ref := p.findHash(ctx, st.Size(), sum); ref != "" {
		if e.From == "file" {
			item.Ref = ref
			item.Why = "it is already in the vault as " + ref + "."
			rep.Skipped = append(rep.Skipped, item)
			return
		}
		if rec := p.meta[ref].record(); rec.Key != "" && rec.Key != e.Key && (rec.From != e.From || p.stillThere(rec.Key)) {
			// Another entry's paper (a duplicate item in Zotero, the same
			// PDF under two citation keys, or another source's): adopting
			// it would make the two take it from each other on every
			// import. (A paper whose key the source no longer has was
			// re-keyed, or moved to another library: it is adopted.)
			item.Ref = ref
			item.Why = "its PDF is already in the vault as " + ref + ", imported from " + rec.From + " " + rec.Key + " (a duplicate?)."
			rep.Skipped = append(rep.Skipped, item)
			return
		}
		updated(ref) // the same PDF was added before: the import adopts it
		return
	}
	if (e.From == "file" || e.FromPDF) && opts.Describe != nil {
		if d, err := opts.Describe(ctx, e.File); err == nil {
			if e.FromPDF {
				e.fill(d)
			} else {
				e.describe(d)
			}
			item.Title = e.Title
		} else if why := unopenable(e.File, err); why != nil {
			item.Why = why.Error()
			rep.Skipped = append(rep.Skipped, item)
			return
		}
	}
	ref, err := p.create(ctx, e, f, sum)
	if err != nil {
		fail(err)
		return
	}
	item.Ref = ref
	rep.Added = append(rep.Added, item)
}

// existing is the paper an import entry already is: the same key from the
// same source, else (BibTeX and CSL) the same DOI.
func (p *placer) existing(e entry) string {
	if e.Key == "" {
		return ""
	}
	if ref, ok := p.byKey[e.From+"\x00"+e.Key]; ok {
		return ref
	}
	if e.From == "bibtex" || e.From == "csl" {
		if doi, _ := e.Values["doi"].(string); doi != "" {
			if ref, ok := p.byDOI[ident.NormalizeDOI(doi)]; ok {
				if p.meta[ref].record().Key == "" { // not another import's paper
					return ref
				}
			}
		}
	}
	return ""
}

// otherImport is the paper with e's DOI that another import brought in:
// e is that paper, but its metadata belongs to the other import.
func (p *placer) otherImport(e entry) string {
	if e.From != "bibtex" && e.From != "csl" {
		return ""
	}
	doi, _ := e.Values["doi"].(string)
	if ref, ok := p.byDOI[ident.NormalizeDOI(doi)]; ok && doi != "" {
		return ref
	}
	return ""
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// fill sets the fields the source left empty from what the PDF says.
func (e *entry) fill(d Described) {
	vals := map[string]any{"title": d.Title, "authors": d.Authors, "year": d.Year, "doi": d.DOI,
		"arxiv_id": d.ArxivID, "abstract": d.Abstract}
	m := marshalValues(e.Values)
	for k, v := range vals {
		if _, set := m[k]; !set {
			e.Values[k] = v
		}
	}
	if e.Title == "" {
		e.Title = d.Title
	}
	if len(e.Authors) == 0 {
		e.Authors = d.Authors
	}
	if e.Year == 0 {
		e.Year = d.Year
	}
}

// gone lists in rep the papers an earlier import of source (from, the
// same Zotero folder or bibliography file) brought in whose keys are not
// among present. Papers whose record names no source (imported before
// sources were recorded) count as this source's for Zotero, which a vault
// has one of, and not for bibliographies, which it may have several of.
func (p *placer) gone(from, source string, present map[string]bool, rep *Report) {
	for _, ref := range sortedKeys(p.meta) {
		rec := p.meta[ref].record()
		if rec.From != from || rec.Key == "" || present[rec.Key] {
			continue
		}
		if rec.Source != source && (rec.Source != "" || from != "zotero") {
			continue
		}
		var title string
		_ = json.Unmarshal(p.meta[ref].raw["title"], &title)
		why := "it is no longer in the Zotero library (deleted, or in the trash); the paper stays in the vault."
		if from != "zotero" {
			why = "it is no longer in " + filepath.Base(source) + "; the paper stays in the vault."
		}
		rep.Gone = append(rep.Gone, Item{Key: rec.Key, Title: title, Ref: ref, Why: why})
	}
}

func (e *entry) describe(d Described) {
	e.Title, e.Authors, e.Year = d.Title, d.Authors, d.Year
	e.Values = map[string]any{"title": d.Title, "authors": d.Authors, "year": d.Year, "doi": d.DOI,
		"arxiv_id": d.ArxivID, "abstract": d.Abstract}
}
