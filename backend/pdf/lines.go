package pdf

import (
	"math"
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// maxFirstPageChars bounds the per-character walk of page 1; a title is
// never that far down, and a page with more characters is not prose.
const maxFirstPageChars = 20000

// firstPageLines returns page 1's lines in PDFium's reading order, each with
// the rendered font size that most of its characters use. Lines are split
// where PDFium puts line breaks; lines set mostly in vertical characters
// (margin stamps) are left out, as they are not part of the reading order.
func firstPageLines(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT) ([]Line, error) {
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: 0}},
	})
	if err != nil {
		return nil, err
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})

	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return nil, err
	}

	var lines []Line
	var b lineBuilder
	for i := range min(n.Count, maxFirstPageChars) {
		u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: i})
		if err != nil {
			return nil, err
		}
		r := rune(u.Unicode)
		if r == '\n' || r == '\r' {
			if l, ok := b.line(); ok {
				lines = append(lines, l)
			}
			continue
		}
		if isSpace(r) || r == hyphenMarker {
			b.add(r, 0, false)
			continue
		}
		size, vertical := charSize(inst, tp.TextPage, i)
		b.add(r, size, vertical)
	}
	if l, ok := b.line(); ok {
		lines = append(lines, l)
	}
	return lines, nil
}

// charSize returns the rendered font size of character i: the font size
// scaled by the vertical scale of the character's matrix, so that text set
// with "1 Tf" and a scaling matrix gets its visible size. It is rounded to a
// tenth of a point. vertical reports a character turned by about 90 degrees,
// such as arXiv's margin stamp.
func charSize(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int) (size float64, vertical bool) {
	fs, err := inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp, Index: i})
	if err != nil {
		return 0, false
	}
	size = fs.FontSize
	if m, err := inst.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: tp, Index: i}); err == nil {
		a, b, c, d := float64(m.Matrix.A), float64(m.Matrix.B), float64(m.Matrix.C), float64(m.Matrix.D)
		if scale := math.Hypot(c, d); scale > 0 {
			size *= scale
		}
		vertical = math.Abs(b) > math.Abs(a)
	}
	return math.Round(size*10) / 10, vertical
}

// isSpace reports the spaces PDFium emits between words; they have no size
// worth counting.
func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\u00A0'
}

// lineBuilder collects the characters of one line and counts how many of
// them use each font size and how many are vertical.
type lineBuilder struct {
	text     strings.Builder
	sizes    map[float64]int
	sized    int
	vertical int
}

// add appends r; size 0 means r does not count towards the line's size.
func (b *lineBuilder) add(r rune, size float64, vertical bool) {
	b.text.WriteRune(r)
	if size > 0 {
		if b.sizes == nil {
			b.sizes = map[float64]int{}
		}
		b.sizes[size]++
		b.sized++
	}
	if vertical {
		b.vertical++
	}
}

// line returns the collected line, normalised, and resets the builder. It
// reports false for a line without text or a vertical line.
func (b *lineBuilder) line() (Line, bool) {
	text := strings.TrimSpace(Normalize(b.text.String()))
	best, bestN := 0.0, 0
	for size, n := range b.sizes {
		// Ties go to the larger size so that the result is deterministic.
		if n > bestN || (n == bestN && size > best) {
			best, bestN = size, n
		}
	}
	vertical := b.vertical*2 > b.sized
	b.text.Reset()
	clear(b.sizes)
	b.sized, b.vertical = 0, 0
	if text == "" || vertical {
		return Line{}, false
	}
	return Line{Text: text, Size: best}, true
}
