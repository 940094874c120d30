package mcp

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
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
		to = text.SnapBack(r, from, to)
	}
	return chunk{text: string(r[from:to]), from: from, to: to, total: len(r)}
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
		from = text.SnapForward(r, from, ms)
	}
	if to < len(r) {
		to = max(text.SnapBack(r, me, to), me)
	}
	return from, to
}

// folded is a text prepared for finding quotes whatever their case,
// diacritics, whitespace, hyphenation, ligatures and quotation marks: folded
// as text.Fold folds, with no whitespace, hyphens, dashes or quotation
// marks. pos maps each byte of s to the rune of the original text it came
// from.
type folded struct {
	s   string
	pos []int
}

// dropped are the runes quotes are found without: hyphens, dashes and
// quotation marks (white space too).
func dropped(r rune) bool {
	switch r {
	case '-', '\u00ad', '‐', '‑', '‒', '–', '—', '−',
		'\'', '"', '‘', '’', '‛', '`', '´', '“', '”', '„', '«', '»':
		return true
	}
	return unicode.IsSpace(r)
}

func fold(r []rune) folded {
	var b strings.Builder
	pos := make([]int, 0, len(r))
	var buf []rune
	for i, c := range r {
		if dropped(c) {
			continue
		}
		buf = text.AppendFold(buf[:0], c)
		for _, f := range buf {
			n, _ := b.WriteRune(f)
			for range n {
				pos = append(pos, i)
			}
		}
	}
	return folded{s: b.String(), pos: pos}
}

func foldString(s string) string { return fold([]rune(s)).s }

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
