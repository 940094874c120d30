package mcp_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/grant"
)

type cutT struct {
	Truncated  bool
	Part       string
	Remaining  string
	NextCursor string
	Next       *callT
	Note       string
}

// callT is the next call a cut result names.
type callT struct {
	Tool      string
	Arguments map[string]any
}

type textT struct {
	Ref, Path   string
	Page, Pages int
	PageLabel   string
	Section     string
	Matches     int
	Line        int
	Text        string
	CitationURI string
	cutT
}

type metaT struct {
	Ref, Title string
	Authors    []string
	DOI        string
	ArxivID    string
	Abstract   string
	Pages      int
	Health     struct {
		Status      string
		NoTextPages int
	}
	Outline []struct {
		Level int
		Title string
		Page  int
	}
	OutlineFrom string
	Files       []string
	CitationURI string
	cutT
}

type listT struct {
	Path    string
	Entries []string
	Total   int
	cutT
}

func TestReadPaper(t *testing.T) {
	g := usual()
	g.Allowed = append(g.Allowed, grant.Source{Kind: grant.KindPaper, Ref: flajolet}, grant.Source{Kind: grant.KindPaper, Ref: omega},
		grant.Source{Kind: grant.KindPaper, Ref: garbled})
	s := start(t, g)
	b := g.Budget

	t.Run("metadata is the default", func(t *testing.T) {
		var m metaT
		s.ok("context_read", map[string]any{"ref": attention}, &m)
		if m.Title != "Attention Is All You Need" || m.ArxivID != "1706.03762" || m.Pages != 15 || m.Health.Status != "ok" {
			t.Errorf("metadata = %+v", m)
		}
		if len(m.Outline) < 10 || m.Outline[0].Title != "1 Introduction" || m.Outline[0].Page != 1 {
			t.Errorf("outline = %+v", m.Outline)
		}
		if m.CitationURI != pdfOf(attention) {
			t.Errorf("citationUri = %q, want the PDF", m.CitationURI)
		}
		// no metadata.json: the abstract is the one page 1 prints
		if !strings.HasPrefix(m.Abstract, "The dominant sequence transduction models are based on") ||
			!strings.HasSuffix(m.Abstract, "both with large and limited training data.") {
			t.Errorf("abstract = %q, want page 1's", m.Abstract)
		}
	})

	t.Run("metadata lists the paper's text files", func(t *testing.T) {
		var m metaT
		s.ok("context_read", map[string]any{"ref": paxos, "mode": "metadata"}, &m)
		if diff := cmp.Diff([]string{paxos + "/NOTES.md"}, m.Files); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})

	t.Run("a scan without text says so", func(t *testing.T) {
		var m metaT
		s.ok("context_read", map[string]any{"ref": flajolet}, &m)
		if m.Health.Status != "no-text" || m.Health.NoTextPages != m.Pages || m.Pages != 28 {
			t.Errorf("health = %+v of %d pages, want no-text", m.Health, m.Pages)
		}
		var p textT
		s.ok("context_read", map[string]any{"ref": flajolet, "mode": "page", "page": 2}, &p)
		if p.Text != "" || !strings.Contains(p.Note, "no text layer") {
			t.Errorf("page of a scan: %+v", p)
		}
	})

	t.Run("a garbled text layer is not offered, and says why", func(t *testing.T) {
		var m metaT
		s.ok("context_read", map[string]any{"ref": garbled}, &m)
		if m.Health.Status != "garbled" || m.Health.NoTextPages != m.Pages {
			t.Errorf("health = %+v of %d pages, want garbled", m.Health, m.Pages)
		}
		var p textT
		s.ok("context_read", map[string]any{"ref": garbled, "mode": "page", "page": 1}, &p)
		if p.Text != "" || !strings.Contains(p.Note, "no readable text") || !strings.Contains(p.Note, "needs OCR") {
			t.Errorf("page of a garbled paper: %+v", p)
		}
	})

	t.Run("page", func(t *testing.T) {
		var p textT
		s.ok("context_read", map[string]any{"ref": raft, "mode": "page", "page": 5}, &p)
		if p.Page != 5 || p.Pages != 17 || p.PageLabel != "5" || p.Part != "page 5 of 17" || p.Truncated {
			t.Errorf("page 5: %+v", p.cutT)
		}
		if !strings.Contains(p.Text, "Election Safety") || p.CitationURI != pdfOf(raft)+"#page=5" {
			t.Errorf("page 5: citationUri %q, text %.80q", p.CitationURI, p.Text)
		}
	})

	t.Run("page labels are the printed numbers", func(t *testing.T) {
		var p textT
		s.ok("context_read", map[string]any{"ref": omega, "mode": "page", "page": 3}, &p)
		if p.PageLabel != "180" || p.CitationURI != pdfOf(omega)+"#page=3" {
			t.Errorf("page 3 of the journal article: label %q, uri %q; want printed 180 and physical page 3", p.PageLabel, p.CitationURI)
		}
	})

	t.Run("citation URI as ref", func(t *testing.T) {
		var p textT
		s.ok("context_read", map[string]any{"ref": pdfOf(raft) + "#page=4"}, &p)
		if p.Page != 4 || !strings.HasSuffix(p.CitationURI, "#page=4") {
			t.Errorf("page = %d, uri %q", p.Page, p.CitationURI)
		}
		var m metaT
		s.ok("context_read", map[string]any{"ref": pdfOf(raft)}, &m)
		if m.Ref != raft {
			t.Errorf("the PDF path reads paper %q", m.Ref)
		}
	})

	t.Run("page out of range", func(t *testing.T) {
		for _, page := range []any{0, -1, 18, 1 << 40, 3.5, "3"} {
			msg := s.fails("context_read", map[string]any{"ref": raft, "mode": "page", "page": page})
			if strings.Contains(msg, "papers/") {
				t.Errorf("page %v: error names a path: %q", page, msg)
			}
		}
		msg := s.fails("context_read", map[string]any{"ref": pdfOf(raft) + "#page=99"})
		if !strings.Contains(msg, "out of range") {
			t.Errorf("#page=99: %q", msg)
		}
	})

	t.Run("excerpt finds a quote whatever its case and spacing", func(t *testing.T) {
		quote := "LEADER   APPEND-ONLY: a leader\n never overwrites or deletes entries"
		var e textT
		s.ok("context_read", map[string]any{"ref": raft, "mode": "excerpt", "quote": quote}, &e)
		if e.Page != 5 || e.Matches < 1 || !strings.Contains(e.Text, "Leader Append-Only: a leader never overwrites") {
			t.Errorf("excerpt: page %d, matches %d, text %.200q", e.Page, e.Matches, e.Text)
		}
		if n := utf8.RuneCountInString(e.Text); n > b.ExcerptChars {
			t.Errorf("excerpt of %d characters, cap %d", n, b.ExcerptChars)
		}
		u, err := url.Parse("x:/" + e.CitationURI)
		if err != nil || !strings.HasPrefix(e.CitationURI, pdfOf(raft)+"#page=5&quote=") {
			t.Fatalf("citationUri %q", e.CitationURI)
		}
		frag, _ := url.ParseQuery(u.Fragment)
		if !strings.HasPrefix(frag.Get("quote"), "Leader Append-Only") {
			t.Errorf("quote in the URI = %q, want the document's words", frag.Get("quote"))
		}
		// The same through a citation URI with a quote.
		var c textT
		s.ok("context_read", map[string]any{"ref": e.CitationURI}, &c)
		if c.Page != 5 || c.Text != e.Text {
			t.Errorf("citation URI with quote read page %d", c.Page)
		}
		msg := s.fails("context_read", map[string]any{"ref": raft, "mode": "excerpt", "quote": "the moon is made of green cheese"})
		if !strings.Contains(msg, "not found") {
			t.Errorf("missing quote: %q", msg)
		}
		s.fails("context_read", map[string]any{"ref": raft, "mode": "excerpt"})
	})

	t.Run("section", func(t *testing.T) {
		var sec textT
		s.ok("context_read", map[string]any{"ref": attention, "mode": "section", "section": "model architecture"}, &sec)
		if sec.Section != "3 Model Architecture" || sec.Page != 2 || !strings.Contains(sec.Part, "pages 2–6 of 15") {
			t.Errorf("section: %q page %d part %q", sec.Section, sec.Page, sec.Part)
		}
		if !strings.HasPrefix(sec.Text, "[page 2]") || !strings.Contains(sec.Text, "Scaled Dot-Product Attention") {
			t.Errorf("section text: %.200q", sec.Text)
		}
		if n := utf8.RuneCountInString(sec.Text); n > b.FullChars {
			t.Errorf("section of %d characters, cap %d", n, b.FullChars)
		}
		s.fails("context_read", map[string]any{"ref": attention, "mode": "section", "section": "no such heading"})
	})

	// Paxos Made Simple has no outline: its sections are the headings on
	// its pages, read by title or number from the title to the next
	// section's start.
	t.Run("section of a paper without an outline", func(t *testing.T) {
		var m metaT
		s.ok("context_read", map[string]any{"ref": paxos}, &m)
		var titles []string
		for _, o := range m.Outline {
			titles = append(titles, fmt.Sprintf("%d %s", o.Page, o.Title))
		}
		want := []string{"2 Abstract", "3 Contents", "4 1 Introduction", "4 2 The Consensus Algorithm", "4 2.1 The Problem",
			"5 2.2 Choosing a Value", "9 2.3 Learning a Chosen Value", "10 2.4 Progress", "10 2.5 The Implementation",
			"11 3 Implementing a State Machine", "14 References"}
		if diff := cmp.Diff(want, titles); diff != "" || m.OutlineFrom != "headings" {
			t.Errorf("sections from %q (-want +got):\n%s", m.OutlineFrom, diff)
		}

		for _, tt := range []struct {
			ask, title  string
			page        int
			part        string
			has, hasNot []string
		}{
			{"2.2", "2.2 Choosing a Value", 5, "pages 5–9 of 14", []string{"The easiest way to choose", "[page 9]", "does not affect correctness."},
				[]string{"2.1 The Problem", "A consensus algorithm ensures", "2.3 Learning a Chosen Value", "a learner must find out"}},
			{"Section 3", "3 Implementing a State Machine", 11, "pages 11–14 of 14", []string{"sophisticated reconfiguration algorithm."},
				[]string{"with a higher proposal number than any it has already", "References", "Michael J. Fischer"}},
			{"consensus algorithm", "2 The Consensus Algorithm", 4, "pages 4–11 of 14", []string{"2.1 The Problem", "2.5 The Implementation"},
				[]string{"1 Introduction", "3 Implementing a State Machine"}},
		} {
			var sec textT
			s.ok("context_read", map[string]any{"ref": paxos, "mode": "section", "section": tt.ask}, &sec)
			if sec.Section != tt.title || sec.Page != tt.page || !strings.Contains(sec.Part+sec.Remaining, tt.part) && sec.Truncated {
				t.Errorf("%q: section %q page %d part %q, want %q page %d", tt.ask, sec.Section, sec.Page, sec.Part, tt.title, tt.page)
			}
			if !strings.HasPrefix(sec.Text, fmt.Sprintf("[page %d]\n%s", tt.page, tt.title)) {
				t.Errorf("%q: text begins %.80q, want the title first", tt.ask, sec.Text)
			}
			for _, h := range tt.has {
				if !strings.Contains(sec.Text, h) {
					t.Errorf("%q: text lacks %q", tt.ask, h)
				}
			}
			for _, h := range tt.hasNot {
				if h != "" && strings.Contains(sec.Text, h) {
					t.Errorf("%q: text holds %q, which is not in the section", tt.ask, h)
				}
			}
		}

		var found searchT
		s.ok("context_search", map[string]any{"query": "proposer chooses a new proposal number", "limit": 1}, &found)
		if len(found.Cards) == 0 || found.Cards[0].Ref != paxos || found.Cards[0].Section != "2.2 Choosing a Value" {
			t.Errorf("search cards %+v: want paxos's first card in section 2.2 Choosing a Value", found.Cards)
		}
	})

	t.Run("region", func(t *testing.T) {
		var top, low struct {
			Text        string
			Page        int
			CitationURI string
		}
		// The band across the top of Raft's first page holds its title.
		s.ok("context_read", map[string]any{"ref": raft, "mode": "region", "page": 1,
			"region": map[string]any{"x": 0, "y": 0, "width": 612, "height": 130}}, &top)
		if !strings.Contains(top.Text, "Understandable Consensus Algorithm") || top.Page != 1 || top.CitationURI != pdfOf(raft)+"#page=1" {
			t.Errorf("title band = %+v", top)
		}
		s.ok("context_read", map[string]any{"ref": raft, "mode": "region", "page": 1,
			"region": map[string]any{"x": 0, "y": 500, "width": 612, "height": 200}}, &low)
		if low.Text == "" || strings.Contains(low.Text, "Understandable Consensus Algorithm") {
			t.Errorf("lower band = %.200q", low.Text)
		}
		s.fails("context_read", map[string]any{"ref": raft, "mode": "region", "page": 1})
		s.fails("context_read", map[string]any{"ref": raft, "mode": "region", "page": 1,
			"region": map[string]any{"x": -1, "y": 0, "width": 1, "height": 1}})
	})

	t.Run("unknown mode", func(t *testing.T) {
		msg := s.fails("context_read", map[string]any{"ref": raft, "mode": "everything"})
		if !strings.Contains(msg, "unknown mode") || strings.Contains(msg, "everything") {
			t.Errorf("unknown mode: %q", msg)
		}
	})
}

// TestReadFull reads a whole paper through nextCursor, and checks each call
// keeps to the cap and says which part it is.
func TestReadFull(t *testing.T) {
	b := grant.DefaultBudget()
	b.FullChars, b.TurnChars = 9000, 400000
	s := start(t, grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: raft}))
	var all strings.Builder
	var r textT
	s.ok("context_read", map[string]any{"ref": raft, "mode": "full"}, &r)
	first := r
	for calls := 1; ; calls++ {
		if n := utf8.RuneCountInString(r.Text); n > b.FullChars {
			t.Errorf("call %d: %d characters, cap %d", calls, n, b.FullChars)
		}
		if !strings.Contains(r.Part, "of 17, chars ") {
			t.Errorf("call %d: part %q", calls, r.Part)
		}
		if !strings.HasSuffix(r.CitationURI, fmt.Sprintf("#page=%d", r.Page)) {
			t.Errorf("call %d: citationUri %q for page %d", calls, r.CitationURI, r.Page)
		}
		all.WriteString(r.Text)
		if r.NextCursor == "" {
			break
		}
		if !r.Truncated || calls > 40 {
			t.Fatalf("call %d: cursor without truncated, or no end: %+v", calls, r.cutT)
		}
		cursor := r.NextCursor
		r = textT{}
		s.ok("context_read", map[string]any{"ref": raft, "mode": "full", "cursor": cursor}, &r)
	}
	if !first.Truncated || !strings.HasPrefix(first.Part, "pages 1–") || first.Page != 1 {
		t.Errorf("first call: %+v", first.cutT)
	}
	text := all.String()
	if !strings.Contains(text, "[page 17]") || !strings.Contains(text, "[page 9]") {
		t.Error("the joined reads miss page headers")
	}
	var total int
	fmt.Sscanf(first.Part[strings.LastIndex(first.Part, " of ")+4:], "%d", &total)
	if n := utf8.RuneCountInString(text); n != total {
		t.Errorf("the reads hold %d characters; the paper has %d", n, total)
	}
	// A cursor belongs to its request.
	s.fails("context_read", map[string]any{"ref": raft, "mode": "page", "page": 2, "cursor": first.NextCursor})
}

func TestReadFilesAndDirectories(t *testing.T) {
	b := grant.DefaultBudget()
	b.FullChars, b.DirEntries = 5000, 12
	g := grantOf(b, grant.Source{Kind: grant.KindDirectory, Ref: "notes/consensus"}, grant.Source{Kind: grant.KindPaper, Ref: paxos})
	s := start(t, g)

	t.Run("directory lists one level of readable names", func(t *testing.T) {
		var l listT
		s.ok("context_read", map[string]any{"ref": "notes/consensus"}, &l)
		want := []string{"README", "blob.dat", "deep/", "dir-many/", "inside.md", "long.md", "raft.md"}
		if diff := cmp.Diff(want, l.Entries); diff != "" {
			t.Errorf("entries (-want +got):\n%s", diff)
		}
		if l.Truncated {
			t.Errorf("a short listing says truncated: %+v", l.cutT)
		}
	})

	t.Run("long directory pages with a cursor", func(t *testing.T) {
		var names []string
		var l listT
		s.ok("context_read", map[string]any{"ref": "notes/consensus/dir-many"}, &l)
		for calls := 1; ; calls++ {
			if len(l.Entries) > b.DirEntries {
				t.Errorf("call %d: %d entries, cap %d", calls, len(l.Entries), b.DirEntries)
			}
			if !l.Truncated || !strings.Contains(l.Part, "of 30") {
				t.Errorf("call %d: %+v", calls, l.cutT)
			}
			names = append(names, l.Entries...)
			if l.NextCursor == "" || calls > 10 {
				break
			}
			cursor := l.NextCursor
			l = listT{}
			s.ok("context_read", map[string]any{"ref": "notes/consensus/dir-many", "cursor": cursor}, &l)
		}
		if len(names) != 30 || names[0] != "n00.md" || names[29] != "n29.md" {
			t.Errorf("listed %d names: %v", len(names), names)
		}
		s.fails("context_read", map[string]any{"ref": "notes/consensus/dir-many", "mode": "page", "page": 1})
	})

	t.Run("file", func(t *testing.T) {
		for _, p := range []string{"notes/consensus/raft.md", "notes/consensus/README", "notes/consensus/inside.md", "notes/consensus/deep/more.md", paxos + "/NOTES.md"} {
			var r textT
			s.ok("context_read", map[string]any{"ref": p}, &r)
			want, _ := os.ReadFile(filepath.Join(vaultDir, filepath.FromSlash(p)))
			if r.Text != string(want) || r.Path != p || r.CitationURI != p || r.Truncated {
				t.Errorf("%s: %+v", p, r)
			}
		}
		msg := s.fails("context_read", map[string]any{"ref": "notes/consensus/blob.dat"})
		if !strings.Contains(msg, "not a text file") {
			t.Errorf("binary file: %q", msg)
		}
		s.fails("context_read", map[string]any{"ref": "notes/consensus/raft.md", "mode": "page", "page": 1})
		s.fails("context_read", map[string]any{"ref": "notes/consensus/raft.md#page=1"})
	})

	t.Run("long file through cursors", func(t *testing.T) {
		want, _ := os.ReadFile(filepath.Join(vaultDir, "notes", "consensus", "long.md"))
		var got strings.Builder
		var r textT
		s.ok("context_read", map[string]any{"ref": "notes/consensus/long.md"}, &r)
		for calls := 1; ; calls++ {
			if n := utf8.RuneCountInString(r.Text); n > b.FullChars {
				t.Errorf("call %d: %d characters, cap %d", calls, n, b.FullChars)
			}
			got.WriteString(r.Text)
			if r.NextCursor == "" || calls > 20 {
				break
			}
			if !r.Truncated || !strings.HasPrefix(r.Part, "chars ") {
				t.Errorf("call %d: %+v", calls, r.cutT)
			}
			cursor := r.NextCursor
			r = textT{}
			s.ok("context_read", map[string]any{"ref": "notes/consensus/long.md", "cursor": cursor}, &r)
		}
		if got.String() != string(want) {
			t.Errorf("reassembled %d characters, the file has %d", got.Len(), len(want))
		}
	})

	t.Run("file excerpt", func(t *testing.T) {
		var r textT
		s.ok("context_read", map[string]any{"ref": "notes/consensus/raft.md", "mode": "excerpt", "quote": "RANDOMIZED timeouts"}, &r)
		if r.Line != 1 || !strings.Contains(r.Text, "randomized timeouts") || r.CitationURI != "notes/consensus/raft.md" {
			t.Errorf("file excerpt: %+v", r)
		}
	})
}
