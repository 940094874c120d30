// Package quote is the one locator of Agentero: it finds a quote on a page
// of a paper, and where on the page it is. The MCP servers' quote reads,
// the host's sources, the claim check, the built-in agent, search hits,
// exports, agentero:// links and the viewer's highlight all find quotes
// here, so that a passage one of them finds is the passage the others mark.
//
// A quote and its page are compared folded (see Fold): case, diacritics,
// ligatures, white space, punctuation, typographic quotes and dashes, and
// hyphenation at line ends do not matter. A quote whose text is not one run
// of the page's text is still found when it breaks only where lines break:
// at a column's end, where a figure or a footnote sits between its halves,
// or at the end of the page, running onto the next one. Then it is found
// in pieces, each ending a line and the next beginning one.
//
// It reads no files: callers hand it page texts (the index's), and, for the
// rectangles a viewer draws, the page's character boxes (package pdf).
package quote

import (
	"strings"
	"unicode/utf8"
)

// Page is one page of a paper: its physical number and its text as the
// index holds it.
type Page struct {
	Number int
	Text   string
}

// Span is a part of a found quote: the runes [From, To) of a page's Text.
type Span struct {
	Page     int `json:"page"`
	From, To int
}

// Match is where a quote is: the page it starts on and its spans there (and
// on the next page when it runs over), in the quote's order.
type Match struct {
	Page   int
	Spans  []Span
	Pieces int // runs of page text the quote was found in; 1 when it is one
}

// Limits of finding.
const (
	// MinQuote is the fewest folded letters and digits a quote needs to be
	// looked for: fewer match all over a page.
	MinQuote = 12
	// minPiece is the fewest a piece of a quote found in pieces may hold,
	// but for its last.
	minPiece = 8
	// minLast is the fewest the last piece may hold: a word or two that
	// begins the next column or page.
	minLast = 3
	// maxPieces is the most pieces one quote is found in.
	maxPieces = 4
)

// Paper is the pages of one paper, folded once for any number of quotes.
// It is not safe for concurrent use.
type Paper struct {
	pages  []Page
	folded []*folded
}

// NewPaper prepares pages (in order, numbered) for finding quotes.
func NewPaper(pages []Page) *Paper {
	return &Paper{pages: pages, folded: make([]*folded, len(pages))}
}

// Pages is the paper's pages.
func (p *Paper) Pages() []Page { return p.pages }

func (p *Paper) index(number int) int {
	for i, pg := range p.pages {
		if pg.Number == number {
			return i
		}
	}
	return -1
}

func (p *Paper) fold(i int) *folded {
	if p.folded[i] == nil {
		f := fold(p.pages[i].Text)
		p.folded[i] = &f
	}
	return p.folded[i]
}

// Find looks for q starting on page number (running onto the next page
// when it goes over); false when it is not there or is too short to look
// for.
func (p *Paper) Find(number int, q string) (Match, bool) {
	i := p.index(number)
	if i < 0 {
		return Match{}, false
	}
	segs := segments(q)
	if len(segs) == 0 {
		return Match{}, false
	}
	h := p.haystack(i)
	var m Match
	m.Page = number
	for k, seg := range segs {
		pieces, ok := h.find(seg, k == 0)
		if !ok {
			return Match{}, false
		}
		m.Pieces += len(pieces)
		for _, pc := range pieces {
			m.Spans = append(m.Spans, h.spans(pc)...)
		}
	}
	return m, true
}

// Search looks for q on every page, and returns a match for each page it
// starts on, in page order.
func (p *Paper) Search(q string) []Match {
	var out []Match
	if len(segments(q)) == 0 {
		return out
	}
	first := Fold(firstSegment(q))
	for _, pg := range p.pages {
		// A quick look first: a page (with the next) that lacks the
		// quote's opening letters cannot start it.
		i := p.index(pg.Number)
		if !strings.Contains(p.fold(i).s, first[:min(len(first), minPiece)]) {
			continue
		}
		if m, ok := p.Find(pg.Number, q); ok {
			out = append(out, m)
		}
	}
	return out
}

// Text is the page's own text of a match: its spans' text with white space
// collapsed, joined by spaces.
func (p *Paper) Text(m Match) string {
	var parts []string
	for _, s := range m.Spans {
		i := p.index(s.Page)
		if i < 0 {
			continue
		}
		r := []rune(p.pages[i].Text)
		if s.From < 0 || s.To > len(r) || s.From >= s.To {
			continue
		}
		parts = append(parts, strings.Join(strings.Fields(string(r[s.From:s.To])), " "))
	}
	return strings.Join(parts, " ")
}

// Find is Paper.Find for one page and the page after it (nil when none).
func Find(page Page, next *Page, q string) (Match, bool) {
	pages := []Page{page}
	if next != nil {
		pages = append(pages, *next)
	}
	return NewPaper(pages).Find(page.Number, q)
}

// segments are the parts of a quote cut by ellipses ("…", "...", "[…]"),
// folded, each long enough to look for; none when the quote is too short.
func segments(q string) []string {
	var out []string
	total := 0
	for _, part := range splitEllipses(q) {
		f := Fold(part)
		total += len(f)
		if len(f) >= minPiece {
			out = append(out, f)
		}
	}
	if total < MinQuote {
		return nil
	}
	return out
}

func firstSegment(q string) string {
	for _, part := range splitEllipses(q) {
		if len(Fold(part)) >= minPiece {
			return part
		}
	}
	return q
}

func splitEllipses(q string) []string {
	q = strings.NewReplacer("[…]", "…", "[...]", "…", "(…)", "…", "(...)", "…", "...", "…").Replace(q)
	return strings.Split(q, "…")
}

// haystack is page i folded, followed by the next page folded, so that a
// quote may run over.
type haystack struct {
	s           string
	pos         []int
	start, end  []bool
	page        []int // for each byte: its page's number
	first       int   // bytes of the first page
	firstNumber int
}

func (p *Paper) haystack(i int) haystack {
	a := p.fold(i)
	h := haystack{s: a.s, pos: a.pos, start: a.start, end: a.end, first: len(a.s), firstNumber: p.pages[i].Number}
	if i+1 < len(p.pages) {
		b := p.fold(i + 1)
		h.s += b.s
		h.pos = append(append([]int(nil), a.pos...), b.pos...)
		h.start = append(append([]bool(nil), a.start...), b.start...)
		h.end = append(append([]bool(nil), a.end...), b.end...)
		h.page = make([]int, len(h.s))
		for k := range h.page {
			if k < len(a.s) {
				h.page[k] = p.pages[i].Number
			} else {
				h.page[k] = p.pages[i+1].Number
			}
		}
	}
	return h
}

func (h haystack) pageAt(b int) int {
	if h.page == nil {
		return h.firstNumber
	}
	return h.page[b]
}

// piece is a run of the haystack's bytes [from, to).
type piece struct{ from, to int }

// find finds a folded segment in the haystack: as one run, or in pieces
// that break where lines break. With onFirst the segment must start on
// the first page.
func (h haystack) find(seg string, onFirst bool) ([]piece, bool) {
	limit := len(h.s)
	if onFirst {
		limit = h.first
	}
	if i := strings.Index(h.s, seg); i >= 0 && i < limit {
		return []piece{{i, i + len(seg)}}, true
	}
	var pieces []piece
	rest := seg
	used := func(b int) bool {
		for _, pc := range pieces {
			if b >= pc.from && b < pc.to {
				return true
			}
		}
		return false
	}
	for len(pieces) < maxPieces && rest != "" {
		best, bestLen, whole := -1, 0, false
		from, to := 0, len(h.s)
		if len(pieces) == 0 {
			to = limit
		}
		for s := from; s < to; s++ {
			if h.s[s] != rest[0] || used(s) {
				continue
			}
			if len(pieces) > 0 && !h.start[s] {
				continue
			}
			n := lcp(h.s[s:], rest)
			if n == len(rest) && (len(pieces) > 0 || n >= minPiece) {
				if n >= minLast && (!whole || nearer(s, best, pieces)) {
					best, bestLen, whole = s, n, true
				}
				continue
			}
			if whole {
				continue
			}
			c := cutAtLineEnd(h, s, n)
			if c >= minPiece && (c > bestLen || c == bestLen && nearer(s, best, pieces)) {
				best, bestLen = s, c
			}
		}
		if best < 0 {
			return nil, false
		}
		pieces = append(pieces, piece{best, best + bestLen})
		rest = rest[bestLen:]
	}
	return pieces, rest == ""
}

// nearer reports whether s follows the last piece more closely than best.
func nearer(s, best int, pieces []piece) bool {
	if best < 0 {
		return true
	}
	if len(pieces) == 0 {
		return false
	}
	end := pieces[len(pieces)-1].to
	d := func(x int) int {
		if x >= end {
			return x - end
		}
		return 1<<30 + (end - x)
	}
	return d(s) < d(best)
}

// cutAtLineEnd is the longest run of n bytes at s that ends a line and a
// whole rune, 0 when none does.
func cutAtLineEnd(h haystack, s, n int) int {
	for c := n; c > 0; c-- {
		if h.end[s+c-1] {
			return c
		}
	}
	return 0
}

// lcp is the length in bytes of the common prefix of a and b, ending on a
// whole rune.
func lcp(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// spans turns a piece into rune spans of the pages' texts.
func (h haystack) spans(pc piece) []Span {
	var out []Span
	for b := pc.from; b < pc.to; {
		pg := h.pageAt(b)
		e := b
		for e < pc.to && h.pageAt(e) == pg {
			e++
		}
		out = append(out, Span{Page: pg, From: h.pos[b], To: h.pos[e-1] + 1})
		b = e
	}
	return out
}
