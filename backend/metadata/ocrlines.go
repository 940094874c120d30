package metadata

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/pdf"
)

// OCRLines are the lines of a page OCR read (a scan's, or a page whose
// text layer is garbage), each with the size its type is estimated to be
// set in: page 1's header is then read as a text layer's is (the title in
// the largest type, the names under it). OCR gives each word its box, as
// tall as the word's letters reach: a word with letters above the small
// ones (capitals, b, d, f, h, k, l, t, digits) and below the line (g, j,
// p, q, y) is about as tall as its type, one with only either about three
// quarters, one of small letters only half. A line's size is the median
// of its words' sizes so estimated, which a word OCR boxed badly, or a
// line OCR joined with its neighbour's, does not move.
func OCRLines(pc pdf.PageChars) []pdf.Line {
	var out []pdf.Line
	runes := []rune(pc.Text)
	var sizes []float64
	lineStart, wordStart := 0, 0
	for i := 0; i <= len(runes); i++ {
		end := i == len(runes) || runes[i] == '\n'
		if end || runes[i] == ' ' {
			if s := ocrWordSize(runes[wordStart:i], pc.Boxes, wordStart); s > 0 {
				sizes = append(sizes, s)
			}
			wordStart = i + 1
		}
		if !end {
			continue
		}
		if text := strings.TrimSpace(string(runes[lineStart:i])); text != "" {
			size := 0.0
			if len(sizes) > 0 {
				slices.Sort(sizes)
				size = sizes[len(sizes)/2]
				if len(sizes)%2 == 0 {
					size = (size + sizes[len(sizes)/2-1]) / 2
				}
				size = math.Round(size*2) / 2 // near sizes are one size, as a text layer's are
			}
			out = append(out, pdf.Line{Text: text, Size: size})
		}
		sizes = sizes[:0]
		lineStart = i + 1
	}
	return out
}

// ocrWordSize estimates the size of the type of a word OCR read (its runes
// from index at in boxes): its box's height over the share of the type's
// height its letters reach. 0 when it has no letters or no box.
func ocrWordSize(word []rune, boxes [][4]float64, at int) float64 {
	top, bottom := math.Inf(1), math.Inf(-1)
	up, down, letters := false, false, 0
	for k, r := range word {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || at+k >= len(boxes) {
			continue
		}
		b := boxes[at+k]
		if b == [4]float64{} {
			continue
		}
		letters++
		top, bottom = min(top, b[1]), max(bottom, b[3])
		switch {
		case strings.ContainsRune("gjpqy", r):
			down = true
		case unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("bdfhiklt", r) || r > 0x7f:
			up = true
		}
	}
	if letters == 0 || bottom <= top {
		return 0
	}
	share := 0.5
	switch {
	case up && down:
		share = 0.95
	case up || down:
		share = 0.72
	}
	return (bottom - top) / share
}
