package agent

// Gathering an answer: the pages the user's selections are on, the pages a
// search finds, their sentences of body text, and the passages quoted from
// them.

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/text"
)

// passage is one quoted piece of an answer: whole sentences, in reading
// order, from one page (or one text file).
type passage struct {
	ref, title string
	page       int
	label      string // printed page number, when it differs
	citation   string
	text       string
	selection  bool // it holds what the user selected
	score      float64
	matched    int
	rank       int // order of discovery: selections first, then search order
}

// pageSource is a page (or file) whose sentences an answer may quote.
type pageSource struct {
	ref, title, label, citation string
	page                        int
	sents                       []sentence
	rank                        int
	sel                         [2]int // sentences of a selection, [from, to); to == 0 when none
	selText                     string // a selection that could not be found among the sentences
	near                        bool   // on or next to a page the user selected text on
	// caption is the caption of a figure or table on the page that the
	// question names by its label ("What does Figure 1 show?"): what
	// the figure shows, in the paper's words, quoted first.
	caption string
}

// gatherer collects the pages of one turn.
type gatherer struct {
	r        *reader
	sources  []*pageSource
	question string          // as the user asked it
	seen     map[string]bool // refs that gave a card or a selection
	notes    []string        // what the answer must say about unreadable text
	more     bool            // more passages match than were read
}

// Limits of one answer.
const (
	maxPassages     = 4
	maxSelection    = 3   // selections started from
	maxPassageChars = 700 // a passage grows by neighbours up to this
	maxNoTextChecks = 6   // pointed-at papers checked for a text layer
)

// selection starts from text the user selected: its page (or file) is
// read, the selection found in it and widened to whole sentences.
func (g *gatherer) selection(ctx context.Context, e evidence) error {
	g.seen[e.ref] = true
	src := &pageSource{ref: e.ref, title: e.title, page: e.page, citation: e.citation, rank: len(g.sources), near: true}
	g.sources = append(g.sources, src)
	var p *pageText
	var err error
	switch {
	case e.kind == "paper" && e.page > 0:
		p, err = g.r.page(ctx, e.ref, e.page)
	case e.kind == "file":
		p, err = g.r.file(ctx, e.ref)
	}
	if err != nil && !isToolError(err) {
		return err
	}
	if p == nil {
		src.selText = oneLine(e.quote) // what the user selected, as the viewer showed it
		return nil
	}
	if strings.TrimSpace(p.Text) == "" && e.kind == "paper" {
		g.sources = g.sources[:len(g.sources)-1]
		g.notes = append(g.notes, fmt.Sprintf("Page %d of “%s”, where your selection is, has no readable text in the index (no text layer: a scan or a figure), so I cannot quote it.", e.page, e.title))
		return nil
	}
	if e.kind == "paper" {
		src.label = label(p.PageLabel, e.page)
		src.sents = bodySentences(p.Text, e.title)
	} else {
		src.sents = noteSentences(p.Text)
	}
	if p.CitationURI != "" {
		src.citation = p.CitationURI
	}
	from, to, ok := locate(p.Text, e.quote)
	if !ok {
		src.selText = oneLine(e.quote)
		return nil
	}
	for i, s := range src.sents {
		if s.end > from && s.start < to {
			if src.sel[1] == 0 {
				src.sel[0] = i
			}
			src.sel[1] = i + 1
		}
	}
	if src.sel[1] == 0 {
		// Selected text that is not body text (a caption, a formula):
		// quoted as the page has it.
		src.selText = joinedText(p.Text[from:to])
	}
	return nil
}

// joinedText is a piece of a page as one line, hyphenation undone.
func joinedText(s string) string {
	t, _ := joinLines(splitLines(strings.TrimSpace(s)))
	return oneLine(t)
}

func label(l string, page int) string {
	if l == fmt.Sprint(page) {
		return ""
	}
	return l
}

// search finds pages that match the question and reads them while the
// budget allows; a page it cannot read is quoted from its card's snippet.
func (g *gatherer) search(ctx context.Context, query string, limit int, near map[string]bool) error {
	cursor := ""
	for round := 0; round < 2; round++ {
		res, err := g.r.search(ctx, query, limit, cursor)
		if isToolError(err) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, c := range res.Cards {
			if err := g.card(ctx, c, near); err != nil {
				return err
			}
		}
		g.more = res.Omitted > 0
		// A second round only when the first gave next to nothing to quote.
		if res.NextCursor == "" || g.quotable() >= 2 || !g.r.canRead() {
			break
		}
		cursor = res.NextCursor
	}
	return nil
}

// quotable counts the sources with a sentence to quote.
func (g *gatherer) quotable() int {
	n := 0
	for _, s := range g.sources {
		if len(s.sents) > 0 {
			n++
		}
	}
	return n
}

// card takes one search card: a page of a paper, or a text file of notes,
// is read (or, out of budget, quoted from the card's snippet); metadata and
// other files that are not prose are skipped.
func (g *gatherer) card(ctx context.Context, c card, near map[string]bool) error {
	rank := len(g.sources)
	if c.Path != "" {
		if !proseFile(c.Path) {
			return nil
		}
		g.seen[c.Ref] = true
		for _, s := range g.sources {
			if s.ref == c.Path {
				return nil // the file of a selection, already read
			}
		}
		src := &pageSource{ref: c.Path, title: c.Title, citation: c.CitationURI, rank: rank, sents: snippetSentences(c.Snippet)}
		if g.r.canRead() {
			p, err := g.r.file(ctx, c.Path)
			switch {
			case err == nil && !p.Truncated:
				src.sents = noteSentences(p.Text)
			case err != nil && !isToolError(err):
				return err
			}
		}
		g.sources = append(g.sources, src)
		return nil
	}
	if c.Page <= 0 {
		// A card of the paper's metadata, not of a page: nothing of the
		// paper itself was read (a scan without text is found this way),
		// so it is neither quoted nor counted as read (noText says why).
		return nil
	}
	g.seen[c.Ref] = true
	for _, s := range g.sources {
		if s.ref == c.Ref && s.page == c.Page {
			return nil // the page of a selection, already read
		}
	}
	src := &pageSource{ref: c.Ref, title: c.Title, page: c.Page, label: label(c.PageLabel, c.Page), citation: c.cites(), rank: rank,
		near: near[fmt.Sprintf("%s#%d", c.Ref, c.Page)]}
	if c.Kind != "" && names(g.question, c.Label) {
		src.caption = wholeSentences(oneLine(strings.TrimSuffix(strings.TrimSpace(c.Snippet), "…")))
	}
	if g.r.canRead() {
		p, err := g.r.page(ctx, c.Ref, c.Page)
		switch {
		case err == nil:
			src.sents = bodySentences(p.Text, c.Title)
			if p.Truncated && len(src.sents) > 0 {
				src.sents = src.sents[:len(src.sents)-1] // the cut may fall inside it
			}
		case isToolError(err):
			src.sents = snippetSentences(c.Snippet)
		default:
			return err
		}
	} else {
		src.sents = snippetSentences(c.Snippet)
	}
	g.sources = append(g.sources, src)
	return nil
}

// proseFiles are the kinds of text file whose sentences are worth quoting:
// notes, not data or metadata (metadata.json, citation sidecars, .bib).
var proseFiles = map[string]bool{"": true, ".md": true, ".markdown": true, ".txt": true, ".text": true, ".rst": true, ".org": true, ".adoc": true}

func proseFile(p string) bool { return proseFiles[strings.ToLower(path.Ext(p))] }

// snippetSentences are the whole sentences of body text in a search
// snippet: the text between its first and last sentence breaks, as a
// snippet starts and ends wherever its window fell.
func snippetSentences(snippet string) []sentence {
	s := strings.TrimSpace(snippet)
	cutEnd := strings.HasSuffix(s, "…")
	s = strings.TrimSuffix(strings.TrimPrefix(s, "…"), "…")
	sents := sentencesOf([]line{{text: s}}, false, 0)
	if cutEnd && len(sents) > 0 && sents[len(sents)-1].end >= len(s) {
		sents = sents[:len(sents)-1]
	}
	return sents
}

// passages scores every sentence gathered against the question and picks
// what the answer quotes: each selection widened to whole sentences, then
// the best passage of each page, best first.
func (g *gatherer) passages(query string, parts []string) []passage {
	var pool []string
	for _, s := range g.sources {
		for _, st := range s.sents {
			pool = append(pool, st.text)
		}
	}
	sc := newScorer(query, pool)
	var out, others []passage
	for _, s := range g.sources {
		if s.caption != "" && len(out) < maxPassages {
			out = append(out, s.passage(s.caption, false, 0, 0))
		}
		taken := [2]int{-1, -1}
		switch {
		case s.selText != "":
			out = append(out, s.passage(s.selText, true, 0, 0))
		case s.sel[1] > 0:
			from, to := s.window(sc, s.sel[0], s.sel[1])
			taken = [2]int{from, to}
			out = append(out, s.passage(s.text(from, to), true, 0, 0))
		}
		best, bestScore, bestMatched := -1, 0.0, 0
		for i, st := range s.sents {
			if i >= taken[0] && i < taken[1] {
				continue
			}
			if score, matched := sc.score(st.text); score > bestScore {
				best, bestScore, bestMatched = i, score, matched
			}
		}
		if best < 0 {
			continue
		}
		from, to := s.grow(sc, best, best+1, taken)
		if s.near {
			bestScore *= 1.3
		}
		others = append(others, s.passage(s.text(from, to), false, bestScore, bestMatched))
	}
	sort.SliceStable(others, func(i, j int) bool {
		if others[i].score != others[j].score {
			return others[i].score > others[j].score
		}
		return others[i].rank < others[j].rank
	})
	// A passage must hold two of the question's words when some passage
	// does, half the score of the best, and a fifth of what the question's
	// words that were read at all weigh.
	need := 1
	for _, p := range others {
		if p.matched >= 2 && len(sc.stems) >= 2 {
			need = 2
		}
	}
	for _, p := range others {
		if len(out) == maxPassages {
			g.more = true
			break
		}
		if p.matched >= need && p.score >= others[0].score/2 && p.score >= sc.total()/5 {
			out = append(out, p)
		}
	}
	return g.answerParts(out, parts, pool)
}

// window picks, among the sentences [from, to) of a selection, the
// contiguous ones that fit a passage and hold most of the question, then
// grows them by a neighbour that holds some of it.
func (s *pageSource) window(sc scorer, from, to int) (int, int) {
	bestFrom, bestTo, best := from, from+1, -1.0
	for i := from; i < to; i++ {
		n, score := 0, 0.0
		for j := i; j < to; j++ {
			n += len(s.sents[j].text) + 1
			if j > i && (n > maxPassageChars || !follows(s.sents[j-1], s.sents[j])) {
				break
			}
			v, _ := sc.score(s.sents[j].text)
			score += v
			if score > best || score == best && j+1-i > bestTo-bestFrom {
				bestFrom, bestTo, best = i, j+1, score
			}
		}
	}
	return s.grow(sc, bestFrom, bestTo, [2]int{-1, -1})
}

// grow adds to sentences [from, to) the sentence right after them, else
// the one right before, when it holds some of the question and the passage
// stays short; never one in taken.
func (s *pageSource) grow(sc scorer, from, to int, taken [2]int) (int, int) {
	size := len(s.text(from, to))
	fits := func(i int) bool {
		if i < 0 || i >= len(s.sents) || i >= taken[0] && i < taken[1] {
			return false
		}
		_, matched := sc.score(s.sents[i].text)
		return matched > 0 && size+len(s.sents[i].text)+1 <= maxPassageChars
	}
	switch {
	case to < len(s.sents) && follows(s.sents[to-1], s.sents[to]) && fits(to):
		to++
	case from > 0 && follows(s.sents[from-1], s.sents[from]) && fits(from-1):
		from--
	}
	return from, to
}

func (s *pageSource) text(from, to int) string {
	var parts []string
	for _, st := range s.sents[from:to] {
		parts = append(parts, st.text)
	}
	return strings.Join(parts, " ")
}

func (s *pageSource) passage(text string, selection bool, score float64, matched int) passage {
	return passage{ref: s.ref, title: s.title, page: s.page, label: s.label, citation: s.citation, text: text,
		selection: selection, score: score, matched: matched, rank: s.rank}
}

// noText checks the papers the user pointed at that gave nothing to read:
// a paper whose pages have no text layer (a scan without OCR) is named as
// such, so that the answer says why it quotes nothing of it.
func (g *gatherer) noText(ctx context.Context, papers []string) error {
	checked := 0
	for _, ref := range papers {
		if g.seen[ref] || checked == maxNoTextChecks || g.r.room < reserve/2 {
			continue
		}
		checked++
		info, err := g.r.metadata(ctx, ref)
		if isToolError(err) {
			continue
		}
		if err != nil {
			return err
		}
		title := info.Title
		if title == "" {
			title = ref
		}
		switch {
		case info.Pages == 0:
			g.notes = append(g.notes, fmt.Sprintf("“%s” (%s) has no readable text: the index holds none of its pages (%s).", title, ref, info.Health.Status))
		case info.Health.NoTextPages >= info.Pages:
			g.notes = append(g.notes, fmt.Sprintf("“%s” (%s) has no readable text: none of its %d pages has a text layer (it is a scan without OCR), so I could not search or quote it. Running OCR on the PDF and indexing it again would make it readable.", title, ref, info.Pages))
		case info.Health.NoTextPages > 0:
			g.notes = append(g.notes, fmt.Sprintf("%d of the %d pages of “%s” (%s) have no text layer, so I could not search them.", info.Health.NoTextPages, info.Pages, title, ref))
		}
	}
	return nil
}

// names says whether question names a figure or table by its label
// ("Figure 3", "fig. 3", "Table II"): text.FigureNames, whose numbers
// stand alone ("Figure 1" is not named by "Figure 12").
func names(question, label string) bool {
	for _, f := range text.FigureNames(question, -1) {
		if strings.EqualFold(f.Label, label) {
			return true
		}
	}
	return false
}

// wholeSentences is a caption as its card gave it, less a last sentence
// the card's snippet cut short; the label's sentence ("Figure 1: …") is
// always kept.
func wholeSentences(caption string) string {
	if caption == "" || strings.ContainsRune(".!?)", rune(caption[len(caption)-1])) {
		return caption
	}
	if i := strings.LastIndex(caption, ". "); i > 0 {
		return caption[:i+1]
	}
	return caption
}
