package index

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/text"
)

func TestSnippet(t *testing.T) {
	m := func(w string) string { return MarkStart + w + MarkEnd }
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 20)
	terms := text.Parse("leader election")
	places := []int{0, 1}
	tests := []struct {
		name        string
		highlighted string
		n           int
		want        string // the snippet holds this
		quote       string // the quote, when said
	}{
		{"short text whole, white space collapsed", "the  " + m("leader") + "\n\nwins", 100, "the " + m("leader") + " wins", "the leader wins"},
		{"the terms as the query has them win over a lone term",
			m("leader") + " " + filler + "a new " + m("leader") + " " + m("election") + " begins " + filler, 80,
			m("leader") + " " + m("election") + " begins", ""},
		{"more distinct terms win over more marks",
			m("leader") + " " + m("leader") + " " + m("leader") + " " + filler + m("election") + " of the " + m("leader") + " " + filler, 60,
			m("election") + " of the " + m("leader"), ""},
		{"cut text is marked", filler + m("leader") + " " + filler, 60, "…", ""},
		{"a page's own ellipsis is not in the quote", "(" + m("leader") + " 1, ..., " + m("leader") + " " + m("election") + " n).", 100, "...", "leader election n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, quote := snippet(tt.highlighted, terms, places, tt.n)
			if !strings.Contains(got, tt.want) {
				t.Errorf("snippet = %q, want it to hold %q", got, tt.want)
			}
			plain := strings.NewReplacer(MarkStart, "", MarkEnd, "").Replace(got)
			if n := utf8.RuneCountInString(plain); n > tt.n {
				t.Errorf("snippet of %d characters, want at most %d: %q", n, tt.n, got)
			}
			if strings.Count(got, MarkStart) != strings.Count(got, MarkEnd) {
				t.Errorf("unbalanced marks: %q", got)
			}
			// The quote is the snippet's words: no marks, no ellipses.
			words := strings.TrimFunc(strings.Trim(plain, "…"), func(r rune) bool { return !text.IsWordRune(r) })
			if !strings.Contains(words, "...") && !strings.Contains(words, "…") && quote != words {
				t.Errorf("quote = %q, want the snippet's words %q", quote, words)
			}
			if tt.quote != "" && quote != tt.quote {
				t.Errorf("quote = %q, want %q", quote, tt.quote)
			}
			if !strings.Contains(words, quote) || strings.Contains(quote, "...") || strings.Contains(quote, "…") {
				t.Errorf("quote = %q, want the snippet's words %q without ellipses", quote, words)
			}
		})
	}
}
