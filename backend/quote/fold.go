package quote

import (
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// folded is a text reduced to what a quote and its page have in common
// however either was spaced, hyphenated at line ends, punctuated, cased or
// written with ligatures: its letters and digits, folded as text.AppendFold
// folds them (lower case, no diacritics, ligatures spelled out), and a
// decimal point between two digits. Every byte of s maps back to the rune
// of the original text it came from.
type folded struct {
	s     string
	pos   []int  // for each byte of s: the index of its source rune
	start []bool // for each byte of s: it begins the first rune folded from a line
	end   []bool // for each byte of s: it ends the last rune folded from a line
}

// keep reports whether rune i of r carries text for quotes: a letter or a
// digit, or a decimal point between digits ("3.5" is not "35").
func keep(r []rune, i int) bool {
	c := r[i]
	if text.IsWordRune(c) {
		return !unicode.Is(unicode.Mn, c)
	}
	return c == '.' && i > 0 && i+1 < len(r) && unicode.IsDigit(r[i-1]) && unicode.IsDigit(r[i+1])
}

// fold folds a text. Lines are the text's "\n"-separated lines; a line
// break inside a word ("con-\nsensus") does not split it in s, but its
// bytes still record where the line ended.
func fold(src string) folded {
	r := []rune(src)
	var b strings.Builder
	b.Grow(len(src))
	f := folded{pos: make([]int, 0, len(src))}
	var buf []rune
	newLine := true
	lastEnd := -1 // index in f.end of the last byte written
	for i, c := range r {
		if c == '\n' {
			newLine = true
			if lastEnd >= 0 {
				f.end[lastEnd] = true
			}
			continue
		}
		if !keep(r, i) {
			continue
		}
		buf = text.AppendFold(buf[:0], c)
		for _, fc := range buf {
			if !text.IsWordRune(fc) && fc != '.' {
				continue
			}
			n, _ := b.WriteRune(fc)
			for k := range n {
				f.pos = append(f.pos, i)
				f.start = append(f.start, newLine && k == 0)
				f.end = append(f.end, false)
			}
			newLine = false
			lastEnd = len(f.end) - 1
		}
	}
	if lastEnd >= 0 {
		f.end[lastEnd] = true
	}
	f.s = b.String()
	return f
}

// Fold is the folded form of s that quotes are compared in: two texts
// hold the same passage when their folded forms are equal.
// It is fold's s, without the positions fold keeps for each byte.
func Fold(s string) string {
	if ascii(s) {
		return foldASCII(s)
	}
	r := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	var buf []rune
	for i, c := range r {
		if c < 0x80 {
			// as keep and text.AppendFold take an ASCII rune
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				b.WriteByte(byte(c))
			case 'A' <= c && c <= 'Z':
				b.WriteByte(byte(c + 'a' - 'A'))
			case c == '.' && keep(r, i):
				b.WriteByte('.')
			}
			continue
		}
		if !keep(r, i) {
			continue
		}
		buf = text.AppendFold(buf[:0], c)
		for _, fc := range buf {
			if text.IsWordRune(fc) || fc == '.' {
				b.WriteRune(fc)
			}
		}
	}
	return b.String()
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// foldASCII is Fold of an ASCII s: its letters in lower case, its digits,
// and a period between two digits.
func foldASCII(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			b = append(b, c)
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c == '.' && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]):
			b = append(b, c)
		}
	}
	return string(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
