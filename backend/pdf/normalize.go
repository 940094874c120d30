package pdf

import (
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// PDFium marks a hyphen that broke a word at a line end: FPDFText_GetUnicode
// returns hyphenMarker for it, and FPDFText_GetText returns textHyphenMarker
// and leaves out the line break that followed.
const (
	hyphenMarker     = '\u0002'
	textHyphenMarker = '\uFFFE'
)

// softHyphen is the invisible hyphen some producers put at line ends.
const softHyphen = '\u00AD'

// maxBlankLines is the longest run of blank lines Normalize keeps.
const maxBlankLines = 2

// Normalize cleans extracted PDF text so that it can be indexed, quoted and
// compared: line ends become "\n"; a word broken across lines by a soft
// hyphen or by one of PDFium's hyphen markers (U+0002, U+FFFE) is joined
// again; no-break spaces and tabs become spaces; other control characters
// are dropped; ligatures are expanded; trailing spaces are trimmed from
// every line; runs of more than two blank lines are cut to two; and blank
// lines at the start and end are removed. Text that is only white space
// becomes "".
func Normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")

	var out strings.Builder
	out.Grow(len(s))
	var line strings.Builder
	blank := 0 // blank lines seen since the last line with text
	started := false

	flush := func() {
		text := strings.TrimRight(line.String(), " ")
		line.Reset()
		if text == "" {
			blank++
			return
		}
		if started {
			out.WriteByte('\n')
			for range min(blank, maxBlankLines) {
				out.WriteByte('\n')
			}
		}
		out.WriteString(text)
		started = true
		blank = 0
	}

	runes := []rune(s)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r == '\n':
			flush()
		case r == hyphenMarker || r == textHyphenMarker || r == softHyphen:
			// A break marker followed (after optional spaces) by a line end
			// joins the word with the next line; anywhere else it is dropped.
			j := i + 1
			for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
				j++
			}
			if j < len(runes) && runes[j] == '\n' {
				j++
				for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
					j++
				}
				i = j - 1
			}
		case r == '\t' || r == '\u00A0' || r == '\u2007' || r == '\u202F':
			line.WriteByte(' ')
		case unicode.IsControl(r):
			// Dropped: control characters carry no text.
		default:
			if lig := text.Ligature(r); lig != "" {
				line.WriteString(lig) // so that "ﬁnd" is found by a search for "find"
			} else {
				line.WriteRune(r)
			}
		}
	}
	flush()
	return out.String()
}
