package mcp_test

import (
	"testing"

	"github.com/agentero/agentero/backend/citation"
)

// figureCardT is a search card as a figure card has it.
type figureCardT struct {
	Ref     string `json:"ref"`
	Page    int    `json:"page"`
	Kind    string `json:"kind"`
	Label   string `json:"label"`
	Snippet string `json:"snippet"`
	URI     string `json:"citationUri"`
	Region  *struct {
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"region"`
	Open *struct {
		Tool      string         `json:"tool"`
		Arguments map[string]any `json:"arguments"`
	} `json:"open"`
}

// figureCards runs a search and returns its figure cards, in order.
func (s *session) figureCards(tool, query string) []figureCardT {
	s.t.Helper()
	var res struct {
		Cards []figureCardT `json:"cards"`
	}
	s.ok(tool, map[string]any{"query": query}, &res)
	var out []figureCardT
	for _, c := range res.Cards {
		if c.Kind != "" {
			out = append(out, c)
		}
	}
	return out
}

// TestFigureCards: context_search returns a figure card for a figure the
// query names, or whose caption holds its words, in the granted papers
// only; the card's open call, made as the agent would make it, returns
// the figure as a PNG of the card's region of its page.
func TestFigureCards(t *testing.T) {
	s := start(t, usual())

	cards := s.figureCards("context_search", "figure 1")
	got := map[string]figureCardT{}
	for _, c := range cards {
		got[c.Ref+" "+c.Label] = c
		if c.Ref == chubby || c.Ref == mishra {
			t.Errorf("a figure card of a paper outside the grant: %+v", c)
		}
	}
	for _, want := range []struct {
		ref    string
		page   int
		prefix string
	}{{raft, 2, "Figure 1: Replicated state machine architecture."}, {attention, 3, "Figure 1: The Transformer - model architecture."}} {
		c, ok := got[want.ref+" Figure 1"]
		if !ok {
			t.Errorf("no card for Figure 1 of %s among %+v", want.ref, cards)
			continue
		}
		if c.Kind != "figure" || c.Page != want.page || c.Snippet[:min(len(c.Snippet), len(want.prefix))] != want.prefix {
			t.Errorf("%s Figure 1: %+v; want a figure on page %d reading %q", want.ref, c, want.page, want.prefix)
		}
		if c.Region == nil || c.Region.Width <= 0 || c.Region.Height <= 0 || c.Region.X+c.Region.Width > 612 || c.Region.Y+c.Region.Height > 792 {
			t.Errorf("%s Figure 1: region %+v is not on the page", want.ref, c.Region)
			continue
		}
		// Its citation names the figure's region, so that a source citing it outlines the figure.
		u, err := citation.Parse(c.URI)
		if region := (citation.Region{X: c.Region.X, Y: c.Region.Y, Width: c.Region.Width, Height: c.Region.Height}).Rounded(); err != nil || u.Page != want.page || u.Region != region {
			t.Errorf("%s Figure 1: citation %q (%v), want page %d and region %+v", want.ref, c.URI, err, want.page, region)
		}
		if c.Open == nil || c.Open.Tool != "context_read" || c.Open.Arguments["mode"] != "image" {
			t.Fatalf("%s Figure 1: open %+v, want a context_read image call", want.ref, c.Open)
		}
		w, h, img, _ := s.image(c.Open.Tool, c.Open.Arguments)
		if img.Page != want.page || img.Region.X != c.Region.X || img.Region.Height != c.Region.Height || w < 100 || h < 100 {
			t.Errorf("%s Figure 1 opened as %d×%d pixels of %+v, want page %d region %+v", want.ref, w, h, img, want.page, *c.Region)
		}
	}

	cards = s.figureCards("context_search", "Scaled Dot-Product Attention")
	if len(cards) == 0 || cards[0].Ref != attention || cards[0].Label != "Figure 2" {
		t.Errorf("words of a caption: %+v, want Figure 2 of attention first", cards)
	}
	if cards := s.figureCards("context_search", "proposer acceptor ballot"); len(cards) != 0 {
		t.Errorf("words of no caption: %+v, want no figure card", cards)
	}
}

// TestVaultFigureCards: the whole-vault search returns figure cards too,
// opened with read.
func TestVaultFigureCards(t *testing.T) {
	s := startVault(t)
	cards := s.figureCards("search", "table 2 of the transformer")
	if len(cards) == 0 || cards[0].Ref != attention || cards[0].Label != "Table 2" || cards[0].Kind != "table" {
		t.Fatalf("table 2: %+v, want attention's first", cards)
	}
	if c := cards[0]; c.Open == nil || c.Open.Tool != "read" {
		t.Fatalf("open %+v, want a read call", c.Open)
	}
	if _, _, img, _ := s.image(cards[0].Open.Tool, cards[0].Open.Arguments); img.Page != cards[0].Page {
		t.Errorf("opened page %d, want %d", img.Page, cards[0].Page)
	}
}
