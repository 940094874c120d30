package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/index"
)

func normTitle(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestCorpusIndexed(t *testing.T) {
	_, db, stats := indexedCorpus(t)
	rows := manifest(t)
	if stats.Papers != len(rows) {
		t.Errorf("papers = %d, want %d", stats.Papers, len(rows))
	}
	if len(stats.Errors) != 0 {
		t.Errorf("errors on real papers: %v", stats.Errors)
	}
	ctx := context.Background()
	for _, r := range rows {
		t.Run(r.File, func(t *testing.T) {
			p, err := db.Paper(ctx, refOf(r.File))
			if err != nil {
				t.Fatal(err)
			}
			if p.Pages != r.Pages {
				t.Errorf("pages = %d, want %d (manifest)", p.Pages, r.Pages)
			}
			if strings.HasPrefix(r.Layout, "image-only") {
				if p.Status != index.StatusNoText || p.NoTextPages != r.Pages {
					t.Errorf("image-only scan: status %q with %d pages without text, want %q and %d", p.Status, p.NoTextPages, index.StatusNoText, r.Pages)
				}
			} else if r.TextExtracts == "garbled" {
				// a broken font encoding: no page indexed, the health says why
				if p.Status != index.StatusGarbled || p.NoTextPages != r.Pages || !strings.Contains(p.Error, "needs OCR") {
					t.Errorf("garbled text layer: status %q, %d pages without text, error %q; want %q, %d and a note that it needs OCR",
						p.Status, p.NoTextPages, p.Error, index.StatusGarbled, r.Pages)
				}
			} else if p.Status != index.StatusOK && p.Status != index.StatusPartial {
				t.Errorf("status = %q (%s), want ok or partial", p.Status, p.Error)
			}
			if r.OwnArxiv != "" {
				if want := ident.NormalizeArxiv(r.OwnArxiv); p.ArxivID != want {
					t.Errorf("arxiv id = %q, want %q", p.ArxivID, want)
				}
				if normTitle(p.Title) != normTitle(r.Title) {
					t.Errorf("title = %q (from %s), want %q", p.Title, p.TitleSource, r.Title)
				}
			}
			if r.OwnDOI != "" && p.DOI != ident.NormalizeDOI(r.OwnDOI) {
				t.Errorf("doi = %q, want %q", p.DOI, r.OwnDOI)
			}
		})
	}
	if want := []string{refOf("1985-Flajolet-Probabilistic-counting.pdf")}; strings.Join(stats.NoTextPapers, ",") != strings.Join(want, ",") {
		t.Errorf("noTextPapers = %v, want %v", stats.NoTextPapers, want)
	}
}
