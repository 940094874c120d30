package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
)

// TestFigures: the captions of a paper's figures and tables are stored
// with their pages and regions, and a search finds them when it names
// one ("figure 1", "table 2") or holds the words of a caption, within
// its scope only.
func TestFigures(t *testing.T) {
	root := makeVault(t, []string{"vit.pdf", "1706.03762.pdf", "paxos-made-simple.pdf"})
	db := openDB(t, root)
	syncVault(t, db, sharedExtractor(), root)
	ctx := context.Background()
	vit, transformer := refOf("vit.pdf"), refOf("1706.03762.pdf")

	figs, err := db.Captions(ctx, vit)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) < 10 {
		t.Fatalf("vit: %d figures and tables; want 10 or more", len(figs))
	}
	for _, f := range figs {
		text, _, err := db.PageText(ctx, vit, f.Page)
		if err != nil {
			t.Fatal(err)
		}
		head := strings.Fields(f.Caption)[:2]
		if !strings.Contains(text, strings.Join(head, " ")) {
			t.Errorf("%s: %q is not on page %d", f.Label, strings.Join(head, " "), f.Page)
		}
		r, b := f.Region, f.Box
		if r.Width <= 0 || r.Height <= b.Height || b.Y < r.Y || b.Y+b.Height > r.Y+r.Height+0.1 {
			t.Errorf("%s: region %+v does not hold its caption %+v", f.Label, r, b)
		}
	}
	if none, err := db.Captions(ctx, refOf("paxos-made-simple.pdf")); err != nil || len(none) != 0 {
		t.Errorf("paxos made simple has no figures; got %+v, %v", none, err)
	}

	for _, tc := range []struct {
		name  string
		query string
		scope index.Scope
		want  []string // ref + label, in order
	}{
		{"named in one paper", "figure 1", index.Scope{Papers: []string{vit}}, []string{vit + " Figure 1"}},
		{"named in the vault", "Table 2", index.Scope{AllPapers: true}, []string{transformer + " Table 2", vit + " Table 2"}},
		{"named with words", "what does fig. 3 show about attention", index.Scope{Papers: []string{transformer}}, []string{transformer + " Figure 3"}},
		{"caption words", "Vision Transformer model variants", index.Scope{AllPapers: true}, []string{vit + " Table 1"}},
		{"caption words out of scope", "Vision Transformer model variants", index.Scope{Papers: []string{transformer}}, nil},
		{"no caption words", "consensus among acceptors", index.Scope{AllPapers: true}, nil},
		{"a figure the paper lacks", "figure 40", index.Scope{AllPapers: true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := db.FigureHits(ctx, index.FigureQuery{Text: tc.query, Scope: tc.scope})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.Ref+" "+h.Label)
			}
			if len(got) < len(tc.want) || len(tc.want) == 0 && len(got) > 0 {
				t.Fatalf("%q: %q; want %q first", tc.query, got, tc.want)
			}
			for i, w := range tc.want {
				if got[i] != w {
					t.Errorf("%q: hit %d is %q; want %q (all: %q)", tc.query, i, got[i], w, got)
				}
			}
		})
	}
}
