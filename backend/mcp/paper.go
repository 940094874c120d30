package mcp

// The reads of a paper: metadata, page, section, full text, an excerpt
// around a quote, a region. Text comes from the index's pages.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/vault"
)

type metadataResult struct {
	Ref      string          `json:"ref"`
	Title    string          `json:"title"`
	Authors  []string        `json:"authors"`
	Year     int             `json:"year,omitempty"`
	DOI      string          `json:"doi,omitempty"`
	ArxivID  string          `json:"arxivId,omitempty"`
	Abstract string          `json:"abstract,omitempty"`
	Pages    int             `json:"pages"`
	Health   health          `json:"health"`
	Outline  []index.Section `json:"outline"`
	// OutlineFrom says where the outline's sections come from: the PDF's
	// own outline, or the headings found on its pages.
	OutlineFrom string   `json:"outlineFrom,omitempty"`
	Files       []string `json:"files,omitempty"` // text files in the paper's folder
	CitationURI string   `json:"citationUri"`
	cutInfo
}

type health struct {
	Status      string `json:"status"`
	NoTextPages int    `json:"noTextPages"`
	Error       string `json:"error,omitempty"`
}

func (s *Server) metadata(ctx context.Context, t target, limit int) (reply, error) {
	p := t.paper
	outline, err := s.db.Sections(ctx, p.Ref)
	if err != nil {
		return reply{}, err
	}
	files, err := s.db.PaperFiles(ctx, p.Ref)
	if err != nil {
		return reply{}, err
	}
	var readable []string
	for _, f := range files {
		if _, err := s.grant.Covering(f); err == nil {
			readable = append(readable, f)
		}
	}
	r := metadataResult{Ref: p.Ref, Title: p.Title, Authors: p.Authors, Year: p.Year, DOI: p.DOI, ArxivID: p.ArxivID,
		Abstract: p.Abstract, Pages: p.Pages, Health: health{p.Status, p.NoTextPages, p.Error}, Outline: outline,
		Files: readable, CitationURI: citation.New(p.PDFPath, 0, "").String()}
	if len(outline) > 0 {
		r.OutlineFrom = outline[0].Source
	}
	// Over the cap: drop outline entries from the end, then shorten the abstract.
	total := len(outline)
	for size(r) > limit && len(r.Outline) > 0 {
		r.Outline = r.Outline[:len(r.Outline)*3/4]
	}
	if len(r.Outline) < total {
		r.cutInfo = cutInfo{Truncated: true, Part: fmt.Sprintf("outline entries 1–%d of %d", len(r.Outline), total),
			Note: "read sections by title with mode section"}
	}
	if over := size(r) - limit; over > 0 {
		a := []rune(r.Abstract)
		r.Abstract = string(a[:max(0, len(a)-over-1)]) + "…"
		r.Truncated = true
		r.Part = joinNote(r.Part, fmt.Sprintf("abstract cut to %d of %d characters", max(0, len(a)-over-1), len(a)))
		r.Note = "read the abstract with mode page, page 1"
	}
	return reply{value: r, cites: []cite{{p.Ref, r.CitationURI}}}, nil
}

// pageText is a paper's pages joined for reading: each page under a
// "[page N]" header, so an agent can cite what it reads.
type pageText struct {
	runes []rune
	start []int // rune offset of each page's header
	pages []index.Page
}

func joinPages(pages []index.Page, headers bool) pageText {
	var b strings.Builder
	pt := pageText{pages: pages}
	n := 0
	for i, p := range pages {
		pt.start = append(pt.start, n)
		h := ""
		switch {
		case headers && p.Label != "" && p.Label != fmt.Sprint(p.Number):
			h = fmt.Sprintf("[page %d, printed %s]\n", p.Number, p.Label)
		case headers:
			h = fmt.Sprintf("[page %d]\n", p.Number)
		case i > 0:
			h = "\n"
		}
		b.WriteString(h)
		b.WriteString(p.Text)
		if headers {
			b.WriteString("\n\n")
		}
		n = runeCount(b.String())
	}
	pt.runes = []rune(b.String())
	return pt
}

// pageAt returns the index of the page holding rune offset off.
func (pt pageText) pageAt(off int) int {
	i := sort.Search(len(pt.start), func(i int) bool { return pt.start[i] > off }) - 1
	return max(i, 0)
}

func (s *Server) pageArg(t target, page *int, why string) (int, error) {
	if page == nil {
		return 0, errorf("mode %s needs page", why)
	}
	if *page > t.paper.Pages {
		if t.paper.Pages == 0 {
			return 0, errorf("page %d is out of range: this paper has no pages in the index (health: %s)", *page, t.paper.Status)
		}
		return 0, errorf("page %d is out of range: this paper has %d pages", *page, t.paper.Pages)
	}
	return *page, nil
}

func (s *Server) page(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	n, err := s.pageArg(t, in.Page, modePage)
	if err != nil {
		return reply{}, err
	}
	key := cursorKey("page", t.paper.Ref, fmt.Sprint(n))
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	text, lbl, err := s.db.PageText(ctx, t.paper.Ref, n)
	if errors.Is(err, index.ErrNotFound) {
		return reply{}, errorf("page %d is not in the index (health: %s)", n, t.paper.Status)
	}
	if err != nil {
		return reply{}, err
	}
	limit, note := fit(s.grant.Budget.FullChars)
	r := []rune(text)
	if off > len(r) {
		return reply{}, errorf("cursor is past the end of this page")
	}
	c := cut(r, off, limit)
	uri := citation.New(t.paper.PDFPath, n, "").String()
	res := textResult{Ref: t.paper.Ref, Page: n, PageLabel: pageLabel(lbl, n), Pages: t.paper.Pages, Text: c.text, CitationURI: uri}
	res.cutInfo = cutOf(c, fmt.Sprintf("page %d of %d", n, t.paper.Pages), fmt.Sprintf("characters %d–%d of page %d", c.to+1, c.total, n), key, note,
		func(cur string) *nextCall {
			return s.readCall(map[string]any{"ref": t.paper.Ref, "mode": modePage, "page": n, "cursor": cur})
		})
	if len(r) == 0 {
		res.Note = "this page has no text layer (a scan or a figure)"
		if strings.Contains(t.paper.Error, "needs OCR") {
			// garbled pages are kept out of the index (index.StatusGarbled)
			res.Note = "this page has no readable text: " + t.paper.Error
		}
	}
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}}, nil
}

func (s *Server) section(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	if strings.TrimSpace(in.Section) == "" {
		return reply{}, errorf("mode section needs section: a section's title or number (mode metadata lists the paper's sections)")
	}
	outline, err := s.db.Sections(ctx, t.paper.Ref)
	if err != nil {
		return reply{}, err
	}
	if len(outline) == 0 {
		return reply{}, errorf("no sections were found in this paper (no outline, no headings on its pages): read it by page, or find text with context_search and mode excerpt")
	}
	i := findSection(outline, in.Section)
	if i < 0 {
		return reply{}, errorf("no section has that title or number: mode metadata lists the paper's sections")
	}
	sp := sectionSpan(outline, i, t.paper.Pages)
	key := cursorKey("section", t.paper.Ref, outline[i].Title, fmt.Sprint(sp.from))
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	pages, err := s.db.Pages(ctx, t.paper.Ref, sp.from, sp.to)
	if err != nil {
		return reply{}, err
	}
	pages = sp.cut(pages)
	if len(pages) == 0 {
		return reply{}, errorf("this section's pages have no text in the index (health: %s)", t.paper.Status)
	}
	pt := joinPages(pages, true)
	if off > len(pt.runes) {
		return reply{}, errorf("cursor is past the end of this section")
	}
	limit, note := fit(s.grant.Budget.FullChars)
	c := cut(pt.runes, off, limit)
	first := pages[pt.pageAt(c.from)].Number
	last := pages[len(pages)-1].Number
	uri := citation.New(t.paper.PDFPath, first, "").String()
	res := textResult{Ref: t.paper.Ref, Page: first, Pages: t.paper.Pages, Section: outline[i].Title, Text: c.text, CitationURI: uri}
	rest := fmt.Sprintf("pages %d–%d of the section (%d characters)", pages[pt.pageAt(c.to)].Number, last, c.total-c.to)
	res.cutInfo = cutOf(c, fmt.Sprintf("section on pages %d–%d of %d", pages[0].Number, last, t.paper.Pages), rest, key, note,
		func(cur string) *nextCall {
			return s.readCall(map[string]any{"ref": t.paper.Ref, "mode": modeSection, "section": outline[i].Title, "cursor": cur})
		})
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}}, nil
}

// findSection finds a section by title or number: exactly, then ignoring
// case and spacing, then by its number ("3.2", "Section 3.2", "IV", "A.1"),
// then without its number ("5 Training" for "training"), then as the only
// title that contains the words asked for.
func findSection(outline []index.Section, title string) int {
	want := quote.Fold(title)
	for i, s := range outline {
		if s.Title == title {
			return i
		}
	}
	for i, s := range outline {
		if quote.Fold(s.Title) == want {
			return i
		}
	}
	if num := askedNumber(title); num != "" {
		for i, s := range outline {
			if m := sectionNumber.FindString(s.Title); m != "" && strings.EqualFold(strings.TrimRight(strings.TrimSpace(m), "."), num) {
				return i
			}
		}
	}
	for i, s := range outline {
		if quote.Fold(sectionNumber.ReplaceAllString(s.Title, "")) == want {
			return i
		}
	}
	found := -1
	for i, s := range outline {
		if want != "" && strings.Contains(quote.Fold(s.Title), want) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// sectionNumber is the numbering before a heading: "3.2.1 ", "A.1 ", "IV. ".
var sectionNumber = regexp.MustCompile(`^\s*(?:[0-9]+|[A-Z]|[IVXLC]+)(?:\.[0-9]+)*\.?\s+`)

// askedSection is a section asked for by number: "3.2", "3.2.", "Section
// 3.2", "§3.2", "IV", "A.1".
var askedSection = regexp.MustCompile(`(?i)^\s*(?:section|sec\.|§)?\s*((?:[0-9]+|[A-Z]|[IVXLC]+)(?:\.[0-9]+)*)\.?\s*$`)

// askedNumber is the number a section is asked for by, or "".
func askedNumber(s string) string {
	if m := askedSection.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// span is where a section's text is: from rune start of page from to rune
// end of page to (end -1: the page's end).
type span struct {
	from, start, to, end int
}

// sectionSpan is section i's text: from its title to the start of the next
// section at its level or above (its subsections are part of it), or the
// paper's end.
func sectionSpan(outline []index.Section, i, pages int) span {
	last := max(pages, 1)
	sp := span{from: min(max(outline[i].Page, 1), last), start: outline[i].Start, to: last, end: -1}
	for _, next := range outline[i+1:] {
		if next.Level > outline[i].Level {
			continue
		}
		if next.Page < sp.from || next.Page == sp.from && next.Start < sp.start || next.Page > last {
			break // an outline out of page order: read to the end
		}
		sp.to, sp.end = next.Page, next.Start
		break
	}
	return sp
}

// cut trims the pages of the span to its text: the first page from the
// section's start, the last up to the next section's; a last page where
// the next section starts at once is left out.
func (sp span) cut(pages []index.Page) []index.Page {
	out := make([]index.Page, 0, len(pages))
	for _, p := range pages {
		r := []rune(p.Text)
		from, to := 0, len(r)
		if p.Number == sp.to && sp.end >= 0 {
			to = min(sp.end, len(r))
		}
		if p.Number == sp.from {
			from = min(sp.start, to)
		}
		if p.Number == sp.to && p.Number != sp.from && to == 0 {
			continue
		}
		p.Text = string(r[from:to])
		out = append(out, p)
	}
	return out
}

func (s *Server) full(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	key := cursorKey("full", t.paper.Ref)
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	pages, err := s.db.Pages(ctx, t.paper.Ref, 1, maxPage)
	if err != nil {
		return reply{}, err
	}
	if len(pages) == 0 {
		return reply{}, errorf("this paper has no text in the index (health: %s)", t.paper.Status)
	}
	pt := joinPages(pages, true)
	if off > len(pt.runes) {
		return reply{}, errorf("cursor is past the end of this paper")
	}
	limit, note := fit(s.grant.Budget.FullChars)
	c := cut(pt.runes, off, limit)
	first, last := pages[pt.pageAt(c.from)].Number, pages[pt.pageAt(max(c.to-1, 0))].Number
	uri := citation.New(t.paper.PDFPath, first, "").String()
	res := textResult{Ref: t.paper.Ref, Page: first, Pages: t.paper.Pages, Text: c.text, CitationURI: uri}
	rest := fmt.Sprintf("pages %d–%d of %d (%d characters)", pages[pt.pageAt(c.to)].Number, pages[len(pages)-1].Number, t.paper.Pages, c.total-c.to)
	res.cutInfo = cutOf(c, fmt.Sprintf("pages %d–%d of %d", first, last, t.paper.Pages), rest, key, note,
		func(cur string) *nextCall {
			return s.readCall(map[string]any{"ref": t.paper.Ref, "mode": modeFull, "cursor": cur})
		})
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}}, nil
}

func (s *Server) excerpt(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	if len(quote.Fold(in.Quote)) < quote.MinQuote {
		return reply{}, errorf("mode excerpt needs quote: a few words copied from the text (%d letters or digits at least)", quote.MinQuote)
	}
	if in.Page != nil {
		if _, err := s.pageArg(t, in.Page, modeExcerpt); err != nil {
			return reply{}, err
		}
	}
	pages, err := s.db.Pages(ctx, t.paper.Ref, 1, maxPage)
	if err != nil {
		return reply{}, err
	}
	paper := quote.NewPaper(quotePages(pages))
	found := paper.Search(in.Quote)
	if len(found) == 0 {
		return reply{}, errorf("the quote was not found in this paper's text (case, spacing and hyphens ignored); search for its words with context_search")
	}
	// On the page asked for (or the first after it that holds the quote),
	// else the first.
	m := found[0]
	if in.Page != nil {
		for _, f := range found {
			if f.Page >= *in.Page {
				m = f
				break
			}
		}
	}
	pt := joinPages(pages, false)
	ms, me := pt.offsets(pages, m)
	limit, note := fit(s.grant.Budget.ExcerptChars)
	wf, wt := window(pt.runes, ms, me, limit)
	pg := pages[pt.pageAt(ms)]
	uri := citation.New(t.paper.PDFPath, pg.Number, citation.Opening(paper.Text(m))).String()
	res := textResult{Ref: t.paper.Ref, Page: pg.Number, PageLabel: pageLabel(pg.Label, pg.Number), Pages: t.paper.Pages, Matches: len(found),
		Text: string(pt.runes[wf:wt]), CitationURI: uri}
	if me-ms > wt-wf {
		res.cutInfo = cutInfo{Truncated: true, Part: fmt.Sprintf("the first %d characters of the quote", wt-wf),
			Remaining: fmt.Sprintf("the rest of the quote, from page %d", pg.Number),
			Next:      s.readCall(map[string]any{"ref": t.paper.Ref, "mode": modePage, "page": pg.Number}),
			Note:      joinNote("read the rest with mode page", note)}
	} else if note != "" {
		res.Note = note
	}
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}}, nil
}

// quotePages are a paper's pages as the locator reads them.
func quotePages(pages []index.Page) []quote.Page {
	out := make([]quote.Page, len(pages))
	for i, p := range pages {
		out[i] = quote.Page{Number: p.Number, Text: p.Text}
	}
	return out
}

// offsets is where a match of the locator is in the joined text: from its
// first character to its last, over the pages it runs on.
func (pt pageText) offsets(pages []index.Page, m quote.Match) (int, int) {
	from, to := -1, -1
	for _, sp := range m.Spans {
		for i, p := range pages {
			if p.Number != sp.Page {
				continue
			}
			base := pt.start[i]
			if i > 0 {
				base++ // the line break that joins it to the page before
			}
			if from < 0 || base+sp.From < from {
				from = base + sp.From
			}
			to = max(to, base+sp.To)
		}
	}
	return max(from, 0), max(to, 0)
}

func (s *Server) region(ctx context.Context, t target, in readInput, fit fitFunc) (reply, error) {
	n, err := s.pageArg(t, in.Page, modeRegion)
	if err != nil {
		return reply{}, err
	}
	if in.Region == nil {
		return reply{}, errorf("mode region needs region {x, y, width, height} in PDF points from the page's top-left")
	}
	if err := in.Region.valid(); err != nil {
		return reply{}, err
	}
	// The indexed PDF is a regular file of the paper's folder (vault.Scan
	// lists no links): one that became a link since is not read.
	f, err := vault.Open(s.grant.Vault, t.paper.PDFPath, vault.KindPDF)
	if err != nil {
		return reply{}, grant.ErrRefused
	}
	defer f.Close()
	if f.Real != t.paper.PDFPath {
		return reply{}, grant.ErrRefused
	}
	text, err := s.regions.ReadRegion(ctx, f.File, n, *in.Region)
	if err != nil {
		return reply{}, err
	}
	limit, note := fit(s.grant.Budget.ExcerptChars)
	c := cut([]rune(text), 0, limit)
	uri := citation.New(t.paper.PDFPath, n, "").String()
	res := textResult{Ref: t.paper.Ref, Page: n, Pages: t.paper.Pages, Text: c.text, CitationURI: uri}
	if !c.whole() {
		res.cutInfo = cutInfo{Truncated: true, Part: c.chars(), Note: joinNote("choose a smaller region", note)}
	}
	return reply{value: res, cites: []cite{{t.paper.Ref, uri}}}, nil
}
