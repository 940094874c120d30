package quote

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A two-column page as PDFium reads it: the left column, a figure caption
// set between the columns, then the right column; the running head of the
// next page, then its text.
const (
	left = "Raft uses randomized election timeouts to ensure that split votes are rare\n" +
		"and that they are resolved quickly. To prevent split votes in the first\n" +
		"place, election timeouts are chosen randomly from a fixed interval (e.g.,\n" +
		"150–300ms). This spreads out the servers so that in most cases only a\n" +
		"single server will time out; it wins the election and sends heart-\n" +
		"beats before any other servers time out. The same mechanism is used\n" +
		"to handle split votes. Each candidate restarts its ran-\n"
	caption = "Figure 5: Time is divided into terms, and each term begins\nwith an election.\n"
	right   = "domized election timeout at the start of an election, and\n" +
		"it waits for that timeout to elapse before starting the next election;\n" +
		"this reduces the likelihood of another split vote in the new election.\n" +
		"Section 9.3 shows that this approach elects a leader rapidly. The\n" +
		"ﬁnal step is to wait for the “leader” to com-\nmit the entry."
	nextPage = "In Search of an Understandable Consensus Algorithm 7\n" +
		"elections are also used to recover from the failure of a leader."
)

func paper() *Paper {
	return NewPaper([]Page{
		{Number: 6, Text: left + caption + right},
		{Number: 7, Text: nextPage},
	})
}

func TestFind(t *testing.T) {
	p := paper()
	for _, tc := range []struct {
		name, quote string
		page        int
		want        string // the page's words for the match; "" when not found
		pieces      int
	}{
		{"verbatim", "election timeouts are chosen randomly from a fixed interval", 6,
			"election timeouts are chosen randomly from a fixed interval", 1},
		{"case, spaces, dashes", "Election  timeouts are chosen RANDOMLY from a fixed interval (e.g., 150-300 ms)", 6,
			"election timeouts are chosen randomly from a fixed interval (e.g., 150–300ms", 1},
		{"hyphenated at a line end", "sends heartbeats before any other servers time out", 6,
			"sends heart- beats before any other servers time out", 1},
		{"ligature and curly quotes", `The final step is to wait for the "leader" to commit the entry`, 6,
			"The ﬁnal step is to wait for the “leader” to com- mit the entry", 1},
		{"across the figure between the columns", "Each candidate restarts its randomized election timeout at the start of an election", 6,
			"Each candidate restarts its ran domized election timeout at the start of an election", 2},
		{"onto the next page", "the likelihood of another split vote in the new election. Section 9.3 shows that this approach elects a leader rapidly. The final step is to wait for the leader to commit the entry. Elections are also used to recover", 6,
			"the likelihood of another split vote in the new election. Section 9.3 shows that this approach elects a leader rapidly. The ﬁnal step is to wait for the “leader” to com- mit the entry elections are also used to recover", 2},
		{"with an ellipsis", "Raft uses randomized election timeouts … in most cases only a single server will time out", 6,
			"Raft uses randomized election timeouts in most cases only a single server will time out", 2},
		{"changed number", "chosen randomly from a fixed interval (e.g., 150–350ms)", 6, "", 0},
		{"changed decimal", "Section 93 shows that this approach", 6, "", 0},
		{"a word left out", "election timeouts are chosen from a fixed interval", 6, "", 0},
		{"starts on the next page", "elections are also used to recover from the failure", 6, "", 0},
		{"too short", "Raft uses", 6, "", 0},
		{"no such page", "election timeouts are chosen randomly", 9, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := p.Find(tc.page, tc.quote)
			if tc.want == "" {
				if ok {
					t.Fatalf("found %q; want not found", p.Text(m))
				}
				return
			}
			if !ok {
				t.Fatal("not found")
			}
			if got := p.Text(m); got != tc.want {
				t.Errorf("text:\n got %q\nwant %q", got, tc.want)
			}
			if m.Pieces != tc.pieces {
				t.Errorf("pieces = %d, want %d", m.Pieces, tc.pieces)
			}
		})
	}
}

func TestSearch(t *testing.T) {
	p := paper()
	got := p.Search("elections are also used to recover from the failure of a leader")
	if len(got) != 1 || got[0].Page != 7 {
		t.Fatalf("Search = %+v, want one match on page 7", got)
	}
	if got := p.Search("a passage that no page holds at all"); len(got) != 0 {
		t.Errorf("Search found %+v", got)
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Éclair ﬁnd":      "eclairfind",
		"3.5 % of 1,000":  "3.5of1000",
		"end. Next":       "endnext",
		"con-\nsensus":    "consensus",
		"“quoted” — dash": "quoteddash",
		"straße":          "strasse",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRects(t *testing.T) {
	// "ab cd" on one line, then "ef" on the next; the space and the line
	// break have no box.
	boxes := []Rect{
		{10, 100, 15, 110}, {15, 100, 20, 110}, {}, {22, 100, 27, 110}, {27, 100, 32, 110}, {},
		{10, 112, 15, 122}, {15, 112, 20, 122},
	}
	got := Rects(boxes, 1, 8)
	want := []Rect{{15, 100, 32, 110}, {10, 112, 20, 122}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rects (-want +got):\n%s", diff)
	}
	// A jump to another column is a new rectangle even on the same line.
	boxes = []Rect{{10, 100, 15, 110}, {300, 100, 305, 110}}
	if got := Rects(boxes, 0, 2); len(got) != 2 {
		t.Errorf("Rects across columns = %v, want 2 rectangles", got)
	}
}

// FuzzFind: whatever the page and the quote, Find does not fail, and what
// it finds is the quote: its spans lie in the pages' texts, and their
// folded text is the quote's.
func FuzzFind(f *testing.F) {
	f.Add(left+caption+right, nextPage, "Each candidate restarts its randomized election timeout")
	f.Add("a-\nb c\n\nd", "e f", "ab c d e f")
	f.Add("ﬁ 3.5 … x", "", "fi 3.5 ... x")
	f.Fuzz(func(t *testing.T, page, next, q string) {
		p := NewPaper([]Page{{Number: 1, Text: page}, {Number: 2, Text: next}})
		m, ok := p.Find(1, q)
		if !ok {
			return
		}
		texts := map[int][]rune{1: []rune(page), 2: []rune(next)}
		for _, s := range m.Spans {
			if s.From < 0 || s.From >= s.To || s.To > len(texts[s.Page]) {
				t.Fatalf("span %+v outside page %d of %d runes", s, s.Page, len(texts[s.Page]))
			}
		}
		var folded []string
		for _, seg := range segments(q) {
			folded = append(folded, seg)
		}
		if got, want := Fold(p.Text(m)), strings.Join(folded, ""); got != want {
			t.Fatalf("found %q for the quote %q", got, want)
		}
	})
}

// TestFoldIsFoldsText checks that Fold, which skips the positions, folds
// as fold does.
func TestFoldIsFoldsText(t *testing.T) {
	for _, s := range []string{
		"", "\n", "Consensus", "con-\nsensus", "ﬁne ﬂow Æsop", "café naïve Ångström", "3.5 vs 3. 5 and .5 a.b",
		"x = 3.14159\n2.\n7", "Straße ǅ Σίσυφος ‹HJI?KLGM›", "αβγ 日本語 ١٢٣", "e\u0301t\u0308e", "Vaswani∗ Peng1∗ ¹²",
		"end.\nNext line 4.2 starts", "TABLE II: Results (%) — 12.5±0.3",
	} {
		if got, want := Fold(s), fold(s).s; got != want {
			t.Errorf("Fold(%q) = %q, fold: %q", s, got, want)
		}
	}
}

func FuzzFold(f *testing.F) {
	f.Add("ﬁne 3.5 con-\nsensus café")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), fold(s).s; got != want {
			t.Errorf("Fold(%q) = %q, fold: %q", s, got, want)
		}
	})
}
