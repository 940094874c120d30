package claim

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/quote"
)

// judge decides the verdict of one citation of a readable source.
type judge struct {
	src  *source
	page int // the cited page; 0 for the whole paper or file
	st   *stems
	rd   *readings
}

// finding is what judging a citation found: its verdict, the page that
// holds the claim when it is not the cited one, what was checked, and the
// passage of the page that holds the claim (see citation.Check.Passage).
type finding struct {
	verdict citation.Verdict
	found   int
	why     string
	passage string
}

// verdict checks the quotations first: on the cited page they are the
// verdict. A quotation on no page leaves the sentence's words to judge,
// never better than weak.
func (j judge) verdict(claim string, quotes []string) finding {
	if j.page > 0 && strings.TrimSpace(j.src.pages[j.page-1].Text) == "" && len(quotes) == 0 {
		return finding{verdict: citation.Weak, why: fmt.Sprintf("page %d has no text to check against (a scan without a text layer?)", j.page)}
	}
	if !j.hasText() {
		return finding{verdict: citation.Weak, why: "the paper has no text to check against (a scan without a text layer?)"}
	}
	qualifier := ""
	if len(quotes) > 0 {
		f, ok := j.quotes(quotes)
		if ok {
			return f
		}
		qualifier = f.why
	}
	t := claimTerms(claim, j.src.known, j.src.year, j.st)
	if len(t.words)+len(t.nums) == 0 {
		if qualifier != "" {
			return finding{verdict: citation.Weak, why: qualifier}
		}
		return finding{} // nothing beside it to check
	}
	f := j.words(t)
	if qualifier != "" {
		if f.verdict == citation.Supported {
			f.verdict = citation.Weak
		}
		f.why = qualifier + "; " + f.why
	}
	return f
}

func (j judge) hasText() bool {
	for _, p := range j.src.pages {
		if strings.TrimSpace(p.Text) != "" {
			return true
		}
	}
	return false
}

// quotes looks for the quotations on the cited page (or starting on the
// page before and running onto it), then on every page. ok is false when
// one is on no page: why then says so, and the words decide.
func (j judge) quotes(qs []string) (finding, bool) {
	if j.src.textual {
		for _, q := range qs {
			if _, ok := j.find(1, q); !ok {
				return finding{why: fmt.Sprintf("the quote “%s” is not in the file", clip(q))}, false
			}
		}
		if len(qs) > 1 {
			return finding{verdict: citation.Verified, why: fmt.Sprintf("its %d quotes are in the file", len(qs))}, true
		}
		return finding{verdict: citation.Verified, why: "the quote is in the file"}, true
	}
	if j.page > 0 {
		var ms []quote.Match
		for _, q := range qs {
			m, ok := j.find(j.page, q)
			if !ok && j.page > 1 {
				// Started on the page before, it runs onto the cited one.
				if b, okb := j.find(j.page-1, q); okb && reaches(b, j.page) {
					m, ok = b, true
				}
			}
			if !ok {
				ms = nil
				break
			}
			ms = append(ms, m)
		}
		switch {
		case len(ms) > 1:
			return finding{verdict: citation.Verified, why: fmt.Sprintf("its %d quotes are on page %d", len(ms), j.page)}, true
		case len(ms) == 1 && ms[0].Spans[len(ms[0].Spans)-1].Page != ms[0].Page:
			m := ms[0]
			return finding{verdict: citation.Verified, why: fmt.Sprintf("the quote starts on page %d and runs onto page %d", m.Page, m.Spans[len(m.Spans)-1].Page)}, true
		case len(ms) == 1:
			return finding{verdict: citation.Verified, why: fmt.Sprintf("the quote is on page %d", j.page)}, true
		}
	}
	// Elsewhere in the paper: on the page nearest the cited one that has
	// the first quotation, if it has the others too.
	var best quote.Match
	for _, m := range j.search(qs[0]) {
		all := true
		for _, q := range qs[1:] {
			if _, ok := j.find(m.Page, q); !ok {
				all = false
				break
			}
		}
		if all && (best.Page == 0 || dist(m.Page, j.page) < dist(best.Page, j.page)) {
			best = m
		}
	}
	if best.Page == 0 {
		if len(qs) == 1 {
			return finding{why: "the quote is on no page of the paper"}, false
		}
		return finding{why: "its quotes are not all on one page of the paper"}, false
	}
	f := finding{verdict: citation.Verified, found: best.Page}
	switch {
	case j.page == 0 && len(qs) > 1:
		f.why = fmt.Sprintf("its %d quotes are on page %d", len(qs), best.Page)
	case j.page == 0:
		f.why = fmt.Sprintf("the quote is on page %d", best.Page)
	case len(qs) > 1:
		f.verdict, f.why = citation.WrongPage, fmt.Sprintf("its %d quotes are not on page %d; they are on page %d", len(qs), j.page, best.Page)
	default:
		f.verdict, f.why = citation.WrongPage, fmt.Sprintf("the quote is not on page %d; it is on page %d", j.page, best.Page)
	}
	if f.verdict == citation.WrongPage {
		f.passage = clipPassage(oneLine(j.src.doc.Text(best)))
	}
	return f, true
}

// maxMark is the most characters a footnote mark or a number glued into
// a page's text between a quote's words may take ("GPT-3,1 while").
const maxMark = 12

// find looks for a quotation starting on page n. One the page splits with
// a footnote mark or a number (no letters, at most maxMark characters
// between two of its words) is found too: a reader quotes "GPT-3, while"
// where the page's text reads "GPT-3,1 while".
func (j judge) find(n int, q string) (quote.Match, bool) {
	doc := j.src.doc
	if m, ok := doc.Find(n, q); ok {
		return m, true
	}
	// The longest run of the quote's first words on the page (found by
	// halving: a run found means every shorter one is), then the rest
	// just after it, past a mark.
	words := strings.Fields(q)
	lo, hi := 0, len(words) // words[:lo] is found, words[:hi] is not
	for lo+1 < hi {
		mid := (lo + hi) / 2
		a := strings.Join(words[:mid], " ")
		if len(quote.Fold(a)) < quote.MinQuote {
			lo = mid
			continue
		}
		if _, ok := doc.Find(n, a); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	for k := lo; k > 0 && k >= lo-1; k-- {
		a, b := strings.Join(words[:k], " "), strings.Join(words[k:], " ")
		if len(quote.Fold(a)) < quote.MinQuote || len(quote.Fold(b)) < 3 {
			continue
		}
		if m, ok := j.after(n, a, b); ok {
			return m, true
		}
	}
	return quote.Match{}, false
}

// after finds a on page n and b just after it, with at most a mark or a
// number between them.
func (j judge) after(n int, a, b string) (quote.Match, bool) {
	doc := j.src.doc
	ma, ok := doc.Find(n, a)
	if !ok {
		return quote.Match{}, false
	}
	end := ma.Spans[len(ma.Spans)-1]
	var text []rune
	for _, p := range doc.Pages() {
		if p.Number == end.Page {
			text = []rune(p.Text)
		}
	}
	if end.To > len(text) {
		return quote.Match{}, false
	}
	rest := text[end.To:min(len(text), end.To+maxMark+4*len(b))]
	mb, ok := quote.NewPaper([]quote.Page{{Number: end.Page, Text: string(rest)}}).Find(end.Page, b)
	if !ok || mb.Pieces != 1 || mb.Spans[0].From > maxMark || strings.ContainsFunc(string(rest[:mb.Spans[0].From]), unicode.IsLetter) {
		return quote.Match{}, false
	}
	for _, s := range mb.Spans {
		ma.Spans = append(ma.Spans, quote.Span{Page: s.Page, From: s.From + end.To, To: s.To + end.To})
	}
	ma.Pieces++
	return ma, true
}

// search finds a quotation on every page it starts on.
func (j judge) search(q string) []quote.Match {
	if ms := j.src.doc.Search(q); len(ms) > 0 {
		return ms
	}
	var out []quote.Match
	for _, p := range j.src.doc.Pages() {
		if m, ok := j.find(p.Number, q); ok {
			out = append(out, m)
		}
	}
	return out
}

// reaches reports whether a match runs onto page n.
func reaches(m quote.Match, n int) bool {
	for _, s := range m.Spans {
		if s.Page == n {
			return true
		}
	}
	return false
}

func dist(a, b int) int { return max(a-b, b-a) }

// clip shortens a quotation for a sentence about it.
func clip(q string) string {
	r := []rune(q)
	if len(r) > 60 {
		return string(r[:57]) + "…"
	}
	return q
}

// words judges the sentence's words and numbers against the pages.
func (j judge) words(t terms) finding {
	f := j.wordsOn(t)
	if f.s != nil && (f.verdict == citation.Supported || f.verdict == citation.Weak || f.verdict == citation.WrongPage) {
		f.passage = j.src.passage(*f.s)
	}
	return f.finding
}

// scored is a finding of the words, with the score of the page it names.
type scored struct {
	finding
	s *score
}

func (j judge) wordsOn(t terms) scored {
	pw := j.src.scorer(j.rd)
	wt := pw.weigh(t)
	scores := make([]score, len(pw.numbers))
	best := -1
	for i := range pw.numbers {
		scores[i] = pw.score(wt, i)
		if best < 0 || better(scores[i], scores[best]) {
			best = i
		}
	}
	// A page supports a claim when it holds most of its weight close
	// together, most of its words, and all its numbers.
	supports := func(s score) bool {
		return s.value >= supportedAt && float64(s.words+len(s.nums)) >= minWords*float64(wt.words+len(s.nums)+len(s.missing)) && len(s.missing) == 0
	}
	// Of pages that hold the claim about as well as the best, the one
	// nearest the cited page: an agent that mis-pages is off by a little.
	if j.page > 0 && supports(scores[best]) {
		rank := func(s score) float64 { return s.value + 0.15*s.pairs }
		for i, s := range scores {
			if supports(s) && rank(s) >= rank(scores[best])-nearlyAsGood && dist(s.page, j.page) < dist(scores[best].page, j.page) {
				best = i
			}
		}
	}
	found := func(v citation.Verdict, page int, why string, s *score) scored {
		return scored{finding{verdict: v, found: page, why: why}, s}
	}
	if j.src.textual || j.page == 0 {
		b := scores[best]
		desc := describe(b, wt, j.src.textual)
		switch {
		case supports(b):
			return found(citation.Supported, pageOf(b, j.src), desc, &b)
		case b.value >= weakAt:
			return found(citation.Weak, pageOf(b, j.src), desc, &b)
		}
		if j.src.textual {
			return found(citation.Unsupported, 0, desc, nil)
		}
		return found(citation.Unsupported, 0, "no page of the paper holds most of its words: "+desc, nil)
	}
	c := scores[j.page-1]
	b := scores[best]
	desc := describe(c, wt, false)
	switch {
	case supports(c):
		return found(citation.Supported, 0, desc, &c)
	case b.page != c.page && supports(b) && b.value >= c.value+clearly:
		return found(citation.WrongPage, b.page, desc+"; "+describeOther(b, c, wt), &b)
	case c.value >= weakAt:
		return found(citation.Weak, 0, desc, &c)
	case b.page != c.page && b.value > c.value:
		return found(citation.Unsupported, 0, desc+"; no page holds most of them (page "+fmt.Sprint(b.page)+" has the most)", nil)
	}
	return found(citation.Unsupported, 0, desc+"; no page holds most of them", nil)
}

// better orders pages for being the one a claim is on: all its numbers
// first, then the score, with a little more for words that sit next to
// each other as in the claim.
func better(a, b score) bool {
	if (len(a.missing) == 0) != (len(b.missing) == 0) {
		return len(a.missing) == 0 && a.value >= weakAt
	}
	return a.value+0.15*a.pairs > b.value+0.15*b.pairs+1e-9
}

func pageOf(s score, src *source) int {
	if src.textual {
		return 0
	}
	return s.page
}

// describe says what a page holds of a claim: "page 6 has 8 of its 9
// content words and 150 but not 350".
func describe(s score, wt *weighed, textual bool) string {
	var b strings.Builder
	if textual {
		b.WriteString("the file has ")
	} else {
		fmt.Fprintf(&b, "page %d has ", s.page)
	}
	hasWords := wt.words > 0
	switch {
	case !hasWords:
	case s.words == wt.words && wt.words == 1:
		b.WriteString("its content word")
	case s.words == wt.words:
		b.WriteString("its words")
	case s.words == 0:
		fmt.Fprintf(&b, "none of its %d content words", wt.words)
	default:
		fmt.Fprintf(&b, "%d of its %d content words", s.words, wt.words)
	}
	switch {
	case len(s.nums) > 0 && len(s.missing) > 0:
		if hasWords {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "%s but not %s", strings.Join(s.nums, " and "), strings.Join(s.missing, " or "))
	case len(s.nums) > 0:
		if hasWords {
			b.WriteString(" and ")
		}
		b.WriteString(strings.Join(s.nums, " and "))
	case len(s.missing) > 0 && hasWords && s.words > 0:
		fmt.Fprintf(&b, " but not %s", strings.Join(s.missing, " or "))
	case len(s.missing) > 0:
		if hasWords {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "not %s", strings.Join(s.missing, " or "))
	}
	return b.String()
}

// describeOther says what the better page holds, next to what the cited
// one does: "page 6 has them all".
func describeOther(b, c score, wt *weighed) string {
	switch {
	case b.words == wt.words && len(b.missing) == 0:
		return fmt.Sprintf("page %d has them all", b.page)
	case b.words <= c.words:
		return describe(b, wt, false) + ", the rarer of them close together"
	}
	return describe(b, wt, false)
}
