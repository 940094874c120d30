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
	out, _ := normalize([]rune(s), false)
	return out
}

// NormalizeMapped is Normalize of the runes r, with, for each rune of the
// result, the index in r of the rune it came from (-1 for the line breaks
// it writes between lines). A ligature spelled out maps each of its
// letters to the ligature.
func NormalizeMapped(r []rune) (string, []int) { return normalize(r, true) }

// normalize is Normalize, recording where each rune came from when track
// is set.
func normalize(runes []rune, track bool) (string, []int) {
	var out strings.Builder
	out.Grow(len(runes))
	var from []int
	var line []rune
	var lineFrom []int
	blank := 0 // blank lines seen since the last line with text
	started := false

	put := func(r rune, at int) {
		line = append(line, r)
		if track {
			lineFrom = append(lineFrom, at)
		}
	}
	flush := func() {
		n := len(line)
		for n > 0 && line[n-1] == ' ' {
			n--
		}
		if n == 0 {
			line, lineFrom = line[:0], lineFrom[:0]
			blank++
			return
		}
		if started {
			for range 1 + min(blank, maxBlankLines) {
				out.WriteByte('\n')
				if track {
					from = append(from, -1)
				}
			}
		}
		for _, r := range line[:n] {
			out.WriteRune(r)
		}
		if track {
			from = append(from, lineFrom[:n]...)
		}
		line, lineFrom = line[:0], lineFrom[:0]
		started = true
		blank = 0
	}
	// lineEnd reports whether a line ends at i ("\n", "\r\n" or "\r"),
	// and where the next line starts.
	lineEnd := func(i int) (bool, int) {
		switch {
		case i >= len(runes):
			return false, i
		case runes[i] == '\n':
			return true, i + 1
		case runes[i] == '\r' && i+1 < len(runes) && runes[i+1] == '\n':
			return true, i + 2
		case runes[i] == '\r':
			return true, i + 1
		}
		return false, i
	}

	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if end, next := lineEnd(i); end {
			flush()
			i = next - 1
			continue
		}
		switch {
		case ' ' <= r && r < 0x7F: // printable ASCII, most of a page
			put(r, i)
		case r == hyphenMarker || r == textHyphenMarker || r == softHyphen:
			// A break marker followed (after optional spaces) by a line end
			// joins the word with the next line; anywhere else it is dropped.
			j := i + 1
			for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
				j++
			}
			if end, next := lineEnd(j); end {
				j = next
				for j < len(runes) && (runes[j] == ' ' || runes[j] == '\t') {
					j++
				}
				i = j - 1
			}
		case r == '\t' || r == '\u00A0' || r == '\u2007' || r == '\u202F':
			put(' ', i)
		case unicode.IsControl(r):
			// Dropped: control characters carry no text.
		default:
			if lig := text.Ligature(r); lig != "" {
				for _, c := range lig { // so that "ﬁnd" is found by a search for "find"
					put(c, i)
				}
			} else {
				put(r, i)
			}
		}
	}
	flush()
	return out.String(), from
}
