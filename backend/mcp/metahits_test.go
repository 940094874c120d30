package mcp_test

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

// TestSearchFindsScansByMetadata: context_search finds a granted paper
// without readable text (a scan, a garbled text layer) by its title, on
// page 1, saying why; a paper not granted is never found so.
func TestSearchFindsScansByMetadata(t *testing.T) {
	g := usual()
	g.Allowed = append(g.Allowed, grant.Source{Kind: grant.KindPaper, Ref: flajolet}, grant.Source{Kind: grant.KindPaper, Ref: garbled})
	s := start(t, g)
	for query, want := range map[string]string{
		"probabilistic counting":    flajolet,
		"cheriton skeens criticism": garbled,
	} {
		var r searchT
		s.ok("context_search", map[string]any{"query": query}, &r)
		if len(r.Cards) == 0 || r.Cards[0].Ref != want || r.Cards[0].Page != 1 || !strings.Contains(r.Cards[0].Snippet, "found by its metadata") {
			t.Errorf("%q: cards %+v, want %s's page 1 found by its metadata first", query, r.Cards, want)
		}
	}

	other := start(t, usual())
	for _, query := range []string{"probabilistic counting", "cheriton skeens criticism", "flajolet"} {
		var r searchT
		other.ok("context_search", map[string]any{"query": query}, &r)
		for _, c := range r.Cards {
			if c.Ref == flajolet || c.Ref == garbled || strings.Contains(c.Snippet, "found by its metadata") {
				t.Errorf("%q on a grant without the scans: card %+v", query, c)
			}
		}
	}
}
