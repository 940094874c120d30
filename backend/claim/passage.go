package claim

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
)

// The passage of a check (citation.Check.Passage) is the page's own text
// where its words hold the claim: from the first to the last of them the
// scorer found together, widened to the sentences they are in, white
// space collapsed. It is what the viewer marks when the citation is
// opened, found again by the locator like any quote.

// maxWiden is how far (bytes) a passage is widened at each end to reach
// the sentence it starts or ends in.
const maxWiden = 300

// passage is the text of the passage that sc (a page's score) found; ""
// for a text file, or when the page holds no such passage.
func (s *source) passage(sc score) string {
	if s.textual || sc.value <= 0 || sc.page < 1 || sc.page > len(s.pages) {
		return ""
	}
	text := s.pages[sc.page-1].Text
	from, to, pos := -1, len(text), 0
	scan(text, func(t token) {
		if pos == sc.from {
			from = t.at
		}
		if pos == sc.to {
			to = t.end
		}
		pos++
	})
	if from < 0 || to <= from {
		return ""
	}
	from, to = sentenceStart(text, from), sentenceEnd(text, to)
	return clipPassage(oneLine(text[from:to]))
}

// sentenceStart is where the sentence that holds byte i of text starts:
// after the full stop (or blank line) before it, at most maxWiden bytes
// back; else at the start of the word nearest that far.
func sentenceStart(text string, i int) int {
	limit := max(0, i-maxWiden)
	for j := i; j > limit; j-- {
		if endsSentence(text, j) {
			return pastSpace(text, j)
		}
	}
	if limit == 0 {
		return 0
	}
	for j := limit; j < i; j++ {
		if unicode.IsSpace(rune(text[j])) {
			return j + 1
		}
	}
	return i
}

// sentenceEnd is where the sentence that holds the byte before i ends:
// just after its full stop, at most maxWiden bytes on; else at the end of
// the word nearest that far.
func sentenceEnd(text string, i int) int {
	limit := min(len(text), i+maxWiden)
	for j := i; j < limit; j++ {
		if endsSentence(text, j+1) {
			return j + 1
		}
	}
	if limit == len(text) {
		return len(text)
	}
	for j := limit; j > i; j-- {
		if unicode.IsSpace(rune(text[j])) {
			return j
		}
	}
	return i
}

// endsSentence reports whether a sentence ends just before byte j of
// text: after ".", "?" or "!" followed by white space, or at a blank line.
func endsSentence(text string, j int) bool {
	if j <= 0 || j >= len(text) || !unicode.IsSpace(rune(text[j])) {
		return false
	}
	switch text[j-1] {
	case '.', '?', '!':
		return true
	case '\n':
		return text[j] == '\n'
	}
	return false
}

func pastSpace(text string, j int) int {
	for j < len(text) && unicode.IsSpace(rune(text[j])) {
		j++
	}
	return j
}

// oneLine collapses a text's white space to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clipPassage cuts a passage to what a citation's quote may hold
// (citation.MaxQuote characters), at a word.
func clipPassage(s string) string {
	if utf8.RuneCountInString(s) <= citation.MaxQuote {
		return s
	}
	r := []rune(s)[:citation.MaxQuote]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return cut
}
