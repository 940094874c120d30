package pdf

import (
	"math"
	"strings"
)

// maxFirstPageChars bounds the per-character walk of page 1; a title is
// never that far down, and a page with more characters is not prose.
const maxFirstPageChars = 20000

// firstPageLines returns page 1's lines in PDFium's reading order, each with
// the rendered font size that most of its characters use. Lines are split
// where PDFium puts line breaks; lines set mostly in vertical characters
// (margin stamps) are left out, as they are not part of the reading order.
func firstPageLines(r pdfReader) ([]Line, error) {
	var lines []Line
	var b lineBuilder
	err := r.chars(0, maxFirstPageChars, func(c rune, size float64, vertical bool) {
		if c == '\n' || c == '\r' {
			if l, ok := b.line(); ok {
				lines = append(lines, l)
			}
			return
		}
		b.add(c, size, vertical)
	})
	if err != nil {
		return nil, err
	}
	if l, ok := b.line(); ok {
		lines = append(lines, l)
	}
	return lines, nil
}

// unsized reports the characters whose size firstPageLines does not count:
// line breaks, the spaces PDFium emits between words, its hyphen marker.
func unsized(r rune) bool {
	return r == '\n' || r == '\r' || isSpace(r) || r == hyphenMarker
}

// renderedSize is a character's font size scaled by the vertical scale of
// its matrix (a b c d), so that text set with "1 Tf" and a scaling matrix
// gets its visible size, rounded to a tenth of a point. vertical reports a
// character turned by about 90 degrees, such as arXiv's margin stamp.
func renderedSize(fontSize, a, b, c, d float64) (size float64, vertical bool) {
	size = fontSize
	if scale := math.Hypot(c, d); scale > 0 {
		size *= scale
	}
	return math.Round(size*10) / 10, math.Abs(b) > math.Abs(a)
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
