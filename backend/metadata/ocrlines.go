package metadata

import (
	"math"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/pdf"
)

// OCRLines are the lines of a page OCR read (a scan's, or a page whose
// text layer is garbage), each with the size its type is estimated to be
// set in: page 1's header is then read as a text layer's is (the title in
// the largest type, the names under it). OCR gives each word its box; a
// line's type is about as tall as its words reach from the highest top to
// the lowest bottom when some of them go below the line (g, p, y), and a
// fifth taller than that when none does (capitals, "Ken Birman").
func OCRLines(pc pdf.PageChars) []pdf.Line {
	var out []pdf.Line
	runes := []rune(pc.Text)
	start := 0
	for i := 0; i <= len(runes); i++ {
		if i < len(runes) && runes[i] != '\n' {
			continue
		}
		text := strings.TrimSpace(string(runes[start:i]))
		if text != "" {
			top, bottom := math.Inf(1), math.Inf(-1)
			for j := start; j < i && j < len(pc.Boxes); j++ {
				b := pc.Boxes[j]
				if b == [4]float64{} || !unicode.IsLetter(runes[j]) && !unicode.IsDigit(runes[j]) {
					continue
				}
				top, bottom = min(top, b[1]), max(bottom, b[3])
			}
			size := 0.0
			if bottom > top {
				size = bottom - top
				if !strings.ContainsAny(text, "gjpqy") {
					size /= 0.8
				}
				size = math.Round(size*2) / 2 // near sizes are one size, as a text layer's are
			}
			out = append(out, pdf.Line{Text: text, Size: size})
		}
		start = i + 1
	}
	return out
}
