package refs

import (
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// folded is text reduced to its letters and digits, folded (text.Fold:
// lower case, without diacritics), with a way back to the text: what titles
// are compared in. Comparing letters only makes "High-performance", "highperformance" and
// "high-\nperformance", or "Mazi`eres" and "Mazières", the same.
type folded struct {
	s     []rune // the letters and digits
	at    []int  // at[i]: byte offset in the text of the rune s[i] came from
	start []bool // start[i]: s[i] begins a word of the text
	end   []bool // end[i]: s[i] ends a word of the text
}

// fold reduces s to its letters and digits.
func fold(s string) folded {
	var f folded
	prevAlnum := false
	lastIdx := -1
	var buf []rune
	for off, r := range s {
		if !isAlnum(r) {
			if prevAlnum && lastIdx >= 0 {
				f.end[lastIdx] = true
			}
			prevAlnum = false
			continue
		}
		first := true
		buf = text.AppendFold(buf[:0], r)
		for _, x := range buf {
			f.s = append(f.s, x)
			f.at = append(f.at, off)
			f.start = append(f.start, first && !prevAlnum)
			f.end = append(f.end, false)
			first = false
		}
		lastIdx = len(f.s) - 1
		prevAlnum = true
	}
	if prevAlnum && lastIdx >= 0 {
		f.end[lastIdx] = true
	}
	return f
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// letters is the folded form of s as a string.
func letters(s string) string { return string(fold(s).s) }
