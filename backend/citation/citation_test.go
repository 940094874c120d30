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
		{"papers/raft/paper.pdf#page=3&region=72,96.5,230,180", URI{Path: "papers/raft/paper.pdf", Page: 3, Region: Region{72, 96.5, 230, 180}}},
		{"papers/raft/paper.pdf#region=0,0,10.0,20&page=3&quote=a", URI{Path: "papers/raft/paper.pdf", Page: 3, Quote: "a", Region: Region{0, 0, 10, 20}}},
		// A region that can lie on no page, or on no page named, is dropped; the page stays cited.
		{"papers/raft/paper.pdf#page=3&region=14000,0,401,20", URI{Path: "papers/raft/paper.pdf", Page: 3}},
		{"papers/raft/paper.pdf#page=3&region=10,10,0,20", URI{Path: "papers/raft/paper.pdf", Page: 3}},
		{"papers/raft/paper.pdf#region=10,10,20,20", URI{Path: "papers/raft/paper.pdf"}},
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
		"papers/x.pdf#page=1&region=1,2,3", "papers/x.pdf#page=1&region=1,2,3,4,5", "papers/x.pdf#page=1&region=-1,2,3,4",
		"papers/x.pdf#page=1&region=1e3,2,3,4", "papers/x.pdf#page=1&region=1,2,3,NaN", "papers/x.pdf#page=1&region=1.25,2,3,4",
		"papers/x.pdf#page=1&region=1,2,3,4&region=1,2,3,4", "papers/x.pdf#page=1&region=", "papers/x.pdf#page=1&region=1%2C2%2C3%2C4",
		"papers/x.pdf#page=1&region=123456,2,3,4",
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
		{New("papers/raft/paper.pdf", 3, "a b").WithRegion(Region{72.04, 96.45, 230, 180.333}), "papers/raft/paper.pdf#page=3&region=72,96.5,230,180.3&quote=a+b"},
		{New("papers/raft/paper.pdf", 0, "").WithRegion(Region{1, 2, 3, 4}), "papers/raft/paper.pdf"},
		{New("papers/raft/paper.pdf", 2, "").WithRegion(Region{-5, 2, 3, 4}), "papers/raft/paper.pdf#page=2"},
	} {
		if got := tc.u.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.u, got, tc.want)
		}
	}
}

func TestRegionOnPage(t *testing.T) {
	letter := func(r Region) URI { return New("papers/a/a.pdf", 2, "").WithRegion(r) }
	for _, tc := range []struct {
		name string
		r    Region
		keep bool
	}{
		{"inside", Region{72, 90, 300, 200}, true},
		{"to the edge, overrun by its stroke", Region{0, 0, 612.5, 792}, true},
		{"past the right edge", Region{400, 90, 300, 200}, false},
		{"below the page", Region{72, 700, 300, 200}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := letter(tc.r).OnPage(612, 792)
			if kept := !got.Region.IsZero(); kept != tc.keep {
				t.Errorf("OnPage(612×792) of %+v kept the region: %v, want %v", tc.r, kept, tc.keep)
			}
			if got.Page != 2 || got.Path != "papers/a/a.pdf" {
				t.Errorf("OnPage changed what is cited: %+v", got)
			}
		})
	}
	if a, b := letter(Region{1, 2, 3, 4}).Key(), New("papers/a/a.pdf", 2, "").Key(); a != b {
		t.Errorf("a region changes the key: %+v != %+v", a, b)
	}
}

func TestOpening(t *testing.T) {
	got := Opening("one two three four five six seven eight nine ten eleven twelve")
	if got != "one two three four five six seven eight nine ten" {
		t.Errorf("Opening = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"papers/raft/paper.pdf#page=6&quote=a+b", "papers/a/a.pdf#page=2&region=1.5,2,30,40", "papers/a%20b/x.pdf#label=iv", "https://doi.org/10.1/x", "../x"} {
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
