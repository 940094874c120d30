package citation

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want URI
	}{
		{"papers/raft/paper.pdf", URI{Path: "papers/raft/paper.pdf"}},
		{"papers/raft/paper.pdf#page=6", URI{Path: "papers/raft/paper.pdf", Page: 6}},
		{" papers/raft/paper.pdf#page=6&quote=election+timeouts ", URI{Path: "papers/raft/paper.pdf", Page: 6, Quote: "election timeouts"}},
		{"papers/raft/paper.pdf#page=6&quote=150%E2%80%93300%20ms%2B", URI{Path: "papers/raft/paper.pdf", Page: 6, Quote: "150–300 ms+"}},
		{"papers/raft/paper.pdf#page=8&label=iv&quote=x", URI{Path: "papers/raft/paper.pdf", Page: 8, Label: "iv", Quote: "x"}},
		{"papers/raft/paper.pdf#page=8&label=8", URI{Path: "papers/raft/paper.pdf", Page: 8}},
		{"papers/my%20paper/paper%23 1.pdf#page=2", URI{Path: "papers/my paper/paper# 1.pdf", Page: 2}},
		{"papers/zürich/paper.pdf#page=1", URI{Path: "papers/zürich/paper.pdf", Page: 1}},
		{"notes/raft.md", URI{Path: "notes/raft.md"}},
		{"https://doi.org/10.1145/2815400.2815428", URI{URL: "https://doi.org/10.1145/2815400.2815428"}},
		{"https://arxiv.org/abs/1706.03762", URI{URL: "https://arxiv.org/abs/1706.03762"}},
	} {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{
		"", "/etc/passwd", "~/x.pdf", "../x.pdf", "papers/../../x.pdf", "papers/%2e%2e/x.pdf", "papers/a%2Fb.pdf",
		".agentero/index.sqlite", "papers/.hidden/x.pdf", "papers\\x.pdf", "papers//x.pdf", "./papers/x.pdf",
		"papers/x.pdf#", "papers/x.pdf#page=0", "papers/x.pdf#page=-1", "papers/x.pdf#page=06", "papers/x.pdf#page=1e3",
		"papers/x.pdf#page=100001", "papers/x.pdf#page=1&page=2", "papers/x.pdf#zoom=2", "papers/x.pdf#page",
		"papers/x.pdf#quote=%zz", "papers/x%zz.pdf", "papers/x\x00.pdf", "papers/x.pdf\n#page=1",
		"file:///etc/passwd", "http://doi.org/10.1/x", "https://evil.example/x", "agentero://open?vault=/v&ref=papers/a",
		"javascript:alert(1)", "https://doi.org/", "https://doi.org/10.1/a b",
		"papers/x.pdf#quote=" + strings.Repeat("a", MaxQuote+1),
	} {
		if u, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, u)
		} else if !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q): %v does not wrap ErrInvalid", in, err)
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		u    URI
		want string
	}{
		{New("papers/raft/paper.pdf", 0, ""), "papers/raft/paper.pdf"},
		{New("papers/raft/paper.pdf", 6, ""), "papers/raft/paper.pdf#page=6"},
		{New("papers/raft/paper.pdf", 6, "election timeouts"), "papers/raft/paper.pdf#page=6&quote=election+timeouts"},
		{URI{Path: "papers/raft/paper.pdf", Page: 8, Label: "iv"}, "papers/raft/paper.pdf#page=8&label=iv"},
		{URI{Path: "papers/a (2020)/my paper#1.pdf", Page: 1}, "papers/a%20%282020%29/my%20paper%231.pdf#page=1"},
		{URI{URL: "https://doi.org/10.1/x"}, "https://doi.org/10.1/x"},
	} {
		if got := tc.u.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.u, got, tc.want)
		}
	}
}

func TestOpening(t *testing.T) {
	got := Opening("one two three four five six seven eight nine ten eleven twelve")
	if got != "one two three four five six seven eight nine ten" {
		t.Errorf("Opening = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"papers/raft/paper.pdf#page=6&quote=a+b", "papers/a%20b/x.pdf#label=iv", "https://doi.org/10.1/x", "../x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		if err != nil {
			return
		}
		if u.URL == "" && (strings.HasPrefix(u.Path, "/") || strings.Contains("/"+u.Path+"/", "/../") || strings.Contains("/"+u.Path, "/.")) {
			t.Fatalf("Parse(%q) = %+v: a path outside the vault or hidden", s, u)
		}
		back, err := Parse(u.String())
		if err != nil {
			t.Fatalf("Parse(%q) of %q: %v", u.String(), s, err)
		}
		if diff := cmp.Diff(u, back); diff != "" {
			t.Fatalf("round trip of %q via %q (-first +second):\n%s", s, u.String(), diff)
		}
	})
}
