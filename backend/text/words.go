package text

import (
	"strings"
	"unicode"
)

// IsWordRune reports whether r belongs to a word: letters, digits and
// combining marks make words, as the index's unicode61 tokenizer reads them;
// everything else separates them.
func IsWordRune(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}

// Split splits s into its words as written.
func Split(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !IsWordRune(r) })
}

// Words splits s into its words, folded: the words the index finds in s.
func Words(s string) []string {
	words := Split(s)
	for i, w := range words {
		words[i] = Fold(w)
	}
	return words
}

// Term is one search term: a word, or a phrase the user quoted.
type Term struct {
	Words  []string // as written: the index folds them itself
	Phrase bool
}

// Key is the term folded, its words joined by spaces: terms with the same
// key match the same text.
func (t Term) Key() string { return Fold(strings.Join(t.Words, " ")) }

// Parse splits a query into words and "quoted phrases". Punctuation
// separates words, so the syntax of a search engine (AND, NEAR(…), col:,
// *) in a query is only words.
func Parse(query string) []Term {
	var out []Term
	parts := strings.Split(query, `"`)
	for i, part := range parts {
		words := Split(part)
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 && i < len(parts)-1 { // inside a closed pair of quotes
			out = append(out, Term{Words: words, Phrase: true})
			continue
		}
		for _, w := range words {
			out = append(out, Term{Words: []string{w}})
		}
	}
	return out
}

// Distinct keeps each term once, in order: a word repeated in a query
// counts once.
func Distinct(terms []Term) []Term {
	var out []Term
	seen := map[string]bool{}
	for _, t := range terms {
		k := t.Key()
		if !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// Content keeps the terms that say what a query is about: quoted phrases,
// and words that are not stop words.
func Content(terms []Term) []Term {
	var out []Term
	for _, t := range terms {
		if t.Phrase || !Stop(Fold(t.Words[0])) {
			out = append(out, t)
		}
	}
	return out
}

// snapReach is how far a cut moves to land on white space.
const snapReach = 40

// SnapBack moves the end of a cut r[from:to] back to just after white
// space, when white space is within the last 40 characters, so that the
// cut does not end inside a word.
func SnapBack(r []rune, from, to int) int {
	for i := to; i > from && i > to-snapReach; i-- {
		if unicode.IsSpace(r[i-1]) {
			return i
		}
	}
	return to
}

// SnapForward moves the start of a cut of r forward to just after white
// space, when white space is within the next 40 characters and before
// limit, so that the cut does not start inside a word.
func SnapForward(r []rune, from, limit int) int {
	for i := from; i < len(r) && i < from+snapReach && i < limit; i++ {
		if unicode.IsSpace(r[i]) {
			return i + 1
		}
	}
	return from
}
