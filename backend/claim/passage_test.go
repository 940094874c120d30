package claim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
)

// TestPassage: a check that finds a claim's words on a page (supported,
// weak, wrong-page) says where, in the page's own words: the locator finds
// the passage on the page that holds the claim, and PDFium's character
// boxes give it rectangles there — what the viewer marks when the
// citation is opened. A verified or unsupported check has none.
func TestPassage(t *testing.T) {
	root, db := smallVault(t)
	ex := pdf.NewExtractor(pdf.Options{Workers: 1})
	defer ex.Close()
	for _, tc := range []struct {
		name    string
		md      string
		verdict citation.Verdict
		page    int      // the page the passage is on
		holds   []string // words the passage must hold
	}{
		{"supported", "Raft's election timeouts are chosen randomly from 150–300 ms [" + raftPDF + "#page=6].",
			citation.Supported, 6, []string{"150", "300", "randomly"}},
		{"weak: a changed number", "Raft's election timeouts are chosen randomly from 150–350 ms [" + raftPDF + "#page=6].",
			citation.Weak, 6, []string{"150", "randomly"}},
		{"wrong page", "Raft's election timeouts are 150–300 ms [" + raftPDF + "#page=1].",
			citation.WrongPage, 6, []string{"150", "300"}},
		{"a quote on another page", "“Raft uses randomized election timeouts to ensure that split votes are rare” [" + raftPDF + "#page=2]",
			citation.WrongPage, 6, []string{"randomized election timeouts"}},
		{"a whole paper", "Proof-of-work is essentially one-CPU-one-vote [" + bitcoinPDF + "].",
			citation.Supported, 3, []string{"one-CPU-one-vote"}},
		{"verified", "“Raft uses randomized election timeouts to ensure that split votes are rare” [" + raftPDF + "#page=6]",
			citation.Verified, 0, nil},
		{"unsupported", "Bitcoin miners must solve a hash puzzle by scanning for nonces [" + raftPDF + "#page=6].",
			citation.Unsupported, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checks, err := claim.Check(t.Context(), tc.md, db, claim.Options{Vault: root})
			if err != nil {
				t.Fatal(err)
			}
			if len(checks) != 1 || checks[0].Verdict != tc.verdict {
				t.Fatalf("checks %+v, want one %s", checks, tc.verdict)
			}
			c := checks[0]
			if tc.page == 0 {
				if c.Passage != "" {
					t.Errorf("a %s check has the passage %q", c.Verdict, c.Passage)
				}
				return
			}
			if c.Passage == "" {
				t.Fatalf("no passage: %+v", c)
			}
			for _, w := range tc.holds {
				if !strings.Contains(c.Passage, w) {
					t.Errorf("the passage does not hold %q: %q", w, c.Passage)
				}
			}
			u, err := citation.Parse(c.URI)
			if err != nil {
				t.Fatal(err)
			}
			paper, err := db.Paper(t.Context(), filepath.ToSlash(filepath.Dir(u.Path)))
			if err != nil {
				t.Fatal(err)
			}
			// On the page, in the index's text.
			pages, err := db.Pages(t.Context(), paper.Ref, 1, paper.Pages)
			if err != nil {
				t.Fatal(err)
			}
			in := make([]quote.Page, len(pages))
			for i, p := range pages {
				in[i] = quote.Page{Number: p.Number, Text: p.Text}
			}
			if m, ok := quote.NewPaper(in).Find(tc.page, c.Passage); !ok || m.Page != tc.page {
				t.Fatalf("the passage is not on page %d: %q", tc.page, c.Passage)
			}
			// Located as the viewer has it marked: on the page PDFium
			// reads, with rectangles for each of its pieces.
			f, err := os.Open(filepath.Join(root, filepath.FromSlash(paper.PDFPath)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want := []int{tc.page}
			if tc.page < paper.Pages {
				want = append(want, tc.page+1)
			}
			chars, err := ex.Chars(t.Context(), f, want)
			if err != nil {
				t.Fatal(err)
			}
			var shown []quote.Page
			boxes := map[int][][4]float64{}
			for _, ch := range chars {
				shown = append(shown, quote.Page{Number: ch.Number, Text: ch.Text})
				boxes[ch.Number] = ch.Boxes
			}
			qp := quote.NewPaper(shown)
			m, ok := qp.Find(tc.page, c.Passage)
			if !ok {
				t.Fatalf("the locator does not find the passage on page %d as PDFium reads it: %q", tc.page, c.Passage)
			}
			for _, s := range m.Spans {
				if len(quote.Rects(boxes[s.Page], s.From, s.To)) == 0 {
					t.Errorf("no rectangles for %q on page %d", []rune(shownText(shown, s.Page))[s.From:s.To], s.Page)
				}
			}
			if got := quote.Fold(qp.Text(m)); got != quote.Fold(c.Passage) {
				t.Errorf("the words located are not the passage's:\n got %q\nwant %q", qp.Text(m), c.Passage)
			}
		})
	}
}

func shownText(pages []quote.Page, n int) string {
	for _, p := range pages {
		if p.Number == n {
			return p.Text
		}
	}
	return ""
}
