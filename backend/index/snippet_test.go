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
	}{
		{"short text whole, white space collapsed", "the  " + m("leader") + "\n\nwins", 100, "the " + m("leader") + " wins"},
		{"the terms as the query has them win over a lone term",
			m("leader") + " " + filler + "a new " + m("leader") + " " + m("election") + " begins " + filler, 80,
			m("leader") + " " + m("election") + " begins"},
		{"more distinct terms win over more marks",
			m("leader") + " " + m("leader") + " " + m("leader") + " " + filler + m("election") + " of the " + m("leader") + " " + filler, 60,
			m("election") + " of the " + m("leader")},
		{"cut text is marked", filler + m("leader") + " " + filler, 60, "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := snippet(tt.highlighted, terms, places, tt.n)
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
		})
	}
}
