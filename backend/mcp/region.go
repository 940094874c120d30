package mcp

import (
	"context"
	"errors"
	"math"
	"os"
)

// Rect is a rectangle on a page in PDF points (1/72 inch), measured from the
// top-left corner of the page as it is displayed (after its rotation), the
// way the viewer's selections are.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// maxPoints is far beyond any real page (A0 is 2384 points tall).
const maxPoints = 20000

func (r Rect) valid() error {
	for _, v := range []float64{r.X, r.Y, r.Width, r.Height} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxPoints {
			return errorf("region must hold x, y, width and height in PDF points, between 0 and %d", maxPoints)
		}
	}
	if r.Width == 0 || r.Height == 0 {
		return errorf("region must have a width and a height")
	}
	return nil
}

// RegionReader reads the text inside a rectangle of one page of an open
// PDF (opened through the vault's confined opener, after the grant
// allowed it). ErrRegionUnavailable reaches the agent as is; any other
// error becomes a generic message and a log line.
type RegionReader interface {
	ReadRegion(ctx context.Context, pdf *os.File, page int, r Rect) (string, error)
}

// ErrRegionUnavailable is what region reads say until a RegionReader with
// per-character boxes is plugged in.
var ErrRegionUnavailable = errors.New("region reads are not available yet: read the page with mode page, or find the text with mode excerpt and a quote")

type noRegions struct{}

func (noRegions) ReadRegion(context.Context, *os.File, int, Rect) (string, error) {
	return "", ErrRegionUnavailable
}
