package index

import (
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// marked is a text whose matched tokens FTS5's highlight() marked: the text
// with white space collapsed and the marks taken out, and where they were.
type marked struct {
	plain []rune
	marks []mark
}

// mark is one marked span of plain, [pos, end), and the query term it
// matched (-1 when none can be told).
type mark struct {
	pos, end int
	term     int
}

func parseMarks(highlighted string, terms []text.Term) marked {
	var m marked
	m.plain = make([]rune, 0, len(highlighted))
	firsts := make([]string, len(terms)) // each term's first word, folded
	for i, t := range terms {
		firsts[i] = text.Fold(t.Words[0])
	}
	open, space := -1, false
	for _, r := range highlighted {
		switch {
		case r == rune(MarkStart[0]):
			if space {
				m.plain = append(m.plain, ' ')
				space = false
			}
			open = len(m.plain)
		case r == rune(MarkEnd[0]):
			if open >= 0 {
				m.marks = append(m.marks, mark{pos: open, end: len(m.plain), term: whichTerm(m.plain[open:], firsts)})
				open = -1
			}
		case unicode.IsSpace(r):
			space = len(m.plain) > 0
		default:
			if space {
				m.plain = append(m.plain, ' ')
				space = false
			}
			m.plain = append(m.plain, r)
		}
	}
	return m
}

// whichTerm attributes a marked token to the query term whose first word
// (firsts, folded) shares the longest prefix with it. FTS5 marks only
// tokens whose stem is a term's, so the prefix only has to tell the terms
// apart.
func whichTerm(token []rune, firsts []string) int {
	if len(firsts) == 1 {
		return 0
	}
	var word []rune
	for _, r := range token {
		if !text.IsWordRune(r) {
			break
		}
		word = text.AppendFold(word, r)
	}
	w := string(word)
	best, bestLen := -1, 0
	for i, f := range firsts {
		if n := commonPrefix(w, f); n > bestLen {
			best, bestLen = i, n
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// snippet cuts a highlighted page or file to at most n characters (marks
// not counted) around the place that holds the most of the query: the most
// terms standing as they stand in the query (places: where each term
// stands among its words), then the most distinct terms, then the most
// marks. The marks stay; "…" shows where text was cut. quote is the
// snippet's words as the page has them (white space collapsed), from its
// first letter or digit to its last, without marks or ellipses: what the
// locator finds on the page, and the viewer marks, when the hit is opened.
func snippet(highlighted string, terms []text.Term, places []int, n int) (snip, quote string) {
	m := parseMarks(highlighted, terms)
	plain := m.plain
	if len(plain) <= n {
		return m.render(0, len(plain)), m.quote(0, len(plain))
	}
	body := max(n-2, 1) // room for the two ellipses
	anchor := 0
	var best [3]int
	for i := range m.marks {
		seen := map[int]bool{}
		var score [3]int
		for j := i; j < len(m.marks) && m.marks[j].pos < m.marks[i].pos+body*2/3; j++ {
			if j > i && inPlace(m.marks[j-1], m.marks[j], places) {
				score[0]++
			}
			seen[m.marks[j].term] = true
			score[2]++
		}
		score[1] = len(seen)
		if score[0] > best[0] || score[0] == best[0] && (score[1] > best[1] || score[1] == best[1] && score[2] > best[2]) {
			anchor, best = m.marks[i].pos, score
		}
	}
	from := max(0, anchor-body/4)
	to := min(len(plain), from+body)
	from = max(0, to-body)
	if from > 0 {
		from = text.SnapForward(plain, from, anchor)
	}
	if to < len(plain) {
		to = max(text.SnapBack(plain, from, to), from+1)
	}
	s := m.render(from, to)
	if from > 0 {
		s = "…" + s
	}
	if to < len(plain) {
		s += "…"
	}
	return s, m.quote(from, to)
}

// quote is the words of the part of plain[from:to] between ellipses that
// holds the most marks, the longest of those that hold as many.
func (m marked) quote(from, to int) string {
	best, bestFrom, bestTo := -1, from, from
	start := from
	for i := from; i <= to; i++ {
		n := 0
		switch {
		case i == to:
		case m.plain[i] == '…':
			n = 1
		case i+3 <= to && string(m.plain[i:i+3]) == "...":
			n = 3
		default:
			continue
		}
		marks := 0
		for _, k := range m.marks {
			if k.pos >= start && k.end <= i {
				marks++
			}
		}
		if marks > best || marks == best && i-start > bestTo-bestFrom {
			best, bestFrom, bestTo = marks, start, i
		}
		if i == to {
			break
		}
		for i+n < to && m.plain[i+n] == '.' {
			n++
		}
		start = i + n
		i = start - 1
	}
	return m.words(bestFrom, bestTo)
}

// words is plain[from:to] from its first letter or digit to its last.
func (m marked) words(from, to int) string {
	for from < to && !text.IsWordRune(m.plain[from]) {
		from++
	}
	for to > from && !text.IsWordRune(m.plain[to-1]) {
		to--
	}
	return string(m.plain[from:to])
}

// inPlace reports whether mark b follows mark a as its term follows a's in
// the query: later in the query, and about as many words further on.
func inPlace(a, b mark, places []int) bool {
	if a.term < 0 || b.term < 0 || a.term >= len(places) || b.term >= len(places) {
		return false
	}
	words := places[b.term] - places[a.term]
	return words > 0 && b.pos-a.end <= 8*words
}

// render writes plain[from:to] with its marks, trimmed.
func (m marked) render(from, to int) string {
	var b strings.Builder
	at := from
	for _, k := range m.marks {
		s, e := max(k.pos, from), min(k.end, to)
		if s >= e {
			continue
		}
		b.WriteString(string(m.plain[at:s]))
		b.WriteString(MarkStart)
		b.WriteString(string(m.plain[s:e]))
		b.WriteString(MarkEnd)
		at = e
	}
	b.WriteString(string(m.plain[at:to]))
	return strings.TrimSpace(b.String())
}
