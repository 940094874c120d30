package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
)

type cardT struct {
	Ref, Path, Title string
	Page             int
	PageLabel        string
	Section          string
	Snippet          string
	CitationURI      string
}

type searchT struct {
	Cards      []cardT
	Omitted    int
	NextCursor string
	Note       string
}

func (c cardT) key() string { return fmt.Sprintf("%s|%s|%d", c.Ref, c.Path, c.Page) }

// granted lists the refs a test grant lets searches see.
func grantedRefs(g grant.Grant) map[string]bool {
	m := map[string]bool{}
	for _, s := range g.Allowed {
		m[s.Ref] = true
	}
	return m
}

func TestSearch(t *testing.T) {
	g := usual()
	s := start(t, g)
	b := g.Budget

	t.Run("cards from granted papers and files only", func(t *testing.T) {
		var r searchT
		s.ok("context_search", map[string]any{"query": "leader election"}, &r)
		if len(r.Cards) == 0 {
			t.Fatal("no cards")
		}
		if got := r.Cards[0]; got.Ref != raft || !strings.Contains(fold(got.Snippet), "leader election") {
			t.Errorf("first card = %s %q, want a raft page holding the phrase", got.key(), got.Snippet)
		}
		perPaper := map[string]int{}
		sawNotes := false
		for _, c := range r.Cards {
			perPaper[c.Ref+c.Path]++
			if !grantedRefs(g)[c.Ref] {
				t.Errorf("card from %s, which is not granted", c.Ref)
			}
			if strings.Contains(c.Snippet, "SECRET") || strings.Contains(c.Snippet, "sibling") {
				t.Errorf("card from an ungranted file: %+v", c)
			}
			if n := utf8.RuneCountInString(c.Snippet); n > b.ExcerptChars || n == 0 {
				t.Errorf("snippet of %d characters, cap %d", n, b.ExcerptChars)
			}
			if !strings.Contains(fold(c.Snippet), "elect") && !strings.Contains(fold(c.Snippet), "leader") {
				t.Errorf("snippet not built around the terms: %q", c.Snippet)
			}
			switch {
			case c.Path != "":
				if c.Path == "notes/consensus/raft.md" {
					sawNotes = true
				}
				if c.Page != 0 || c.CitationURI != c.Path || c.Ref != "notes/consensus" {
					t.Errorf("file card %+v: want ref notes/consensus, no page, citationUri = path", c)
				}
			case c.Page < 1 || c.PageLabel == "" || c.CitationURI != fmt.Sprintf("%s#page=%d", pdfOf(c.Ref), c.Page):
				t.Errorf("page card %+v: want page, pageLabel and %s#page=N", c, pdfOf(c.Ref))
			}
		}
		for k, n := range perPaper {
			if n > b.CardsPerPaper {
				t.Errorf("%d cards from %s, cap %d", n, k, b.CardsPerPaper)
			}
		}
		if !sawNotes {
			t.Errorf("no card from notes/consensus/raft.md, which holds both words: %+v", r.Cards)
		}
	})

	t.Run("limit", func(t *testing.T) {
		var r searchT
		s.ok("context_search", map[string]any{"query": "consensus", "limit": 2}, &r)
		if len(r.Cards) != 2 || r.Omitted == 0 || r.NextCursor == "" {
			t.Errorf("limit 2: %d cards, omitted %d, cursor %q", len(r.Cards), r.Omitted, r.NextCursor)
		}
		s.ok("context_search", map[string]any{"query": "consensus", "limit": 50}, &r)
		if len(r.Cards) > b.SearchCards {
			t.Errorf("limit 50: %d cards, budget %d", len(r.Cards), b.SearchCards)
		}
	})

	t.Run("no match", func(t *testing.T) {
		var r searchT
		s.ok("context_search", map[string]any{"query": "zyzzyva quokka"}, &r)
		if len(r.Cards) != 0 || r.Note == "" {
			t.Errorf("got %+v, want no cards and a note", r)
		}
	})

	t.Run("query syntax is only words", func(t *testing.T) {
		var r searchT
		s.ok("context_search", map[string]any{"query": `NEAR(leader election) OR "unclosed * ^ -`}, &r)
		if len(r.Cards) == 0 {
			t.Error("no cards for the words of a query full of FTS syntax")
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		for name, args := range map[string]map[string]any{
			"empty query":   {"query": ""},
			"no words":      {"query": "!!! ???"},
			"limit 0":       {"query": "raft", "limit": 0},
			"limit -1":      {"query": "raft", "limit": -1},
			"limit huge":    {"query": "raft", "limit": 1 << 40},
			"limit string":  {"query": "raft", "limit": "ten"},
			"limit float":   {"query": "raft", "limit": 2.5},
			"unknown arg":   {"query": "raft", "paper": raft},
			"bad cursor":    {"query": "raft", "cursor": "garbage"},
			"long query":    {"query": strings.Repeat("word ", 200)},
			"missing query": {},
		} {
			t.Run(name, func(t *testing.T) {
				msg := s.fails("context_search", args)
				if strings.Contains(msg, "papers/") {
					t.Errorf("error names a path: %q", msg)
				}
			})
		}
	})
}

// TestSearchPaging follows nextCursor through every result: the per-paper
// cap holds in each call, no card repeats, and omitted counts what is left.
func TestSearchPaging(t *testing.T) {
	b := grant.DefaultBudget()
	b.SearchCards, b.CardsPerPaper = 5, 2
	g := grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: raft}, grant.Source{Kind: grant.KindPaper, Ref: paxos},
		grant.Source{Kind: grant.KindDirectory, Ref: "notes/consensus"})
	s := start(t, g)
	var first searchT
	s.ok("context_search", map[string]any{"query": "consensus"}, &first)
	total := len(first.Cards) + first.Omitted
	if first.Omitted == 0 || first.NextCursor == "" {
		t.Fatalf("first page: %d cards, omitted %d: want more to page through", len(first.Cards), first.Omitted)
	}
	seen := map[string]bool{}
	r := first
	for calls := 1; ; calls++ {
		per := map[string]int{}
		for _, c := range r.Cards {
			if seen[c.key()] {
				t.Errorf("call %d: card %s again", calls, c.key())
			}
			seen[c.key()] = true
			per[c.Ref+c.Path]++
			if per[c.Ref+c.Path] > b.CardsPerPaper {
				t.Errorf("call %d: more than %d cards from %s", calls, b.CardsPerPaper, c.Ref+c.Path)
			}
		}
		if len(r.Cards) > b.SearchCards {
			t.Errorf("call %d: %d cards, budget %d", calls, len(r.Cards), b.SearchCards)
		}
		if r.NextCursor == "" {
			if r.Omitted != 0 {
				t.Errorf("last call: omitted %d without a cursor", r.Omitted)
			}
			break
		}
		if calls > 50 {
			t.Fatal("paging does not end")
		}
		cursor := r.NextCursor
		r = searchT{}
		s.ok("context_search", map[string]any{"query": "consensus", "cursor": cursor}, &r)
	}
	if len(seen) != total {
		t.Errorf("paged through %d cards; the first call said %d", len(seen), total)
	}
	// A cursor belongs to its query.
	s.fails("context_search", map[string]any{"query": "leader", "cursor": first.NextCursor})
}

// TestSearchFileGrant: a single granted file is searched, its neighbours not.
func TestSearchFileGrant(t *testing.T) {
	s := start(t, grantOf(grant.DefaultBudget(), grant.Source{Kind: grant.KindFile, Ref: "notes/consensus/README"}))
	var r searchT
	s.ok("context_search", map[string]any{"query": "heartbeats"}, &r)
	if len(r.Cards) != 1 || r.Cards[0].Path != "notes/consensus/README" || r.Cards[0].Ref != "notes/consensus/README" {
		t.Errorf("got %+v, want the one granted file", r.Cards)
	}
	s.ok("context_search", map[string]any{"query": "randomized timeouts"}, &r)
	if len(r.Cards) != 0 {
		t.Errorf("a neighbour of the granted file matched: %+v", r.Cards)
	}
}

// fold lower-cases and collapses whitespace.
func fold(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// TestSearchSameAsLibrary: with every paper of the vault granted, the
// agent's context_search returns the same pages in the same order as the
// library's search box (index.Search over the whole library, what app.go
// and `agentero search` run), the query's plain words as much as its
// phrases.
func TestSearchSameAsLibrary(t *testing.T) {
	b := grant.DefaultBudget()
	var all []grant.Source
	for _, ref := range vaultPapers {
		all = append(all, grant.Source{Kind: grant.KindPaper, Ref: ref})
	}
	s := start(t, grantOf(b, all...))
	db, err := index.Open(index.Path(vaultDir), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"leader election", "consensus", "how do nodes agree on a leader after a crash",
		`"log replication" safety`, "attention heads", "byzantine", "the", "Lamport clocks", "proof-of-work chain"} {
		t.Run(q, func(t *testing.T) {
			var r searchT
			s.ok("context_search", map[string]any{"query": q}, &r)
			res, err := db.Search(context.Background(), index.Query{Text: q, Scope: index.Scope{AllPapers: true},
				Limit: b.SearchCards, PerPaper: b.CardsPerPaper})
			if err != nil {
				t.Fatal(err)
			}
			var cards, hits []string
			for _, c := range r.Cards {
				if c.Path != "" {
					t.Fatalf("a text file's card %+v: pick a query no granted file holds", c)
				}
				cards = append(cards, c.key())
			}
			for _, h := range res.Hits {
				hits = append(hits, cardT{Ref: h.Ref, Page: h.Page}.key())
			}
			if len(hits) == 0 {
				t.Fatal("the library finds nothing")
			}
			if diff := cmp.Diff(hits, cards); diff != "" {
				t.Errorf("context_search differs from the library (-library +context_search):\n%s", diff)
			}
		})
	}
}
