package pdf

import (
	"context"
	"fmt"
	"math"
	"os"
	"unicode"
	"unicode/utf16"
)

// PageChars is a page's text with where each of its characters is drawn:
// what the locator (package quote) needs to turn a quote found in the text
// into the rectangles a viewer marks.
type PageChars struct {
	Number int    // physical page number, 1-based
	Text   string // the page's text, normalised as Page.Text
	// Boxes holds, for each rune of Text, its box: x0, y0, x1, y1 in PDF
	// points from the top-left corner of the page as it is shown (after
	// its /Rotate); zero for a rune drawn nowhere (spaces, line breaks).
	Boxes  [][4]float64
	Width  float64 // the page as shown, in points
	Height float64
}

// charsRequest asks a worker for the characters of some pages.
type charsRequest struct {
	Pages []int // 1-based
}

// maxCharsPages is the most pages one Chars call reads.
const maxCharsPages = 16

// Chars reads the text and character boxes of pages (1-based, at most 16)
// of the open PDF f, under the same time limit and isolation as Extract.
// A page past the end is an error.
func (e *Extractor) Chars(ctx context.Context, f *os.File, pages []int) ([]PageChars, error) {
	if len(pages) == 0 || len(pages) > maxCharsPages {
		return nil, fmt.Errorf("chars: %d pages asked for; 1 to %d at a time", len(pages), maxCharsPages)
	}
	for _, p := range pages {
		if p < 1 || p > maxPages {
			return nil, fmt.Errorf("page %d: pages start at 1", p)
		}
	}
	doc, err := e.run(ctx, f, request{Chars: &charsRequest{Pages: pages}})
	if err != nil {
		return nil, err
	}
	if doc == nil || len(doc.Chars) != len(pages) {
		return nil, fmt.Errorf("chars: the pages did not come back: %w", ErrDamaged)
	}
	e.ocrChars(f, doc.Chars)
	return doc.Chars, nil
}

// rawChars are a page's characters as PDFium numbers them, with their
// boxes (zero when PDFium gives none), and the page's shown size.
type rawChars struct {
	runes         []rune
	boxes         [][4]float64
	width, height float64
}

// readChars reads the characters of pages from an open PDF.
func readChars(r pdfReader, pages []int) (*Document, error) {
	count, err := r.pageCount()
	if err != nil {
		return nil, fmt.Errorf("count pages: %w: %w", ErrDamaged, err)
	}
	doc := &Document{}
	for _, n := range pages {
		if n > count {
			return nil, fmt.Errorf("page %d is past the last page (%d)", n, count)
		}
		raw, err := r.charBoxes(n - 1)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", n, err)
		}
		doc.Chars = append(doc.Chars, pageChars(n, raw))
	}
	return doc, nil
}

// pageChars normalises a page's characters as its text is normalised
// (Normalize), each rune of the text keeping the box of the character it
// came from.
func pageChars(n int, raw rawChars) PageChars {
	text, from := NormalizeMapped(raw.runes)
	pc := PageChars{Number: n, Text: text, Boxes: make([][4]float64, len(from)), Width: raw.width, Height: raw.height}
	k := 0
	for _, r := range text {
		if at := from[k]; at >= 0 && at < len(raw.boxes) && !unicode.IsSpace(r) {
			pc.Boxes[k] = raw.boxes[at]
		}
		k++
	}
	if len(pc.Text) > MaxPageText {
		// As readPages cuts a page's text: the boxes go with it.
		pc.Text = truncate(pc.Text, MaxPageText)
		pc.Boxes = pc.Boxes[:len([]rune(pc.Text))]
	}
	return pc
}

// charsOf decodes a page's text, given as FPDFText_GetText's UTF-16 units,
// into runes with their boxes. at gives, for a text index (a unit), the
// character PDFium drew there and its box; a box is kept only when that
// character is the text's (a character outside the Basic Multilingual
// Plane, two units, takes the box of both).
func charsOf(units []uint16, width, height float64, at func(t int) (rune, [4]float64, bool)) rawChars {
	n := min(len(units), MaxPageText)
	raw := rawChars{width: width, height: height, runes: make([]rune, 0, n), boxes: make([][4]float64, 0, n)}
	for t := 0; t < len(units) && len(raw.runes) < MaxPageText; t++ {
		r := rune(units[t])
		var box [4]float64
		if utf16.IsSurrogate(r) && t+1 < len(units) {
			if joined := utf16.DecodeRune(r, rune(units[t+1])); joined != unicode.ReplacementChar {
				_, b1, ok1 := at(t)
				_, b2, ok2 := at(t + 1)
				if ok1 && ok2 {
					box = union(b1, b2)
				}
				raw.runes = append(raw.runes, joined)
				raw.boxes = append(raw.boxes, box)
				t++
				continue
			}
		}
		if u, b, ok := at(t); ok && u == r {
			box = b
		}
		raw.runes = append(raw.runes, r)
		raw.boxes = append(raw.boxes, box)
	}
	return raw
}

// union is the smallest box holding a and b; a zero box holds nothing.
func union(a, b [4]float64) [4]float64 {
	switch {
	case a == [4]float64{}:
		return b
	case b == [4]float64{}:
		return a
	}
	return [4]float64{math.Min(a[0], b[0]), math.Min(a[1], b[1]), math.Max(a[2], b[2]), math.Max(a[3], b[3])}
}

// deviceScale is the device pixels per point at which page coordinates are
// mapped to the shown page (FPDF_PageToDevice answers in whole pixels).
const deviceScale = 16

// affine maps page space to the shown page in points: x' = a*x + c*y + e,
// y' = b*x + d*y + f.
type affine struct{ a, b, c, d, e, f float64 }

// pageTransform derives the map from page space to the shown page from
// where three points of page space land; toDevice is FPDF_PageToDevice at
// deviceScale pixels per point.
func pageTransform(toDevice func(x, y float64) (float64, float64, bool)) (affine, bool) {
	const u = 1000
	x0, y0, ok0 := toDevice(0, 0)
	x1, y1, ok1 := toDevice(u, 0)
	x2, y2, ok2 := toDevice(0, u)
	if !ok0 || !ok1 || !ok2 {
		return affine{}, false
	}
	s := float64(deviceScale)
	return affine{a: (x1 - x0) / u / s, b: (y1 - y0) / u / s, c: (x2 - x0) / u / s, d: (y2 - y0) / u / s, e: x0 / s, f: y0 / s}, true
}

// box maps a character's box in page space (left, top, right, bottom) to
// the shown page.
func (m affine) box(left, top, right, bottom float64) [4]float64 {
	ax, ay := m.a*left+m.c*top+m.e, m.b*left+m.d*top+m.f
	bx, by := m.a*right+m.c*bottom+m.e, m.b*right+m.d*bottom+m.f
	return [4]float64{round2(math.Min(ax, bx)), round2(math.Min(ay, by)), round2(math.Max(ax, bx)), round2(math.Max(ay, by))}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
