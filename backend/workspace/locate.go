package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
)

// Location is where a citation's quote is on its paper, for the viewer to
// mark and for `agentero locate`: the rectangles of the quote's words on
// the page that holds them, in PDF points from the page's top-left corner
// as the page is shown. The words under the rectangles are Text.
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

// Locate finds the quote of a citation URI (a vault PDF's page with
// quote=…) on its page with the one locator (package quote), and the
// rectangles of its words there from PDFium's character boxes. A quote not
// on the cited page is looked for on the paper's other pages. A citation
// without a quote locates nothing and says so.
func (w *Workspace) Locate(ctx context.Context, uri string) (Location, error) {
	return call(ctx, w, func(ctx context.Context) (Location, error) {
		return locate(ctx, w.lib, uri)
	})
}

func locate(ctx context.Context, lib *library.Library, raw string) (Location, error) {
	u, err := citation.Parse(raw)
	if err != nil {
		return Location{}, invalid(err)
	}
	if u.External() {
		return Location{}, invalid(errors.New("a link to a web page has no page to mark"))
	}
	p, err := lib.DB().PaperByPDF(ctx, u.Path)
	if errors.Is(err, index.ErrNotFound) {
		return Location{}, notFound(fmt.Errorf("no paper of this vault has the PDF %s", u.Path))
	}
	if err != nil {
		return Location{}, err
	}
	page := max(u.Page, 1)
	if page > p.Pages {
		return Location{}, notFound(fmt.Errorf("%s has %d pages; there is no page %d", u.Path, p.Pages, page))
	}
	loc := Location{URI: raw, Path: u.Path, CitedPage: page, Page: page, Rects: [][4]float64{}}
	if len(quote.Fold(u.Quote)) < quote.MinQuote {
		loc.Why = "the citation carries no quote to mark"
		if u.Quote != "" {
			loc.Why = "the citation's quote is too short to be found"
		}
		return loc, nil
	}
	ok, err := mark(ctx, lib, &loc, p, page, u.Quote)
	if err != nil {
		return Location{}, err
	}
	if ok {
		loc.Found = true
		loc.Why = fmt.Sprintf("the quote is on page %d", page)
		if loc.Next != nil {
			loc.Why = fmt.Sprintf("the quote is on page %d and runs onto page %d", page, loc.Next.Page)
		}
		return loc, nil
	}
	// Not on the cited page: the index's text of the other pages says
	// which page has it, the page's boxes where.
	pages, err := lib.DB().Pages(ctx, p.Ref, 1, p.Pages)
	if err != nil {
		return Location{}, err
	}
	in := make([]quote.Page, len(pages))
	for i, pg := range pages {
		in[i] = quote.Page{Number: pg.Number, Text: pg.Text}
	}
	found := quote.NewPaper(in).Search(u.Quote)
	if len(found) == 0 {
		loc.Why = fmt.Sprintf("the quote is not on page %d, nor on any other page of this paper", page)
		return loc, nil
	}
	best := found[0].Page
	for _, m := range found {
		if abs(m.Page-page) < abs(best-page) {
			best = m.Page
		}
	}
	loc.FoundPage = best
	loc.Why = fmt.Sprintf("the quote is not on page %d; it is on page %d", page, best)
	there := loc
	if ok, err := mark(ctx, lib, &there, p, best, u.Quote); err == nil && ok {
		there.Page = best
		return there, nil
	}
	return loc, nil
}

// mark finds q starting on page n of paper p in the text read with the
// character boxes, and fills loc's rectangles, text and page size.
func mark(ctx context.Context, lib *library.Library, loc *Location, p index.Paper, n int, q string) (bool, error) {
	want := []int{n}
	if n < p.Pages {
		want = append(want, n+1)
	}
	chars, err := lib.PageChars(ctx, p.PDFPath, want)
	if err != nil {
		return false, err
	}
	in := make([]quote.Page, len(chars))
	byPage := map[int]pdf.PageChars{}
	for i, c := range chars {
		in[i] = quote.Page{Number: c.Number, Text: c.Text}
		byPage[c.Number] = c
	}
	qp := quote.NewPaper(in)
	m, ok := qp.Find(n, q)
	if !ok {
		return false, nil
	}
	loc.Width, loc.Height = byPage[n].Width, byPage[n].Height
	loc.Rects, loc.Next = [][4]float64{}, nil
	for _, s := range m.Spans {
		rects := quote.Rects(byPage[s.Page].Boxes, s.From, s.To)
		if s.Page == n {
			loc.Rects = append(loc.Rects, rects...)
			continue
		}
		if loc.Next == nil {
			loc.Next = &PageRects{Page: s.Page, Rects: [][4]float64{}}
		}
		loc.Next.Rects = append(loc.Next.Rects, rects...)
	}
	loc.Text = qp.Text(m)
	return true, nil
}

func abs(n int) int { return max(n, -n) }

// LinkCitation turns an agentero://open link to a paper of this vault into
// the citation URI of the page and quote it opens.
func (w *Workspace) LinkCitation(ctx context.Context, link string) (string, error) {
	return call(ctx, w, func(ctx context.Context) (string, error) {
		l, err := applink.Parse(link)
		if err != nil {
			return "", invalid(err)
		}
		if !sameFolder(l.Vault, w.Root()) {
			return "", invalid(fmt.Errorf("the link opens the vault %s, not this one (%s)", l.Vault, w.Root()))
		}
		p, err := w.lib.DB().Paper(ctx, l.Ref)
		if errors.Is(err, index.ErrNotFound) {
			return "", notFound(fmt.Errorf("this vault has no paper %s", l.Ref))
		}
		if err != nil {
			return "", err
		}
		return l.Citation(p.PDFPath).String(), nil
	})
}

// sameFolder reports whether two paths name one folder, links resolved.
func sameFolder(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}
