package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
)

// TestSectionsStored: a paper without an outline gets the headings on its
// pages as sections, each starting where its title is on its page; a
// search hit carries the section its page and place fall in.
func TestSectionsStored(t *testing.T) {
	root := makeVault(t, []string{"paxos-made-simple.pdf", "1706.03762.pdf"})
	db := openDB(t, root)
	syncVault(t, db, sharedExtractor(), root)
	ctx := context.Background()

	paxos := refOf("paxos-made-simple.pdf")
	secs, err := db.Sections(ctx, paxos)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, s := range secs {
		titles = append(titles, s.Title)
		if s.Source != "headings" {
			t.Errorf("%s: source %q, want headings (the PDF has no outline)", s.Title, s.Source)
		}
		text, _, err := db.PageText(ctx, paxos, s.Page)
		if err != nil {
			t.Fatal(err)
		}
		if r := []rune(text); s.Start > len(r) || !strings.HasPrefix(string(r[s.Start:]), s.Title) {
			t.Errorf("%s is not at rune %d of page %d", s.Title, s.Start, s.Page)
		}
	}
	for _, want := range []string{"1 Introduction", "2.2 Choosing a Value", "3 Implementing a State Machine", "References"} {
		if !contains(titles, want) {
			t.Errorf("sections %q lack %q", titles, want)
		}
	}

	if secs, err := db.Sections(ctx, refOf("1706.03762.pdf")); err != nil || len(secs) < 4 || secs[0].Source != "outline" {
		t.Errorf("the transformer paper's outline: %v %+v", err, secs)
	}

	// Page 5 holds the end of 2.1 and the start of 2.2 ("2.2 Choosing a
	// Value" at rune 372); page 7 lies inside 2.2.
	for _, tt := range []struct {
		page, off int
		want      string
	}{{5, 0, "2.1 The Problem"}, {5, 371, "2.1 The Problem"}, {5, 372, "2.2 Choosing a Value"}, {7, 0, "2.2 Choosing a Value"}, {1, 0, ""}} {
		got, err := db.SectionAt(ctx, paxos, tt.page, tt.off)
		if err != nil || got != tt.want {
			t.Errorf("section at page %d rune %d = %q, %v; want %q", tt.page, tt.off, got, err, tt.want)
		}
	}

	// A selection's section: where its quote is on the page; a quote not
	// found says the page's section only when no section starts on it.
	for _, tt := range []struct {
		page  int
		quote string
		want  string
	}{
		{5, "Messages can take arbitrarily long to be delivered", "2.1 The Problem"},
		{5, "The easiest way to choose a value", "2.2 Choosing a Value"},
		{5, "words that are not on the page", ""},
		{7, "A proposer chooses a new proposal number", "2.2 Choosing a Value"},
		{7, "words that are not on the page", "2.2 Choosing a Value"},
	} {
		got, err := db.SectionOf(ctx, paxos, tt.page, tt.quote)
		if err != nil || got != tt.want {
			t.Errorf("section of %q on page %d = %q, %v; want %q", tt.quote, tt.page, got, err, tt.want)
		}
	}

	res, err := db.Search(ctx, index.Query{Text: "proposer chooses a new proposal number", Scope: index.Scope{Papers: []string{paxos}}, Limit: 1})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search: %v %+v", err, res)
	}
	if h := res.Hits[0]; h.Page != 7 || h.Section != "2.2 Choosing a Value" {
		t.Errorf("hit on page %d in section %q, want page 7 in 2.2 Choosing a Value", h.Page, h.Section)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
