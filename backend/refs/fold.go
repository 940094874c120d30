package refs

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// folded is text reduced to its lower-case letters and digits, without
// diacritics, with a way back to the text: what titles are compared in.
// Comparing letters only makes "High-performance", "highperformance" and
// "high-\nperformance", or "Mazi`eres" and "Mazières", the same.
type folded struct {
	s     []rune // the letters and digits
	at    []int  // at[i]: byte offset in the text of the rune s[i] came from
	start []bool // start[i]: s[i] begins a word of the text
	end   []bool // end[i]: s[i] ends a word of the text
}

// fold reduces text to its letters and digits.
func fold(text string) folded {
	var f folded
	prevAlnum := false
	lastIdx := -1
	for off, r := range text {
		if !isAlnum(r) {
			if prevAlnum && lastIdx >= 0 {
				f.end[lastIdx] = true
			}
			prevAlnum = false
			continue
		}
		first := true
		for _, x := range foldRune(r) {
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

// foldRune lower-cases r and strips its diacritics ("É" → "e", "ß" → "ss").
func foldRune(r rune) []rune {
	if r < 0x80 {
		return []rune{unicode.ToLower(r)}
	}
	switch r {
	case 'ß':
		return []rune("ss")
	case 'æ', 'Æ':
		return []rune("ae")
	case 'œ', 'Œ':
		return []rune("oe")
	case 'ø', 'Ø':
		return []rune("o")
	case 'ł', 'Ł':
		return []rune("l")
	case 'ı':
		return []rune("i")
	}
	var out []rune
	for _, d := range norm.NFKD.String(string(r)) {
		if unicode.Is(unicode.Mn, d) || !isAlnum(d) {
			continue
		}
		out = append(out, unicode.ToLower(d))
	}
	return out
}

// letters is the folded form of s as a string.
func letters(s string) string { return string(fold(s).s) }

// titleWords splits a title into lower-case words.
func titleWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isAlnum(r) })
}
