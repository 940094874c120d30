package mcp

import (
	"fmt"

	"github.com/agentero/agentero/backend/text"
)

// Text is cut and measured in characters (runes), the unit of the budget,
// as they are sent: in JSON, where a newline or a quote takes two.

// chunk is the part [from, to) of a text of total characters.
type chunk struct {
	text            string
	from, to, total int
}

// cut returns the characters of r from offset from that take up to n
// characters in JSON, ending at a word boundary when one is near.
func cut(r []rune, from, n int) chunk {
	from = min(max(from, 0), len(r))
	to := from
	for w := 0; to < len(r); to++ {
		if w += jsonWidth(r[to]); w > n {
			break
		}
	}
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

// jsonWidth is how many characters r takes in a JSON string as marshal
// writes it.
func jsonWidth(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		return 2
	case r < 0x20 || r == '\u2028' || r == '\u2029':
		return 6 // \u00XX
	}
	return 1
}
