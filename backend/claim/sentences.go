package claim

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/text"
)

// A Markdown text is read as blocks (paragraphs, list items, block quotes,
// headings, table rows), each cut into sentences. A citation vouches for
// the sentence that holds it; one that stands alone (after a sentence's
// full stop, on a line of its own, after a dash that names the source)
// vouches for the sentence before it, or for the whole block quote before
// it.

type blockKind int

const (
	paragraph blockKind = iota
	listItem
	blockQuote
	heading
	tableRow
)

type block struct {
	kind       blockKind
	start, end int
}

// passage is what one citation vouches for.
type passage struct {
	claim  string   // the words it vouches for, with citations and names of sources blanked
	quotes []string // the quoted spans among them
	names  []string // link texts and attributions: words that may only name the source
}

var (
	quoteMarkerRE = regexp.MustCompile(`^[ \t]*>[ \t]?`)
	itemRE        = regexp.MustCompile(`^[ \t]*([-*+]|\d{1,9}[.)])[ \t]+`)
	headingRE     = regexp.MustCompile(`^[ \t]{0,3}#{1,6}([ \t]+|$)`)
	ruleRE        = regexp.MustCompile(`^[ \t]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	tableSepRE    = regexp.MustCompile(`^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$`)
	// attributionRE is a dash that starts a line or follows a closing
	// quotation mark: what comes after it to the line's end names the
	// source ("— In Search of …, page 6").
	attributionRE = regexp.MustCompile(`(?m)(^[ \t>]*|[”"»’][ \t]*\n?[ \t]*)(—|―|–|--)[ \t][^\n]*`)
)

// layout blanks a text's Markdown markup (block quote and list markers,
// heading marks, emphasis, code marks, table pipes, code blocks) with
// spaces, keeping every other byte where it is, and returns its blocks.
func layout(src string, code [][2]int) ([]byte, []block) {
	mask := []byte(src)
	blank := func(s, e int) {
		for i := s; i < e; i++ {
			if mask[i] != '\n' {
				mask[i] = ' '
			}
		}
	}
	for _, c := range code {
		blank(c[0], c[1])
	}
	var blocks []block
	cur := -1 // index in blocks of the open block
	closeBlock := func() { cur = -1 }
	open := func(k blockKind, s, e int) {
		blocks = append(blocks, block{kind: k, start: s, end: e})
		cur = len(blocks) - 1
	}
	next := 0 // code blocks are in order, as lines are
	inCode := func(s int) bool {
		for next < len(code) && code[next][1] <= s {
			next++
		}
		return next < len(code) && s >= code[next][0]
	}
	for _, ln := range citation.Lines(src) {
		s, e := ln[0], ln[1]
		l := src[s:e]
		if inCode(s) || strings.TrimSpace(l) == "" || ruleRE.MatchString(l) || tableSepRE.MatchString(l) && strings.Contains(l, "|") {
			blank(s, e)
			closeBlock()
			continue
		}
		quoted := false
		off := 0
		for {
			m := quoteMarkerRE.FindStringIndex(l[off:])
			if m == nil {
				break
			}
			blank(s+off, s+off+m[1])
			off += m[1]
			quoted = true
		}
		rest := l[off:]
		switch {
		case headingRE.MatchString(rest):
			m := headingRE.FindStringIndex(rest)
			blank(s+off, s+off+m[1])
			closeBlock()
			open(heading, s, e)
			closeBlock()
			continue
		case strings.HasPrefix(strings.TrimSpace(rest), "|"):
			for i := off; i < len(l); i++ {
				if l[i] == '|' {
					mask[s+i] = ' '
				}
			}
			closeBlock()
			open(tableRow, s, e)
			closeBlock()
			continue
		}
		item := false
		if m := itemRE.FindStringIndex(rest); m != nil {
			blank(s+off, s+off+m[1])
			item = true
		}
		switch {
		case quoted && (cur < 0 || blocks[cur].kind != blockQuote):
			open(blockQuote, s, e)
		case item:
			open(listItem, s, e)
		case cur < 0 || blocks[cur].kind == blockQuote && !quoted:
			open(paragraph, s, e)
		default:
			blocks[cur].end = e
		}
	}
	for i, c := range mask {
		if c == '*' || c == '`' || c == '~' && (i+1 < len(mask) && mask[i+1] == '~' || i > 0 && mask[i-1] == '~') {
			mask[i] = ' '
		}
	}
	return mask, blocks
}

// quoteSpans returns the quoted spans of mask[s:e], quotation marks
// included: “…”, «…», "…" and ‘…’ (an apostrophe is not a closing mark).
func quoteSpans(mask []byte, s, e int) [][2]int {
	var out [][2]int
	seg := string(mask[s:e])
	used := make([]bool, len(seg))
	add := func(a, b int) {
		for i := a; i < b; i++ {
			if used[i] {
				return
			}
		}
		for i := a; i < b; i++ {
			used[i] = true
		}
		out = append(out, [2]int{s + a, s + b})
	}
	// Typographic marks nest: “… “best” …” is one quotation.
	pairs := []struct{ open, close string }{{"“", "”"}, {"«", "»"}}
	for _, p := range pairs {
		depth, a := 0, 0
		for i := 0; i < len(seg); {
			switch {
			case strings.HasPrefix(seg[i:], p.open):
				if depth == 0 {
					a = i
				}
				depth++
				i += len(p.open)
			case strings.HasPrefix(seg[i:], p.close) && depth > 0:
				depth--
				i += len(p.close)
				if depth == 0 {
					add(a, i)
				}
			default:
				i++
			}
		}
	}
	// Straight quotes pair in order.
	var straight []int
	for i := 0; i < len(seg); i++ {
		if seg[i] == '"' {
			straight = append(straight, i)
		}
	}
	for i := 0; i+1 < len(straight); i += 2 {
		add(straight[i], straight[i+1]+1)
	}
	// ‘…’: an opening mark at a word's start, a closing one not followed
	// by a letter (leader’s is an apostrophe).
	for i := 0; i < len(seg); {
		a := strings.Index(seg[i:], "‘")
		if a < 0 {
			break
		}
		a += i
		i = a + len("‘")
		if a > 0 {
			if r, _ := utf8.DecodeLastRuneInString(seg[:a]); text.IsWordRune(r) {
				continue
			}
		}
		for j := i; j < len(seg) && j < a+800; {
			b := strings.Index(seg[j:], "’")
			if b < 0 {
				break
			}
			b += j + len("’")
			if r, _ := utf8.DecodeRuneInString(seg[b:]); b >= len(seg) || !text.IsWordRune(r) {
				add(a, b)
				i = b
				break
			}
			j = b
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// abbreviations end in a full stop that ends no sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "al": true, "fig": true, "figs": true, "eq": true, "eqs": true, "sec": true, "secs": true,
	"ch": true, "p": true, "pp": true, "vs": true, "cf": true, "no": true, "nos": true, "vol": true, "ref": true,
	"refs": true, "approx": true, "dr": true, "mr": true, "mrs": true, "prof": true, "resp": true, "viz": true,
	"st": true, "jr": true, "inc": true, "ltd": true, "tab": true, "thm": true, "def": true, "lem": true,
	"prop": true, "alg": true, "appx": true, "ed": true, "eds": true, "et": true, "ca": true, "incl": true,
}

// sentences cuts mask[b.start:b.end] into sentences. A sentence ends at
// ".", "!" or "?" (or a quotation that ends with one) followed by white
// space and something that can start a sentence, but not after an
// abbreviation or an initial, nor inside a quotation or a citation; and
// before a line that starts with a dash naming the source.
func sentences(mask []byte, b block, protected [][2]int) [][2]int {
	sort.Slice(protected, func(a, b int) bool { return protected[a][0] < protected[b][0] })
	next := 0 // protected spans are read in order, as i grows
	inside := func(i int) (int, bool) {
		for next < len(protected) && protected[next][1] <= i {
			next++
		}
		for k := next; k < len(protected) && protected[k][0] <= i; k++ {
			if i < protected[k][1] {
				return protected[k][1], true
			}
		}
		return 0, false
	}
	var cuts []int
	for i := b.start; i < b.end; i++ {
		if end, ok := inside(i); ok {
			// A quotation that ends a sentence: “… rare.” Then …
			if end <= b.end && quoteEndsSentence(mask, i, end) && startsSentence(mask, end, b.end) {
				cuts = append(cuts, end)
			}
			i = end - 1
			continue
		}
		c := mask[i]
		switch {
		case c == '\n':
			if j := skipSpace(mask, i+1, b.end); isDash(mask, j, b.end) {
				cuts = append(cuts, i+1)
			}
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			for j < b.end && strings.IndexByte(`)]"'_`, mask[j]) >= 0 {
				j++
			}
			for j < b.end {
				r, n := utf8.DecodeRune(mask[j:])
				if r != '”' && r != '’' && r != '»' {
					break
				}
				j += n
			}
			if j < b.end && !unicode.IsSpace(rune(mask[j])) {
				continue
			}
			if c == '.' && abbreviated(mask, b.start, i) {
				continue
			}
			if startsSentence(mask, j, b.end) {
				cuts = append(cuts, j)
			}
		}
	}
	var out [][2]int
	s := b.start
	for _, c := range cuts {
		if c > s {
			out = append(out, [2]int{s, c})
			s = c
		}
	}
	if s < b.end {
		out = append(out, [2]int{s, b.end})
	}
	return out
}

func skipSpace(mask []byte, i, end int) int {
	for i < end && (mask[i] == ' ' || mask[i] == '\t') {
		i++
	}
	return i
}

func isDash(mask []byte, i, end int) bool {
	rest := string(mask[i:min(end, i+4)])
	return strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "―") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "--")
}

// quoteEndsSentence reports whether the quotation mask[s:e] ends with
// ".", "!" or "?" inside its closing mark.
func quoteEndsSentence(mask []byte, s, e int) bool {
	r, _ := utf8.DecodeRune(mask[s:e])
	if r != '“' && r != '"' && r != '«' && r != '‘' && r != '„' {
		return false
	}
	inner := strings.TrimRightFunc(string(mask[s:e]), func(r rune) bool {
		return r == '”' || r == '"' || r == '»' || r == '’' || r == '“' || unicode.IsSpace(r)
	})
	return strings.HasSuffix(inner, ".") || strings.HasSuffix(inner, "!") || strings.HasSuffix(inner, "?")
}

// startsSentence reports whether what follows i (after white space) can
// start a sentence: an upper-case letter, a digit, an opening mark, a
// bracket or the end of the block.
func startsSentence(mask []byte, i, end int) bool {
	for i < end && unicode.IsSpace(rune(mask[i])) {
		i++
	}
	if i >= end {
		return true
	}
	r, _ := utf8.DecodeRune(mask[i:end])
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune(`“"«‘„([<—–-`, r) || r == '\'' || r == 'p' && strings.HasPrefix(string(mask[i:end]), "papers/")
}

// abbreviated reports whether the full stop at i ends an abbreviation or
// an initial rather than a sentence.
func abbreviated(mask []byte, start, i int) bool {
	if i == start {
		return false
	}
	if r, _ := utf8.DecodeLastRune(mask[start:i]); !unicode.IsLetter(r) {
		return false // after a bracket, a quotation mark, a number
	}
	j := i
	for j > start && !unicode.IsSpace(rune(mask[j-1])) && mask[j-1] != '(' {
		j--
	}
	w := strings.ToLower(string(mask[j:i]))
	if w == "" {
		return false
	}
	if abbreviations[w] || strings.Contains(w, ".") {
		return true
	}
	r, n := utf8.DecodeRuneInString(w)
	return n == len(w) && unicode.IsLetter(r) // an initial: "J. Smith"
}

// within returns the citations (in order of start) that start in [s, e).
func within(cites []citation.Cited, s, e int) []citation.Cited {
	a := sort.Search(len(cites), func(i int) bool { return cites[i].Start >= s })
	b := sort.Search(len(cites), func(i int) bool { return cites[i].Start >= e })
	return cites[a:max(a, b)]
}

// maxCitation is the longest citation a text may write: a link's text and
// a URI with its quote (citation.MaxLength).
const maxCitation = citation.MaxLength + 1024

// maxClaim is the most bytes before a citation its claim may take: a
// "sentence" longer is no sentence (a table, a list run together).
const maxClaim = 2000

// passages returns what each citation vouches for: the sentence that
// holds it (or the part of it since the citation before), or, for one
// that stands alone, the sentence or block quote before it.
func passages(src string, cites []citation.Cited, code [][2]int) []passage {
	mask, blocks := layout(src, code)
	out := make([]passage, len(cites))
	type unit struct {
		block int
		s, e  int
	}
	var units []unit
	var quotes [][2]int
	for bi, b := range blocks {
		qs := quoteSpans(mask, b.start, b.end)
		quotes = append(quotes, qs...)
		prot := append([][2]int(nil), qs...)
		for _, c := range within(cites, b.start, b.end) {
			prot = append(prot, [2]int{c.Start, c.End})
		}
		if b.kind == blockQuote {
			units = append(units, unit{bi, b.start, b.end})
			continue
		}
		for _, s := range sentences(mask, b, prot) {
			units = append(units, unit{bi, s[0], s[1]})
		}
	}
	// content reports whether mask[s:e] holds words of its own, once
	// citations, attributions and markup are out; a unit is read once.
	memo := map[[2]int]bool{}
	content := func(s, e int) bool {
		k := [2]int{s, e}
		if v, ok := memo[k]; ok {
			return v
		}
		v := hasContent(blankCites(mask, s, min(e, s+maxClaim), cites))
		memo[k] = v
		return v
	}
	clauses := map[int]map[int][2]int{} // by unit: each citation's clause
	unitOf := func(at int) int {
		i := sort.Search(len(units), func(i int) bool { return units[i].e > at })
		if i < len(units) && at >= units[i].s {
			return i
		}
		return -1
	}
	for ci, c := range cites {
		ui := unitOf(c.Start)
		if ui < 0 {
			continue
		}
		u := units[ui]
		s, e := u.s, u.e
		switch {
		case blocks[u.block].kind == blockQuote:
			// In a block quote, a citation vouches for the quoted text
			// since the citation before it.
			s = u.s
			for _, o := range within(cites, u.s, c.Start) {
				if o.End <= c.Start && content(o.End, c.Start) {
					s = o.End
				}
			}
			e = c.Start
			if !content(s, e) {
				s, e = u.s, u.e
			}
		case !content(u.s, u.e):
			// Standing alone: the sentence before, in its block; a
			// paragraph of its own vouches for the paragraph or block
			// quote just before it.
			pi := ui - 1
			for pi >= 0 && units[pi].block == u.block && !content(units[pi].s, units[pi].e) {
				pi--
			}
			first := pi < 0 || units[pi].block != u.block
			switch {
			case !first:
				s, e = units[pi].s, units[pi].e
			case pi >= 0 && blocks[u.block].kind == paragraph:
				prev := units[pi]
				if k := blocks[prev.block].kind; k == paragraph || k == blockQuote {
					s, e = prev.s, prev.e
					if k == blockQuote {
						s = blocks[prev.block].start
					}
				}
			}
		default:
			if clauses[ui] == nil {
				clauses[ui] = clause(mask, cites, u.s, u.e)
			}
			if r, ok := clauses[ui][ci]; ok {
				s, e = r[0], r[1]
			}
		}
		if s < c.Start-maxClaim {
			s = c.Start - maxClaim
			for s < c.Start && !utf8.RuneStart(mask[s]) {
				s++
			}
		}
		if e > c.End+maxClaim {
			e = c.End + maxClaim
			for e > c.End && e < len(mask) && !utf8.RuneStart(mask[e]) {
				e--
			}
		}
		out[ci] = buildPassage(mask, s, e, cites, quotes, blocks[u.block].kind == blockQuote || quotedBlockAt(blocks, s))
	}
	return out
}

// quotedBlockAt reports whether the byte s starts a block quote.
func quotedBlockAt(blocks []block, s int) bool {
	i := sort.Search(len(blocks), func(i int) bool { return blocks[i].end > s })
	return i < len(blocks) && blocks[i].kind == blockQuote && s >= blocks[i].start
}

// clause narrows a sentence that carries several groups of citations, each
// after words of its own ("A [1], while B [2]."), to the words before each
// citation's group, since the group before it; a group that has fewer
// than two words of its own vouches for the whole sentence. It returns
// the range of each citation (by index) of the sentence mask[s:e].
func clause(mask []byte, cites []citation.Cited, s, e int) map[int][2]int {
	out := map[int][2]int{}
	first := sort.Search(len(cites), func(i int) bool { return cites[i].Start >= s })
	type group struct{ first, last int }
	var groups []group
	for i := first; i < len(cites) && cites[i].Start < e; i++ {
		out[i] = [2]int{s, e}
		if n := len(groups); n > 0 && gap(mask, cites[groups[n-1].last].End, cites[i].Start) {
			groups[n-1].last = i
			continue
		}
		groups = append(groups, group{i, i})
	}
	if len(groups) < 2 {
		return out
	}
	from := s
	for _, g := range groups {
		to := cites[g.first].Start
		if to-from <= maxClaim && contentWords(blankCites(mask, from, to, cites)) >= 2 {
			for i := g.first; i <= g.last; i++ {
				out[i] = [2]int{from, to}
			}
		}
		from = cites[g.last].End
	}
	return out
}

// gap reports whether mask[s:e], between two citations, holds no words
// of its own: they cite one claim.
func gap(mask []byte, s, e int) bool {
	if e-s > maxClaim {
		return false
	}
	return !hasContent(strings.Trim(string(mask[s:e]), " ,;:\n\t"))
}

// blankCites is mask[s:e] with the citations in it blanked.
func blankCites(mask []byte, s, e int, cites []citation.Cited) string {
	b := append([]byte(nil), mask[s:e]...)
	for _, c := range within(cites, max(0, s-maxCitation), e) {
		for i := max(c.Start, s); i < min(c.End, e); i++ {
			b[i-s] = ' '
		}
	}
	return attributionRE.ReplaceAllStringFunc(string(b), func(m string) string {
		return strings.Repeat(" ", len(m))
	})
}

func hasContent(s string) bool { return contentWords(s) > 0 }

// contentWords counts the words of s that are neither stop words nor
// words that name a source.
func contentWords(s string) int {
	n := 0
	for _, w := range text.Words(cleanClaim(s)) {
		if !ignored(w) {
			n++
		}
	}
	return n
}

// buildPassage is the passage mask[s:e]: its words with citations and
// attributions blanked, its quotations (all of it when it is a block
// quote), the link texts of its citations and its attributions.
func buildPassage(mask []byte, s, e int, cites []citation.Cited, quotes [][2]int, quoted bool) passage {
	var p passage
	near := within(cites, max(0, s-maxCitation), e)
	for _, c := range near {
		if c.Start >= s && c.End <= e && strings.TrimSpace(c.Text) != "" {
			p.names = append(p.names, c.Text)
		}
	}
	raw := append([]byte(nil), mask[s:e]...)
	for _, c := range near {
		for i := max(c.Start, s); i < min(c.End, e); i++ {
			raw[i-s] = ' '
		}
	}
	claim := attributionRE.ReplaceAllStringFunc(string(raw), func(m string) string {
		lead := attributionRE.FindStringSubmatch(m)[1]
		p.names = append(p.names, m[len(lead):])
		return lead + strings.Repeat(" ", len(m)-len(lead))
	})
	p.claim = tidy(claim)
	if quoted {
		if q := strings.Join(strings.Fields(claim), " "); q != "" {
			p.quotes = append(p.quotes, strings.Trim(q, `“”"«»‘’„ `))
		}
		return p
	}
	first := sort.Search(len(quotes), func(i int) bool { return quotes[i][0] >= s })
	for _, q := range quotes[first:] {
		if q[0] >= e {
			break
		}
		if q[1] <= e {
			inner := strings.Join(strings.Fields(string(mask[q[0]:q[1]])), " ")
			inner = strings.TrimSpace(strings.Trim(inner, `“”"«»‘’„`))
			if len(text.Split(inner)) >= minQuoteWords {
				p.quotes = append(p.quotes, inner)
			}
		}
	}
	return p
}

var (
	spaceBeforeRE = regexp.MustCompile(`\s+([.,;:!?])`)
	emptyRE       = regexp.MustCompile(`[(\[]\s*[)\]]`)
	doubledRE     = regexp.MustCompile(`[,;:]+([.!?])`)
)

// tidy writes a claim as a sentence once its citations are out: white
// space collapsed, no space before punctuation, no empty brackets.
func tidy(s string) string {
	s = emptyRE.ReplaceAllString(s, "")
	s = strings.Join(strings.Fields(s), " ")
	s = spaceBeforeRE.ReplaceAllString(s, "$1")
	s = doubledRE.ReplaceAllString(s, "$1")
	return strings.TrimLeft(s, ",;: ")
}
