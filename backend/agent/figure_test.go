package agent_test

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestFigureCitation asks about a figure by its number: the search's
// figure card is read as its page, and the answer cites that page with the
// figure's region, as the index found it, so that its source outlines the
// figure.
func TestFigureCitation(t *testing.T) {
	const file = "in-search-of-an-understandable-consensus-algorithm.pdf"
	v := indexVault(t, corpustest.Vault(t, file))
	ref := corpustest.Ref(file)
	figs, err := v.db.Captions(t.Context(), ref)
	if err != nil {
		t.Fatal(err)
	}
	var want citation.Region
	page := 0
	for _, f := range figs {
		if f.Label == "Figure 1" {
			want, page = citation.Region(f.Region).Rounded(), f.Page
		}
	}
	if page == 0 {
		t.Fatalf("the index found no Figure 1 in %s: %+v", ref, figs)
	}
	a := v.ask(t, sidebar(ref), "What does Figure 1 show of the replicated state machine architecture?")
	var cited []citation.URI
	for _, q := range a.quotes {
		u, err := citation.Parse(q.uri)
		if err != nil {
			t.Fatalf("%q: %v", q.uri, err)
		}
		if u.Page == page {
			cited = append(cited, u)
		}
	}
	if len(cited) == 0 {
		t.Fatalf("the answer quotes nothing of page %d, where Figure 1 is:\n%s", page, a.text)
	}
	for _, u := range cited {
		if u.Region != want {
			t.Errorf("page %d is cited as %s, want the region of Figure 1 %+v", page, u, want)
		}
		if u.Quote == "" {
			t.Errorf("page %d is cited without its passage: %s", page, u)
		}
	}
	for _, q := range a.quotes {
		if u, _ := citation.Parse(q.uri); u.Page != page && !u.Region.IsZero() {
			t.Errorf("page %d, where no figure was asked for, is cited with a region: %s", u.Page, q.uri)
		}
	}
}

// TestFigureNamed asks about a figure by its label alone ("What does
// Figure 1 show?", whose other words a search drops): the answer quotes
// the figure's caption first, in whole sentences, cited on its page with
// its region.
func TestFigureNamed(t *testing.T) {
	const file = "in-search-of-an-understandable-consensus-algorithm.pdf"
	v := indexVault(t, corpustest.Vault(t, file))
	ref := corpustest.Ref(file)
	figs, err := v.db.Captions(t.Context(), ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ question, label, starts string }{
		{"What does Figure 1 show?", "Figure 1", "Figure 1: Replicated state machine architecture."},
		{"explain fig. 2", "Figure 2", "Figure 2: A condensed summary of the Raft consensus algorithm"},
	} {
		t.Run(tt.question, func(t *testing.T) {
			var want citation.Region
			page := 0
			for _, f := range figs {
				if f.Label == tt.label {
					want, page = citation.Region(f.Region).Rounded(), f.Page
				}
			}
			if page == 0 {
				t.Fatalf("the index found no %s in %s", tt.label, ref)
			}
			a := v.ask(t, sidebar(ref), tt.question)
			if len(a.quotes) == 0 {
				t.Fatalf("no quote:\n%s", a.text)
			}
			first := a.quotes[0]
			u, err := citation.Parse(first.uri)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(first.text, tt.starts) || u.Page != page || u.Region != want {
				t.Errorf("first quote %q at %s; want the caption %q on page %d with region %+v\n%s", first.text, first.uri, tt.starts, page, want, a.text)
			}
			if !strings.ContainsAny(first.text[len(first.text)-1:], ".!?)") {
				t.Errorf("the caption is cut inside a sentence: %q", first.text)
			}
		})
	}
}
