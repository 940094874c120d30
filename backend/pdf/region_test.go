package pdf

import (
	"strings"
	"testing"
)

func TestRegion(t *testing.T) {
	raft := corpusFile(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	e := newTestExtractor(t, Options{Workers: 1})
	full, err := e.Extract(t.Context(), raft)
	if err != nil {
		t.Fatal(err)
	}
	// The top band of page 1 holds the title; the bottom half does not.
	top, err := e.Region(t.Context(), raft, 1, Rect{X: 0, Y: 0, Width: 612, Height: 130})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(top, "Understandable Consensus Algorithm") {
		t.Errorf("top band = %q, want the title", top)
	}
	if len(top) >= len(full.Pages[0].Text)/2 {
		t.Errorf("top band has %d of the page's %d characters: the rectangle was not applied", len(top), len(full.Pages[0].Text))
	}
	bottom, err := e.Region(t.Context(), raft, 1, Rect{X: 0, Y: 400, Width: 612, Height: 392})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(bottom, "Understandable Consensus Algorithm") || bottom == "" {
		t.Errorf("bottom half = %.200q", bottom)
	}
	if _, err := e.Region(t.Context(), raft, 99, Rect{Width: 10, Height: 10}); err == nil {
		t.Error("a page past the end gave no error")
	}
}
