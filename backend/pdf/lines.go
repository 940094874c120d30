package pdf

import (
	"math"
	"strings"
)

// maxLineChars bounds the per-character walk of a page; a heading or a
// title is never that far down, and a page with more characters is not
// prose.
const maxLineChars = 20000

// pageLines returns page i's lines in PDFium's reading order, each with
// the rendered font size and the font weight that most of its characters
// use. Lines are split where PDFium puts line breaks; lines set mostly in
// vertical characters (margin stamps) are left out, as they are not part
// of the reading order.
func pageLines(r pdfReader, i int) ([]weighedLine, error) {
	var lines []weighedLine
	var b lineBuilder
	err := r.chars(i, maxLineChars, func(c rune, size float64, weight int, vertical bool) {
		if c == '\n' || c == '\r' {
			if l, ok := b.line(); ok {
				lines = append(lines, l)
			}
			return
		}
		b.add(c, size, weight, vertical)
	})
	if err != nil {
		return nil, err
	}
	if l, ok := b.line(); ok {
		lines = append(lines, l)
	}
	return lines, nil
}

// unsized reports the characters whose size pageLines does not count:
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
	weights  map[int]int
	sized    int
	vertical int
}

// add appends r; size 0 means r does not count towards the line's size
// and weight.
func (b *lineBuilder) add(r rune, size float64, weight int, vertical bool) {
	b.text.WriteRune(r)
	if size > 0 {
		if b.sizes == nil {
			b.sizes = map[float64]int{}
			b.weights = map[int]int{}
		}
		b.sizes[size]++
		b.weights[weight]++
		b.sized++
	}
	if vertical {
		b.vertical++
	}
}

// line returns the collected line, normalised, and resets the builder. It
// reports false for a line without text or a vertical line.
func (b *lineBuilder) line() (weighedLine, bool) {
	text := strings.TrimSpace(Normalize(b.text.String()))
	best, bestN := 0.0, 0
	for size, n := range b.sizes {
		// Ties go to the larger size so that the result is deterministic.
		if n > bestN || (n == bestN && size > best) {
			best, bestN = size, n
		}
	}
	weight, weightN := 0, 0
	for w, n := range b.weights {
		if n > weightN || (n == weightN && w > weight) {
			weight, weightN = w, n
		}
	}
	vertical := b.vertical*2 > b.sized
	b.text.Reset()
	clear(b.sizes)
	clear(b.weights)
	b.sized, b.vertical = 0, 0
	if text == "" || vertical {
		return weighedLine{}, false
	}
	return weighedLine{Line{Text: text, Size: best}, weight}, true
}

// weighedLine is a line with its font's weight (400 normal, 700 bold, 0
// unknown), which says bold only beside the weight of the page's body:
// PDFium derives it from the font's stem width, and its versions differ.
type weighedLine struct {
	Line
	weight int
}

// boldAbove is how much heavier than the body a bold line is.
const boldAbove = 150

// pageOf is a page's lines, its short lines marked bold or not, and the
// size most of its text is set in, each line counting by its length.
func pageOf(lines []weighedLine) (all, short []Line, bodySize float64) {
	sizes, weights := map[float64]int{}, map[int]int{}
	for _, l := range lines {
		n := len([]rune(l.Text))
		sizes[l.Size] += n
		weights[l.weight] += n
	}
	body := mostOf(weights)
	for _, l := range lines {
		l.Bold = bold(l.weight, body)
		all = append(all, l.Line)
		if len([]rune(l.Text)) <= MaxShortLine {
			short = append(short, l.Line)
		}
	}
	return all, short, mostOf(sizes)
}

// bold reports whether a line of weight is bold on a page whose body is
// set in weight body.
func bold(weight, body int) bool {
	return weight >= 600 || weight > 0 && body > 0 && weight-body >= boldAbove
}

// charProp is how a character is set: its rendered size, its font's
// weight, whether it is turned by about 90 degrees.
type charProp struct {
	size     float64
	weight   int
	vertical bool
}

// Sampling of readLayout: a line's size and weight are those of its first
// lineHead characters (a heading is set in one font, and so are the first
// words of a line of prose); the page's body size and weight come from
// every bodySample-th character besides.
const (
	lineHead   = 6
	bodySample = 16
)

// rawLayout is a page's characters with the props of some of them.
type rawLayout struct {
	runes []rune
	props []charProp // size -1: not looked at
}

// lines are a page's short lines and its body size and weight, from its
// layout, in which a few characters of each line were looked at: most of
// a page is prose, and looking at every character costs a third of a
// whole reading.
func (l rawLayout) lines() (short []Line, bodySize float64) {
	if len(l.props) != len(l.runes) {
		return nil, 0
	}
	var lines []weighedLine
	var sizes map[float64]int
	var weights map[int]int
	from := 0
	for k := 0; k <= len(l.runes); k++ {
		if k < len(l.runes) && l.runes[k] != '\n' && l.runes[k] != '\r' {
			continue
		}
		line := l.runes[from:k]
		props := l.props[from:k]
		from = k + 1
		if len(line) == 0 {
			continue
		}
		var head []charProp
		for j, p := range props {
			if p.size <= 0 {
				continue
			}
			if len(head) < lineHead && j < len(line) {
				head = append(head, p)
			}
			if sizes == nil {
				sizes, weights = map[float64]int{}, map[int]int{}
			}
			sizes[p.size]++
			weights[p.weight]++
		}
		if len(head) == 0 || len(line) > 2*MaxShortLine {
			continue
		}
		text := strings.TrimSpace(Normalize(string(line)))
		if text == "" || len([]rune(text)) > MaxShortLine {
			continue
		}
		lines = append(lines, headLine(text, head))
	}
	body := mostOf(weights)
	for _, l := range lines {
		l.Bold = bold(l.weight, body)
		short = append(short, l.Line)
	}
	return short, mostOf(sizes)
}

// headLine is a line set as most of its first characters are; a line of
// mostly turned characters (a margin stamp) counts as set in size 0.
func headLine(text string, head []charProp) weighedLine {
	best, bestN, turned := 0, 0, 0
	for i, p := range head {
		n := 0
		for _, q := range head {
			if q.size == p.size && q.weight == p.weight {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
		if p.vertical {
			turned++
		}
	}
	if turned*2 > len(head) {
		return weighedLine{Line: Line{Text: text}}
	}
	return weighedLine{Line{Text: text, Size: head[best].size}, head[best].weight}
}

// mostOf is the key with the greatest count; ties go to the greater key.
func mostOf[K int | float64](counts map[K]int) K {
	var best K
	n := 0
	for k, c := range counts {
		if c > n || c == n && k > best {
			best, n = k, c
		}
	}
	return best
}
