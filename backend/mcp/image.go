package mcp

// context_read mode image: a page, or a rectangle of it, as a PNG the
// agent's model can look at.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

const modeImage = "image"

// ImageRenderer draws a page of an open PDF, or a rectangle of it (nil:
// the whole page), within bounds. The region reader of Options provides it
// when it can (the PDF extractor's does); without one, images are not
// available.
type ImageRenderer interface {
	RenderImage(ctx context.Context, pdf *os.File, page int, region *Rect, bounds pdf.RenderOptions) (*pdf.Image, error)
}

// RenderImage draws with the extractor, in a worker process under its time
// limit.
func (r pdfRegions) RenderImage(ctx context.Context, f *os.File, page int, region *Rect, bounds pdf.RenderOptions) (*pdf.Image, error) {
	var rect *pdf.Rect
	if region != nil {
		rect = &pdf.Rect{X: region.X, Y: region.Y, Width: region.Width, Height: region.Height}
	}
	return r.ex.Render(ctx, f, page, rect, bounds)
}

// imageBounds are the images agents get. 1568 pixels on the long side and
// about 1.15 million in all is the most Claude looks at (a larger image is
// scaled down before the model sees it, so the pixels would cost bytes and
// nothing else); other vision models tile within the same size. 200 dpi
// caps a small region: a figure's corner is drawn sharp, not blown up to
// 1568 pixels of blur.
var imageBounds = pdf.RenderOptions{MaxSide: 1568, MaxPixels: 1_150_000, MaxDPI: 200}

// An image is charged to the reading budget by what it costs the model, in
// the budget's unit, characters. Claude counts an image as width×height/750
// tokens (a whole page within imageBounds: about 1,530), and the budget's
// defaults take about 3 characters for a token (grant.DefaultBudget: the
// densest 40,000 characters of the corpus are about 14,000 tokens). So a
// page image costs about 4,600 characters, a tenth of one read: a turn's
// default budget holds some forty pages as images, or three papers as text.
const (
	pixelsPerToken = 750
	charsPerToken  = 3
)

// imageCost is what an image of w by h pixels takes from the budget.
func imageCost(w, h int) int {
	return (w*h + pixelsPerToken - 1) / pixelsPerToken * charsPerToken
}

// imageResult is the line of text sent beside an image: what it shows.
type imageResult struct {
	Ref         string     `json:"ref"`
	Page        int        `json:"page"`
	Pages       int        `json:"pages,omitempty"`
	Region      Rect       `json:"region"`   // what the image shows, in points from the page's top-left
	PageSize    [2]float64 `json:"pageSize"` // the page's width and height in points
	Width       int        `json:"width"`    // pixels
	Height      int        `json:"height"`
	Cost        int        `json:"cost"` // characters of the budget the image took
	CitationURI string     `json:"citationUri"`
}

// image draws page in.Page of a granted paper, or in.Region of it.
func (s *Server) image(ctx context.Context, t target, in readInput, room int) (reply, error) {
	n, err := s.pageArg(t, in.Page, modeImage)
	if err != nil {
		return reply{}, err
	}
	if in.Region != nil {
		if err := in.Region.valid(); err != nil {
			return reply{}, err
		}
	}
	r, ok := s.regions.(ImageRenderer)
	if !ok {
		return reply{}, errorf("page images are not available here: read the page's text with mode page")
	}
	// As region reads: the indexed PDF, a regular file of the paper's
	// folder, and nothing a link put in its place since.
	f, err := vault.Open(s.grant.Vault, t.paper.PDFPath, vault.KindPDF)
	if err != nil {
		return reply{}, grant.ErrRefused
	}
	defer f.Close()
	if f.Real != t.paper.PDFPath {
		return reply{}, grant.ErrRefused
	}
	img, err := r.RenderImage(ctx, f.File, n, in.Region, imageBounds)
	if errors.Is(err, pdf.ErrOutsidePage) {
		return reply{}, errorf("%s: ask for a region inside the page, in PDF points from its top-left", err.Error())
	}
	if err != nil {
		return reply{}, fmt.Errorf("render page %d of %s: %w", n, t.paper.Ref, err)
	}
	cost := imageCost(img.Width, img.Height)
	uri := citation.New(t.paper.PDFPath, n, "").String()
	res := imageResult{
		Ref: t.paper.Ref, Page: n, Pages: t.paper.Pages,
		Region:   Rect{X: round1(img.Region.X), Y: round1(img.Region.Y), Width: round1(img.Region.Width), Height: round1(img.Region.Height)},
		PageSize: [2]float64{round1(img.PageWidth), round1(img.PageHeight)},
		Width:    img.Width, Height: img.Height, Cost: cost, CitationURI: uri,
	}
	if need := cost + size(res); need > room {
		return reply{}, errorf("this image costs %d characters of the reading budget and %d are left: ask for a smaller region, or read the page's text with mode page", need, room)
	}
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}, image: img.PNG, imageCost: cost}, nil
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
