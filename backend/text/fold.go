// Package text is how Agentero reads words, the same way everywhere: one
// folding (Fold, AppendFold), one tokenizer (Words, Parse) and one stop
// list (Stop). The index and its searches, the MCP server, paper relations,
// the PDF reader and the built-in agent all use it, so that a word one of
// them finds is the word the others find. It imports nothing of Agentero.
//
// The index's FTS5 tables fold words with SQLite's unicode61 tokenizer
// (lower case, diacritics removed): Fold does the same, and beyond it
// spells out the letters that have no decomposition (ß, æ, œ, ø, ł, ı) and
// the ligatures PDF text carries. So words compared in Go are folded with
// Fold, while words handed to FTS5 are given as typed and folded there.
package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ligatures maps the Latin presentation-form ligatures to the letters they
// stand for.
var ligatures = map[rune]string{
	'\uFB00': "ff",
	'\uFB01': "fi",
	'\uFB02': "fl",
	'\uFB03': "ffi",
	'\uFB04': "ffl",
	'\uFB05': "st",
	'\uFB06': "st",
}

// Ligature returns the letters a ligature stands for ("ﬁ" → "fi"), or ""
// when r is not one.
func Ligature(r rune) string {
	if r < '\uFB00' || r > '\uFB06' {
		return ""
	}
	return ligatures[r]
}

// spelled are letters without a decomposition into a base letter and
// marks, folded to the plain letters they are written as.
var spelled = map[rune]string{
	'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe",
	'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l", 'ı': "i", 'đ': "d", 'Đ': "d",
}

// AppendFold appends the folded form of r to dst: a letter or number lower
// case, without diacritics, with ligatures and the letters of spelled
// written out ("É" → "e", "ﬁ" → "fi", "ß" → "ss"); a combining mark
// nothing; anything else r itself.
func AppendFold(dst []rune, r rune) []rune {
	if r < 0x80 {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(dst, r)
	}
	if s, ok := spelled[r]; ok {
		return append(dst, []rune(s)...)
	}
	if s, ok := ligatures[r]; ok {
		return append(dst, []rune(s)...)
	}
	if unicode.Is(unicode.Mn, r) {
		return dst
	}
	if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
		return append(dst, r)
	}
	for _, d := range norm.NFKD.String(string(r)) {
		if unicode.IsLetter(d) || unicode.IsNumber(d) {
			dst = append(dst, unicode.ToLower(d))
		}
	}
	return dst
}

// Fold returns s folded rune by rune (see AppendFold).
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	var buf []rune
	for _, r := range s {
		buf = AppendFold(buf[:0], r)
		for _, f := range buf {
			b.WriteRune(f)
		}
	}
	return b.String()
}
