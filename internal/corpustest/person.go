package corpustest

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SamePerson reports whether a name read from a paper is the manifest's
// person: the same family name (last word), and the same first initial
// when both have more than one word. Case, accents and punctuation are
// ignored.
func SamePerson(got, want string) bool {
	g, w := personWords(got), personWords(want)
	if len(g) == 0 || len(w) == 0 || g[len(g)-1] != w[len(w)-1] {
		return false
	}
	return len(g) == 1 || len(w) == 1 || g[0][0] == w[0][0]
}

// personWords lower-cases a name, strips its accents and keeps its letters
// as words.
func personWords(s string) []string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case r == 'ı':
			b.WriteRune('i')
		case unicode.IsLetter(r):
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Fields(b.String())
}
