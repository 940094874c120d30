package pdf

import (
	"path/filepath"
	"testing"
)

// TestPageLayout: every page's short lines carry their size and boldness,
// so that headings can be told from prose set in the same words: on Raft
// (no outline), its numbered headings are bold and larger or bold, and the
// numbered steps of its rules are not; on Paxos Made Simple, a heading is
// larger than the body.
func TestPageLayout(t *testing.T) {
	e := newTestExtractor(t, Options{Workers: 1, PDFium: NativePDFium()})
	for _, tc := range []struct {
		file    string
		page    int
		line    string
		bold    bool
		larger  bool // set larger than the page's body
		present bool
	}{
		{"in-search-of-an-understandable-consensus-algorithm.pdf", 5, "5.2 Leader election", true, false, true},
		{"in-search-of-an-understandable-consensus-algorithm.pdf", 11, "7 Log compaction", true, true, true},
		{"in-search-of-an-understandable-consensus-algorithm.pdf", 4, "1. Reply false if term < currentTerm (§5.1)", false, false, true},
		{"paxos-made-simple.pdf", 5, "2.2 Choosing a Value", true, true, true},
		{"paxos-made-simple.pdf", 7, "1. A proposer chooses a new proposal number n and sends a request to", false, false, true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			doc, err := e.Extract(t.Context(), filepath.Join(corpusDir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			pg := doc.Pages[tc.page-1]
			for _, l := range pg.Short {
				if l.Text != tc.line {
					continue
				}
				if l.Bold != tc.bold || (l.Size > pg.BodySize) != tc.larger {
					t.Errorf("%q: bold %v, size %v on a body of %v; want bold %v, larger %v", l.Text, l.Bold, l.Size, pg.BodySize, tc.bold, tc.larger)
				}
				return
			}
			t.Errorf("page %d has no short line %q; it has %d short lines", tc.page, tc.line, len(pg.Short))
		})
	}
}
