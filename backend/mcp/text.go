package mcp

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/index"
)

// Text is cut and measured in characters (runes), the unit of the budget.

// chunk is the part [from, to) of a text of total characters.
type chunk struct {
	text            string
	from, to, total int
}

// cut returns up to n characters of r from offset from, ending at a word
// boundary when one is near.
func cut(r []rune, from, n int) chunk {
	from = min(max(from, 0), len(r))
	to := min(from+n, len(r))
	if to < len(r) {
		to = snapBack(r, from, to)
	}
	return chunk{text: string(r[from:to]), from: from, to: to, total: len(r)}
}

// snapBack moves a cut end back to just after whitespace, if whitespace is
// within the last 40 characters.
func snapBack(r []rune, from, to int) int {
	for i := to; i > from && i > to-40; i-- {
		if unicode.IsSpace(r[i-1]) {
			return i
		}
	}
	return to
}

// snapForward moves a cut start forward to just after whitespace, if
// whitespace is within the next 40 characters and before limit.
func snapForward(r []rune, from, limit int) int {
	for i := from; i < len(r) && i < from+40 && i < limit; i++ {
		if unicode.IsSpace(r[i]) {
			return i + 1
		}
	}
	return from
}

// whole reports whether c is all of its text.
func (c chunk) whole() bool { return c.from == 0 && c.to == c.total }

// chars describes a chunk for an agent: "chars 1–20000 of 45000".
func (c chunk) chars() string {
	if c.to == c.from {
		return fmt.Sprintf("chars 0 of %d", c.total)
	}
	return fmt.Sprintf("chars %d–%d of %d", c.from+1, c.to, c.total)
}

// window picks at most n characters of r around the match [ms, me): the
// match in the middle, widened to word boundaries.
func window(r []rune, ms, me, n int) (int, int) {
	if me-ms >= n {
		return ms, ms + n
	}
	pad := (n - (me - ms)) / 2
	from, to := max(0, ms-pad), min(len(r), me+pad)
	if from == 0 {
		to = min(len(r), n)
	}
	if to == len(r) {
		from = max(0, len(r)-n)
	}
	if from > 0 {
		from = snapForward(r, from, ms)
	}
	if to < len(r) {
		to = max(snapBack(r, me, to), me)
	}
	return from, to
}

// marked is a text whose matched tokens the index marked (index.MarkStart,
// MarkEnd): the text with whitespace collapsed and the marks removed, where
// each mark is, and which query term each matched. Marks are attributed to
// the term that shares the longest prefix with the marked words: the index
// marks only tokens whose stem equals a term's, so the prefix only has to
// tell the query's terms apart.
type marked struct {
	plain []rune
	marks []mark
	tf    []int // marks per term
}

type mark struct {
	pos, end, term int
}

func parseMarks(highlighted string, terms []index.Term) marked {
	m := marked{tf: make([]int, len(terms))}
	open, space := -1, false
	for _, r := range highlighted {
		switch {
		case r == rune(index.MarkStart[0]):
			open = len(m.plain)
		case r == rune(index.MarkEnd[0]):
			if open >= 0 {
				t := whichTerm(string(m.plain[open:]), terms)
				m.marks = append(m.marks, mark{open, len(m.plain), t})
				if t >= 0 {
					m.tf[t]++
				}
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

// countMarks counts the marks of each term without keeping the text: what
// ranking needs of every matched page, when only a few become cards.
func countMarks(highlighted string, terms []index.Term) []int {
	tf := make([]int, len(terms))
	for {
		i := strings.Index(highlighted, index.MarkStart)
		if i < 0 {
			return tf
		}
		highlighted = highlighted[i+1:]
		j := strings.Index(highlighted, index.MarkEnd)
		if j < 0 {
			return tf
		}
		if t := whichTerm(highlighted[:j], terms); t >= 0 {
			tf[t]++
		}
		highlighted = highlighted[j+1:]
	}
}

func whichTerm(token string, terms []index.Term) int {
	if len(terms) == 1 {
		return 0
	}
	tw := words(token)
	best, bestScore := -1, 0
	for i, t := range terms {
		score := 0
		for j := 0; j < len(tw) && j < len(t.Words); j++ {
			score += commonPrefix(tw[j], strings.ToLower(t.Words[j]))
		}
		if score > bestScore {
			best, bestScore = i, score
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

// snippet cuts the text to at most n characters around the window that
// holds the most terms in query order side by side (the query as a
// phrase), then the most distinct terms, then the most marks.
func (m marked) snippet(n int) string {
	plain := m.plain
	if len(plain) <= n {
		return strings.TrimSpace(string(plain))
	}
	body := n - 2 // room for the two ellipses
	anchor := 0
	var best [3]int
	for i := range m.marks {
		terms := map[int]bool{}
		var score [3]int
		for j := i; j < len(m.marks) && m.marks[j].pos < m.marks[i].pos+body*2/3; j++ {
			if j > i && m.marks[j].term == m.marks[j-1].term+1 && m.marks[j].pos-m.marks[j-1].end <= 5 {
				score[0]++
			}
			terms[m.marks[j].term] = true
			score[2]++
		}
		score[1] = len(terms)
		if score[0] > best[0] || score[0] == best[0] && (score[1] > best[1] || score[1] == best[1] && score[2] > best[2]) {
			anchor, best = m.marks[i].pos, score
		}
	}
	from := max(0, anchor-body/4)
	to := min(len(plain), from+body)
	from = max(0, to-body)
	if from > 0 {
		from = snapForward(plain, from, anchor)
	}
	if to < len(plain) {
		to = max(snapBack(plain, from, to), from+1)
	}
	s := strings.TrimSpace(string(plain[from:to]))
	if from > 0 {
		s = "…" + s
	}
	if to < len(plain) {
		s += "…"
	}
	return s
}

// folded is a text prepared for finding quotes whatever their case,
// whitespace, hyphenation, ligatures and quotation marks: lower case, with
// no whitespace, hyphens, dashes or quotation marks. pos maps each byte of s to the rune of the original
// text it came from.
type folded struct {
	s   string
	pos []int
}

var ligatures = map[rune]string{'ﬀ': "ff", 'ﬁ': "fi", 'ﬂ': "fl", 'ﬃ': "ffi", 'ﬄ': "ffl", 'ﬅ': "st", 'ﬆ': "st"}

func foldRune(r rune) string {
	switch r {
	case '-', '\u00ad', '‐', '‑', '‒', '–', '—', '−':
		return ""
	case '\'', '"', '‘', '’', '‛', '`', '´', '“', '”', '„', '«', '»':
		return ""
	}
	if unicode.IsSpace(r) {
		return ""
	}
	if l, ok := ligatures[r]; ok {
		return l
	}
	return string(unicode.ToLower(r))
}

func fold(r []rune) folded {
	var b strings.Builder
	pos := make([]int, 0, len(r))
	for i, c := range r {
		f := foldRune(c)
		b.WriteString(f)
		for range len(f) {
			pos = append(pos, i)
		}
	}
	return folded{s: b.String(), pos: pos}
}

func foldString(s string) string {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(foldRune(c))
	}
	return b.String()
}

// find returns the rune span [start, end) of the first occurrence of the
// folded quote q at or after rune offset from, and how many occurrences the
// whole text holds; start is -1 when there is none.
func (f folded) find(q string, from int) (start, end, count int) {
	count = strings.Count(f.s, q)
	if count == 0 || q == "" {
		return -1, -1, count
	}
	off := 0
	for off < len(f.pos) && f.pos[off] < from {
		off++
	}
	i := strings.Index(f.s[off:], q)
	if i < 0 {
		i = strings.Index(f.s, q)
	} else {
		i += off
	}
	return f.pos[i], f.pos[i+len(q)-1] + 1, count
}

// firstWords is the start of a quote for a citation URI: the viewer needs
// only enough to find and highlight it.
func firstWords(s string) string {
	w := strings.Fields(s)
	if len(w) > 10 {
		w = w[:10]
	}
	out := strings.Join(w, " ")
	if r := []rune(out); len(r) > 100 {
		out = string(r[:100])
	}
	return out
}

// words splits s into lower-case words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
