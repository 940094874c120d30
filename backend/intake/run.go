package intake

import (
	"context"
	"errors"
	"io"
	"os"

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
	item := Item{File: e.File, Key: e.Key, Title: e.Title}
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
			item.Why = e.Missing
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
		updated(ref) // the same PDF was added before: the import adopts it
		return
	}
	if e.From == "file" && opts.Describe != nil {
		if d, err := opts.Describe(ctx, e.File); err == nil {
			e.describe(d)
			item.Title = e.Title
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

func (e *entry) describe(d Described) {
	e.Title, e.Authors, e.Year = d.Title, d.Authors, d.Year
	e.Values = map[string]any{"title": d.Title, "authors": d.Authors, "year": d.Year, "doi": d.DOI,
		"arxiv_id": d.ArxivID, "abstract": d.Abstract}
}
