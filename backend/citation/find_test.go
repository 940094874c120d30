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
	f.Fuzz(func(t *testing.T, text string) {
		prev := -1
		for _, c := range Find(text) {
			if c.Start < 0 || c.End > len(text) || c.Start >= c.End || c.Start < prev {
				t.Fatalf("span [%d, %d) in a text of %d bytes (after %d)", c.Start, c.End, len(text), prev)
			}
			prev = c.Start
			if !strings.Contains(text[c.Start:c.End], c.Raw) {
				t.Errorf("raw %q is not in its span %q", c.Raw, text[c.Start:c.End])
			}
			if _, err := Parse(c.URI.String()); err != nil {
				t.Errorf("found %+v does not parse back: %v", c.URI, err)
			}
		}
	})
}
