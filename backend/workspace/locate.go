package workspace

import (
	"context"
	"errors"
)

// Location is where a citation's quote is on its paper, for the viewer to
// mark and for `agentero locate`: the rectangles of the quote's words on
// the page that holds them, in PDF points from the page's top-left corner
// as the page is shown.
type Location struct {
	URI       string       `json:"uri"`       // the citation, as given
	Path      string       `json:"path"`      // the PDF, vault-relative
	CitedPage int          `json:"citedPage"` // the page the citation names (1 when it names none)
	Page      int          `json:"page"`      // the page Rects are on: the cited page, or the page that has the quote
	Rects     [][4]float64 `json:"rects"`     // the quote's words on Page; empty when not found
	Text      string       `json:"text"`      // the page's words under Rects (and Next's), white space collapsed
	Found     bool         `json:"found"`     // the quote is on the cited page (running onto the next one)
	FoundPage int          `json:"foundPage"` // when it is not: the page that has it; 0 when no page does
	// Next holds the rest of a quote that runs onto the next page.
	Next   *PageRects `json:"next,omitempty"`
	Width  float64    `json:"width"`  // Page's size in points, as shown
	Height float64    `json:"height"` // (the viewer scales Rects by its own zoom)
	Why    string     `json:"why"`    // what was found, in a sentence
}

// PageRects are rectangles on one page.
type PageRects struct {
	Page  int          `json:"page"`
	Rects [][4]float64 `json:"rects"`
}

// errNotYet marks what is still being built.
var errNotYet = errors.New("locating quotes is not available yet")

// Locate finds the quote of a citation URI (a vault page with quote=…) on
// its page, and the rectangles of its words there.
func (w *Workspace) Locate(ctx context.Context, uri string) (Location, error) {
	return call(ctx, w, func(ctx context.Context) (Location, error) {
		return Location{URI: uri}, errNotYet
	})
}
