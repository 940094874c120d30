package mcp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/quote"
)

// TestEverySectionReads: every section of every paper of the test vault
// (outlines and detected headings alike) is read by mode section through
// the real server, and its text begins with its title on its page.
func TestEverySectionReads(t *testing.T) {
	b := grant.DefaultBudget()
	b.FullChars, b.TurnChars = 2000, grant.Limits.TurnChars // the start of each section is what is checked
	papers := []string{raft, paxos, paxosMC, chubby, attention, mishra, omega, bitcoin}
	var allowed []grant.Source
	for _, p := range papers {
		allowed = append(allowed, grant.Source{Kind: grant.KindPaper, Ref: p})
	}
	// The sections are listed by a server with the default budget (its
	// metadata reads hold the abstracts too), read by one that cuts them.
	lister := start(t, grantOf(grant.DefaultBudget(), allowed...))
	s := start(t, grantOf(b, allowed...))
	read, detected := 0, 0
	for _, ref := range papers {
		var m metaT
		lister.ok("context_read", map[string]any{"ref": ref}, &m)
		if len(m.Outline) < 4 || m.Truncated {
			t.Errorf("%s: %d sections (truncated %v), want at least 4 listed", ref, len(m.Outline), m.Truncated)
		}
		if m.OutlineFrom == "headings" {
			detected++
		}
		seen := map[string]bool{}
		for _, o := range m.Outline {
			if seen[o.Title] {
				continue // a title given twice is read by its first
			}
			seen[o.Title] = true
			var sec textT
			s.ok("context_read", map[string]any{"ref": ref, "mode": "section", "section": o.Title}, &sec)
			head := fmt.Sprintf("[page %d", o.Page)
			_, body, _ := strings.Cut(sec.Text, "\n") // after the page header
			if sec.Section != o.Title || sec.Page != o.Page || !strings.HasPrefix(sec.Text, head) ||
				!strings.HasPrefix(quote.Fold(body), quote.Fold(o.Title)) {
				t.Errorf("%s %q (page %d): read section %q page %d, text %.80q", ref, o.Title, o.Page, sec.Section, sec.Page, sec.Text)
				continue
			}
			read++
		}
	}
	t.Logf("%d sections read in %d papers (%d with detected headings)", read, len(papers), detected)
	if detected < 4 {
		t.Errorf("%d papers with detected headings, want the test vault's papers without an outline", detected)
	}
}
