package citation

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFind: a citation counts however an answer or a note writes it, and
// the span it reports is the whole of what the text wrote for it.
func TestFind(t *testing.T) {
	raft := "papers/raft/paper.pdf"
	type found struct {
		Span string // text[Start:End]
		Key  Key
		Text string
	}
	tests := []struct {
		text string
		want []found
	}{
		{"see [p. 3](papers/raft/paper.pdf#page=3) now", []found{{"[p. 3](papers/raft/paper.pdf#page=3)", Key{Path: raft, Page: 3}, "p. 3"}}},
		{"a [title](<papers/my paper/p.pdf#page=2> \"t\")", []found{{"[title](<papers/my paper/p.pdf#page=2> \"t\")", Key{Path: "papers/my paper/p.pdf", Page: 2}, "title"}}},
		{"bracketed [papers/raft/paper.pdf#page=8].", []found{{"[papers/raft/paper.pdf#page=8]", Key{Path: raft, Page: 8}, ""}}},
		{"angle <papers/raft/paper.pdf#page=4&amp;quote=a+b>", []found{{"<papers/raft/paper.pdf#page=4&amp;quote=a+b>", Key{Path: raft, Page: 4}, ""}}},
		{"bare papers/raft/paper.pdf#page=12&quote=Raft%20is and more", []found{{"papers/raft/paper.pdf#page=12&quote=Raft%20is", Key{Path: raft, Page: 12}, ""}}},
		{"(papers/raft/paper.pdf#page=2).", []found{{"papers/raft/paper.pdf#page=2", Key{Path: raft, Page: 2}, ""}}},
		{"whole file papers/raft/paper.pdf.", []found{{raft, Key{Path: raft}, ""}}},
		{"encoded papers%2Fraft%2Fpaper.pdf%23page%3D5", []found{{"papers%2Fraft%2Fpaper.pdf%23page%3D5", Key{Path: raft, Page: 5}, ""}}},
		{"scheme <agentero://papers/raft/paper.pdf#page=6>", []found{{"<agentero://papers/raft/paper.pdf#page=6>", Key{Path: raft, Page: 6}, ""}}},
		{"escaped papers/raft\\_2014/paper.pdf#page=1", []found{{"papers/raft\\_2014/paper.pdf#page=1", Key{Path: "papers/raft_2014/paper.pdf", Page: 1}, ""}}},
		{"doi HTTPS://DOI.ORG/10.1145/357172.357176)", []found{{"HTTPS://DOI.ORG/10.1145/357172.357176", Key{URL: "https://doi.org/10.1145/357172.357176"}, ""}}},
		{"[n](notes/a%20b.md) and [1] and [x](#top) and [y](agentero://open?vault=/v&ref=papers/a)", []found{{"[n](notes/a%20b.md)", Key{Path: "notes/a b.md"}, "n"}}},
		{"two: [a](papers/raft/paper.pdf#page=1), papers/raft/paper.pdf#page=2", []found{
			{"[a](papers/raft/paper.pdf#page=1)", Key{Path: raft, Page: 1}, "a"}, {"papers/raft/paper.pdf#page=2", Key{Path: raft, Page: 2}, ""}}},
		{"words that are not citations: terms. and/or 3/4 e.g. v1.2 ../x.pdf /etc/passwd.txt", nil},
		{"a paper's folder [papers/bitcoin] and “papers/raft/paper.pdf#page=3”", []found{
			{"[papers/bitcoin]", Key{Path: "papers/bitcoin"}, ""}, {"papers/raft/paper.pdf#page=3", Key{Path: raft, Page: 3}, ""}}},
		{"reference links [1] and [Raft][r], [r][].\n\n[1]: papers/raft/paper.pdf#page=6\n[R]: <papers/raft/paper.pdf#page=7> \"Raft\"\n", []found{
			{"[1]", Key{Path: raft, Page: 6}, "1"}, {"[Raft][r]", Key{Path: raft, Page: 7}, "Raft"}, {"[r][]", Key{Path: raft, Page: 7}, "r"}}},
		{"```\npapers/raft/paper.pdf#page=6\n```\n~~~\n[a](papers/raft/paper.pdf#page=2)\n~~~\nafter papers/raft/paper.pdf#page=9", []found{
			{"papers/raft/paper.pdf#page=9", Key{Path: raft, Page: 9}, ""}}},
		{"![figure](papers/raft/figure.png) [[1]](papers/raft/paper.pdf#page=1) [site](https://example.com/papers/a.pdf)", []found{
			{"[[1]](papers/raft/paper.pdf#page=1)", Key{Path: raft, Page: 1}, "[1]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var got []found
			for _, c := range Find(tt.text) {
				got = append(got, found{tt.text[c.Start:c.End], c.URI.Key(), c.Text})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Find (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzFind: whatever a text holds, Find neither panics nor reports a
// span outside it, and what it reports parses.
func FuzzFind(f *testing.F) {
	f.Add("see [p. 3](papers/raft/paper.pdf#page=3&quote=Raft%20is) and <papers/a/b.pdf> [c/d.pdf#page=2]")
	f.Add("[[[(((papers/x.pdf#page=1)))]]] <<<>>> \\[a](b/c.pdf)")
	f.Add("papers%2Fraft%2Fpaper.pdf%23page%3D5 HTTPS://DOI.ORG/10.1/x) agentero://p/a.pdf")
	f.Add("[a][1] [1]\n\n[1]: papers/a/b.pdf#page=0\n```\n[x](y.pdf)\n``` <agentero://open?ref=papers/a> [.agentero/x.db]")
	f.Fuzz(func(t *testing.T, text string) {
		prev := -1
		for _, c := range Find(text) {
			if c.Start < 0 || c.End > len(text) || c.Start >= c.End || c.Start < prev {
				t.Fatalf("span [%d, %d) in a text of %d bytes (after %d)", c.Start, c.End, len(text), prev)
			}
			prev = c.Start
			if !strings.Contains(text, c.Raw) {
				t.Errorf("raw %q is not in the text", c.Raw)
			}
			if _, err := Parse(c.URI.String()); err != nil {
				t.Errorf("found %+v does not parse back: %v", c.URI, err)
			}
		}
	})
}

// TestRead: what a text writes as a citation of the vault is read even
// when it does not open (Err), an agentero://open link is handed on as
// written (Link), and the spans of code and definitions are said.
func TestRead(t *testing.T) {
	text := "A [x](../../etc/passwd), [.agentero/index.sqlite], papers/raft/paper.pdf#page=0 and <agentero://open?vault=/v&amp;ref=papers/raft&amp;page=2>.\n" +
		"Not [a heading](#top), [mail](mailto:a@b.c), 1/2 or and/or.\n\n[1]: papers/raft/paper.pdf\n```\ncode\n```\n"
	type read struct {
		Span, Link string
		Bare, Err  bool
	}
	var got []read
	m := Read(text)
	for _, c := range m.Cited {
		got = append(got, read{text[c.Start:c.End], c.Link, c.Bare, c.Err != nil})
	}
	want := []read{
		{Span: "[x](../../etc/passwd)", Err: true},
		{Span: "[.agentero/index.sqlite]", Err: true},
		{Span: "papers/raft/paper.pdf#page=0", Bare: true, Err: true},
		{Span: "<agentero://open?vault=/v&amp;ref=papers/raft&amp;page=2>", Link: "agentero://open?vault=/v&ref=papers/raft&page=2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
	var code []string
	for _, c := range m.Code {
		code = append(code, text[c[0]:c[1]])
	}
	if diff := cmp.Diff([]string{"[1]: papers/raft/paper.pdf", "```\ncode\n```"}, code); diff != "" {
		t.Errorf("code (-want +got):\n%s", diff)
	}
	if f := Find(text); len(f) != 0 {
		t.Errorf("Find gave %d citations of a text whose citations do not parse", len(f))
	}
}
