package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"

	"github.com/klippa-app/go-pdfium"
)

// RenderOptions bounds the image Render makes. The scale is the largest
// that keeps the image within every bound: a page is never drawn larger
// than MaxDPI, however small the region asked for.
type RenderOptions struct {
	MaxSide   int     // pixels of the longer side; 0: no bound
	MaxPixels int     // pixels in all; 0: no bound
	MaxDPI    float64 // pixels per inch of the page; 0: 72
	Gray      bool    // one gray channel (for OCR) rather than colour
}

// Image is a page, or a rectangle of it, drawn by PDFium.
type Image struct {
	PNG           []byte
	Width, Height int // pixels
	// PageWidth and PageHeight are the page as shown, in points; Region
	// is what the image shows of it, in points from its top-left.
	PageWidth, PageHeight float64
	Region                Rect
}

// Scale is the image's pixels per point.
func (im Image) Scale() float64 {
	if im.Region.Width == 0 {
		return 0
	}
	return float64(im.Width) / im.Region.Width
}

// ErrOutsidePage is a region that does not lie on its page.
var ErrOutsidePage = errors.New("the region is not inside the page")

// renderRequest asks a worker for an image of a page or of a rectangle of it.
type renderRequest struct {
	Page   int   // 1-based
	Region *Rect // nil: the whole page
	Opts   RenderOptions
}

// maxRenderPixels bounds any image a worker draws, whatever the options:
// a poster-sized page at 300 dpi, 4 bytes a pixel, is some 400 MB.
const maxRenderPixels = 40_000_000

// Render draws page (1-based) of the open PDF f, or the rectangle region of
// it (nil: the whole page), as a PNG within opts' bounds, under the same
// time limit and isolation as Extract. A region not inside the page is an
// error wrapping ErrOutsidePage that says the page's size.
func (e *Extractor) Render(ctx context.Context, f *os.File, page int, region *Rect, opts RenderOptions) (*Image, error) {
	if page < 1 || page > maxPages {
		return nil, fmt.Errorf("page %d: pages start at 1", page)
	}
	if region != nil {
		for _, v := range []float64{region.X, region.Y, region.Width, region.Height} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("region %v: %w", *region, ErrOutsidePage)
			}
		}
		if region.Width <= 0 || region.Height <= 0 {
			return nil, fmt.Errorf("region %v is empty: %w", *region, ErrOutsidePage)
		}
	}
	doc, err := e.run(ctx, f, request{Render: &renderRequest{Page: page, Region: region, Opts: opts}})
	if err != nil {
		return nil, err
	}
	if doc == nil || doc.Image == nil {
		return nil, fmt.Errorf("render: no image came back: %w", ErrDamaged)
	}
	return doc.Image, nil
}

// renderer is what a reader needs to draw pages: the shown size of page i,
// and a drawing of it scaled to sizeX by sizeY pixels, moved by startX,
// startY, into a width by height BGRx bitmap on white (4 bytes a pixel,
// width*4 a row).
type renderer interface {
	pageSize(i int) (w, h float64, err error)
	render(i, startX, startY, sizeX, sizeY, width, height int) ([]byte, error)
}

// renderScale is the pixels per point that draw w by h points within opts.
func renderScale(w, h float64, opts RenderOptions) float64 {
	dpi := opts.MaxDPI
	if dpi <= 0 {
		dpi = 72
	}
	s := dpi / 72
	if opts.MaxSide > 0 {
		s = math.Min(s, float64(opts.MaxSide)/math.Max(w, h))
	}
	pixels := float64(maxRenderPixels)
	if opts.MaxPixels > 0 {
		pixels = math.Min(pixels, float64(opts.MaxPixels))
	}
	return math.Min(s, math.Sqrt(pixels/(w*h)))
}

// outsideSlack forgives a region that passes the page's edge by rounding.
const outsideSlack = 0.5

// renderPage draws a page or a region of it with r and encodes it as PNG.
func renderPage(r renderer, count int, req renderRequest) (*Document, error) {
	if req.Page > count {
		return nil, fmt.Errorf("page %d is past the last page (%d)", req.Page, count)
	}
	i := req.Page - 1
	pw, ph, err := r.pageSize(i)
	if err != nil {
		return nil, fmt.Errorf("page %d: %w", req.Page, err)
	}
	if pw <= 0 || ph <= 0 {
		return nil, fmt.Errorf("page %d has no size: %w", req.Page, ErrDamaged)
	}
	region := Rect{Width: pw, Height: ph}
	if req.Region != nil {
		region = *req.Region
		if region.X+region.Width > pw+outsideSlack || region.Y+region.Height > ph+outsideSlack {
			return nil, fmt.Errorf("region x %g, y %g, width %g, height %g: %w: page %d is %g by %g points",
				region.X, region.Y, region.Width, region.Height, ErrOutsidePage, req.Page, round2(pw), round2(ph))
		}
		region.Width = math.Min(region.Width, pw-region.X)
		region.Height = math.Min(region.Height, ph-region.Y)
	}
	s := renderScale(region.Width, region.Height, req.Opts)
	// Rounded down, so that the image stays within the bounds.
	width := max(1, int(math.Floor(region.Width*s+1e-6)))
	height := max(1, int(math.Floor(region.Height*s+1e-6)))
	buf, err := r.render(i, -int(math.Round(region.X*s)), -int(math.Round(region.Y*s)),
		int(math.Round(pw*s)), int(math.Round(ph*s)), width, height)
	if err != nil {
		return nil, fmt.Errorf("render page %d: %w", req.Page, err)
	}
	var img image.Image
	if req.Opts.Gray {
		img = grayOf(buf, width, height)
	} else {
		img = rgbaOf(buf, width, height)
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&out, img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return &Document{Image: &Image{PNG: out.Bytes(), Width: width, Height: height, PageWidth: pw, PageHeight: ph, Region: region}}, nil
}

// rgbaOf turns BGRx pixels into an opaque RGBA image, in place.
func rgbaOf(buf []byte, width, height int) *image.RGBA {
	px := buf[:width*height*4]
	for k := 0; k < len(px); k += 4 {
		px[k], px[k+2], px[k+3] = px[k+2], px[k], 0xff
	}
	return &image.RGBA{Pix: px, Stride: width * 4, Rect: image.Rect(0, 0, width, height)}
}

// grayOf turns BGRx pixels into gray ones (ITU-R 601 luma).
func grayOf(buf []byte, width, height int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, width, height))
	for k := range width * height {
		b, gr, r := int(buf[4*k]), int(buf[4*k+1]), int(buf[4*k+2])
		g.Pix[k] = uint8((299*r + 587*gr + 114*b + 500) / 1000)
	}
	return g
}

// renderFile draws with the worker's WebAssembly instance from pool, or
// with the native PDFium when pool is nil.
func renderFile(pool pdfium.Pool, f *os.File, req renderRequest) (*Document, error) {
	return withReader(pool, f, func(r openedReader) (*Document, error) {
		count, err := r.pageCount()
		if err != nil {
			return nil, fmt.Errorf("count pages: %w: %w", ErrDamaged, err)
		}
		return renderPage(r, count, req)
	})
}
