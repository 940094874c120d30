package applink

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/google/go-cmp/cmp"
)

// TestCitation: a citation becomes a link and back, through the one
// citation type, with what the link can carry.
func TestCitation(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   citation.URI
		want Link
		back citation.URI // the citation the link opens
	}{
		{"a page with a quote", citation.New("papers/raft/paper.pdf", 6, "randomized election timeouts"),
			Link{Vault: "/v", Ref: "papers/raft", Page: 6, Quote: "randomized election timeouts"},
			citation.New("papers/raft/paper.pdf", 6, "randomized election timeouts")},
		{"the whole paper opens at page 1", citation.New("papers/raft/paper.pdf", 0, ""),
			Link{Vault: "/v", Ref: "papers/raft", Page: 1}, citation.New("papers/raft/paper.pdf", 1, "")},
		{"a figure's region", citation.New("papers/raft/paper.pdf", 2, "").WithRegion(citation.Region{X: 69, Y: 36.6, Width: 243.8, Height: 196.7}),
			Link{Vault: "/v", Ref: "papers/raft", Page: 2, Region: citation.Region{X: 69, Y: 36.6, Width: 243.8, Height: 196.7}},
			citation.New("papers/raft/paper.pdf", 2, "").WithRegion(citation.Region{X: 69, Y: 36.6, Width: 243.8, Height: 196.7})},
		{"a label is the viewer's to find", citation.URI{Path: "papers/raft/paper.pdf", Page: 8, Label: "iv"},
			Link{Vault: "/v", Ref: "papers/raft", Page: 8}, citation.New("papers/raft/paper.pdf", 8, "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := For("/v", "papers/raft", tc.in)
			if diff := cmp.Diff(tc.want, l); diff != "" {
				t.Errorf("For (-want +got):\n%s", diff)
			}
			parsed, err := Parse(l.String())
			if err != nil {
				t.Fatalf("the link does not parse: %v", err)
			}
			if diff := cmp.Diff(tc.back, parsed.Citation("papers/raft/paper.pdf")); diff != "" {
				t.Errorf("Citation (-want +got):\n%s", diff)
			}
		})
	}
	// A quote longer than a link carries is cut at a word's end.
	long := strings.Repeat("consensus algorithm ", 100)
	l := For("/v", "papers/raft", citation.New("papers/raft/paper.pdf", 2, long))
	if n := utf8.RuneCountInString(l.Quote); n > MaxQuote || n < MaxQuote/2 || strings.HasSuffix(l.Quote, " ") || !strings.HasPrefix(long, l.Quote) {
		t.Errorf("a long quote became %d characters: %q…", n, l.Quote[:40])
	}
	if _, err := Parse(l.String()); err != nil {
		t.Errorf("the link of a long quote does not parse: %v", err)
	}
}
