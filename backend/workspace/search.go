package workspace

import (
	"context"
	"os"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
)

// Search searches the whole vault: the library's search box and `agentero
// search`. Snippets mark matches with index.MarkStart and index.MarkEnd.
// This is the one place the adapters reach the index's search.
func (w *Workspace) Search(ctx context.Context, query string, limit int) ([]index.Hit, error) {
	return call(ctx, w, func(ctx context.Context) ([]index.Hit, error) {
		res, err := w.lib.DB().Search(ctx, index.Query{Text: query, Scope: index.Scope{AllPapers: true}, Limit: limit})
		return res.Hits, err
	})
}

// Papers lists the vault's papers with their index health.
func (w *Workspace) Papers(ctx context.Context) ([]index.Paper, error) {
	return call(ctx, w, w.lib.DB().Papers)
}

// Complete lists @-mention candidates for what the user typed.
func (w *Workspace) Complete(ctx context.Context, query string, limit int) ([]index.Completion, error) {
	return call(ctx, w, func(ctx context.Context) ([]index.Completion, error) {
		return w.lib.DB().Complete(ctx, query, limit)
	})
}

// PageLabel is the printed label of a page of a paper ("" when the page
// has none): how exports name the pages they cite.
func (w *Workspace) PageLabel(ctx context.Context, ref string, page int) (string, error) {
	return call(ctx, w, func(ctx context.Context) (string, error) {
		_, label, err := w.lib.DB().PageText(ctx, ref, page)
		return label, err
	})
}

// SourceExists reports whether a citation URI still opens: its file is in
// the vault. External DOI and arXiv links always "exist"; what is not a
// citation URI does not.
func (w *Workspace) SourceExists(uri string) bool {
	u, err := citation.Parse(uri)
	if err != nil {
		return false
	}
	if u.External() {
		return true
	}
	abs, err := vault.Resolve(w.Root(), u.Path)
	if err != nil {
		return false
	}
	st, err := os.Stat(abs)
	return err == nil && st.Mode().IsRegular()
}

// Sections lists the sections of the paper whose PDF is pdfPath
// (vault-relative): the viewer's outline panel. Each opens its page.
func (w *Workspace) Sections(ctx context.Context, pdfPath string) ([]index.Section, error) {
	return call(ctx, w, func(ctx context.Context) ([]index.Section, error) {
		p, err := w.lib.DB().PaperByPDF(ctx, pdfPath)
		if err != nil {
			return nil, err
		}
		return w.lib.DB().Sections(ctx, p.Ref)
	})
}

// Figures lists the figures and tables of the paper whose PDF is pdfPath
// (vault-relative), found by their captions: the viewer's Figures list.
// Each opens its page with its region outlined.
func (w *Workspace) Figures(ctx context.Context, pdfPath string) ([]index.Figure, error) {
	return call(ctx, w, func(ctx context.Context) ([]index.Figure, error) {
		p, err := w.lib.DB().PaperByPDF(ctx, pdfPath)
		if err != nil {
			return nil, err
		}
		return w.lib.DB().Captions(ctx, p.Ref)
	})
}
