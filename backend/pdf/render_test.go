package pdf

import (
	"bytes"
	"errors"
	"image/png"
	"os"
	"strings"
	"testing"
)

// TestRender: a page and a region of a corpus paper come back as PNGs of
// the size the bounds allow, with ink on them, drawn by the native PDFium
// and by WebAssembly alike; a region past the page's edge is refused with
// the page's size.
func TestRender(t *testing.T) {
	path := corpusFile(t, "paxos-made-simple.pdf")
	for _, mode := range []string{"native", "wasm"} {
		t.Run(mode, func(t *testing.T) {
			opts := Options{Workers: 1}
			if mode == "wasm" {
				opts.PDFium = "-"
			} else if NativePDFium() == "" {
				t.Skip("no native PDFium here")
			}
			e := newTestExtractor(t, opts)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			bounds := RenderOptions{MaxSide: 1568, MaxPixels: 1_150_000, MaxDPI: 200}

			page, err := e.Render(t.Context(), f, 5, nil, bounds)
			if err != nil {
				t.Fatal(err)
			}
			// A US Letter page, 612 by 792 points, within 1.15 million
			// pixels: 942 by 1219 (the pixel bound is the tighter one).
			checkPNG(t, page, 942, 1219)
			if page.PageWidth != 612 || page.PageHeight != 792 {
				t.Errorf("page size %g by %g, want 612 by 792", page.PageWidth, page.PageHeight)
			}
			if ink := inkShare(t, page.PNG); ink < 0.01 || ink > 0.5 {
				t.Errorf("page 5 has %.3f of its pixels inked: not a page of text", ink)
			}

			// The title on page 1: a small region is drawn at the DPI cap,
			// not blown up to the side bound.
			region := Rect{X: 200, Y: 310, Width: 220, Height: 40}
			part, err := e.Render(t.Context(), f, 1, &region, bounds)
			if err != nil {
				t.Fatal(err)
			}
			checkPNG(t, part, 611, 111) // 200 dpi: 220 and 40 points times 200/72
			if part.Region != region {
				t.Errorf("region %v, want %v", part.Region, region)
			}
			if ink := inkShare(t, part.PNG); ink < 0.05 {
				t.Errorf("the title region has %.4f of its pixels inked: it should show the title", ink)
			}
			blank := Rect{X: 100, Y: 50, Width: 400, Height: 100}
			if empty, err := e.Render(t.Context(), f, 1, &blank, bounds); err != nil {
				t.Fatal(err)
			} else if ink := inkShare(t, empty.PNG); ink != 0 {
				t.Errorf("the empty top of page 1 has %.4f of its pixels inked", ink)
			}

			gray, err := e.Render(t.Context(), f, 2, nil, RenderOptions{MaxDPI: 300, Gray: true})
			if err != nil {
				t.Fatal(err)
			}
			checkPNG(t, gray, 2550, 3300)

			outside := Rect{X: 500, Y: 700, Width: 200, Height: 200}
			_, err = e.Render(t.Context(), f, 1, &outside, bounds)
			if !errors.Is(err, ErrOutsidePage) {
				t.Fatalf("region past the page's edge: err %v, want ErrOutsidePage", err)
			}
			if !strings.Contains(err.Error(), "612 by 792 points") {
				t.Errorf("the refusal %q does not say the page's size", err)
			}
			if _, err := e.Render(t.Context(), f, 15, nil, bounds); err == nil || !strings.Contains(err.Error(), "past the last page") {
				t.Errorf("page 15 of 14: err %v, want past the last page", err)
			}
		})
	}
}

func checkPNG(t *testing.T, im *Image, w, h int) {
	t.Helper()
	if !bytes.HasPrefix(im.PNG, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("not a PNG: %q", im.PNG[:min(8, len(im.PNG))])
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(im.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != w || cfg.Height != h || im.Width != w || im.Height != h {
		t.Errorf("image %d×%d (PNG %d×%d), want %d×%d", im.Width, im.Height, cfg.Width, cfg.Height, w, h)
	}
}

// inkShare is the share of an image's pixels that are not white (a
// seventh darker or more: thin type is drawn in light grays at 100 dpi).
func inkShare(t *testing.T, data []byte) float64 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var ink int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0xe000 {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy())
}
