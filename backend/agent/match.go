package agent

// Finding a selection in its page, and scoring sentences against the
// question by their words.

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/text"
)

// locate finds a selection in a page through the one locator (package
// quote): the byte span of the page that holds it, however either was
// spaced, hyphenated at line ends or cased. A selection whose middle
// differs from the page's text (a viewer's text layer is not the index's)
// is found by its first and last words, in order and not far apart.
func locate(page, sel string) (int, int, bool) {
	p := quote.NewPaper([]quote.Page{{Number: 1, Text: page}})
	if m, ok := p.Find(1, sel); ok {
		from, to := extent(m)
		return byteOffsets(page, from, to)
	}
	words := strings.Fields(sel)
	if len(words) < 8 {
		return 0, 0, false
	}
	k := min(6, len(words))
	head, tail := strings.Join(words[:k], " "), strings.Join(words[len(words)-k:], " ")
	reach := utf8.RuneCountInString(sel)*3/2 + 40 // how far the last words may be from the first
	for from := 0; ; {
		h, ok := p.FindFrom(1, from, head)
		if !ok {
			return 0, 0, false
		}
		hFrom, hTo := extent(h)
		if t, ok := p.FindFrom(1, hTo, tail); ok {
			if _, tTo := extent(t); tTo-hFrom <= reach {
				return byteOffsets(page, hFrom, tTo)
			}
		}
		from = hFrom + 1
	}
}

// extent is the rune span of a match on its one page: from its first
// character to its last.
func extent(m quote.Match) (int, int) {
	from, to := m.Spans[0].From, m.Spans[0].To
	for _, s := range m.Spans[1:] {
		from, to = min(from, s.From), max(to, s.To)
	}
	return from, to
}

// byteOffsets turns the rune span [from, to) of s into a byte span.
func byteOffsets(s string, from, to int) (int, int, bool) {
	b, n := -1, 0
	for i := range s {
		if n == from {
			b = i
		}
		if n == to {
			return b, i, b >= 0
		}
		n++
	}
	if n == to && b >= 0 {
		return b, len(s), true
	}
	return 0, 0, false
}

// stem cuts the commonest English endings, so that "elects", "elected"
// and "election" meet "elect".
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "ed", "es", "s", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if suf == "ies" || suf == "ied" {
				w += "y"
			}
			return w
		}
	}
	return w
}

// sameWord reports whether two stems are one word: equal, or one a short
// extension of the other ("encod", "encode").
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < 4 || len(b) < 4 || abs(len(a)-len(b)) > 2 {
		return false
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

func abs(n int) int { return max(n, -n) }

// scorer scores sentences by the question's words they hold, each word
// weighted by how rare it is among the sentences read for the turn.
type scorer struct {
	stems  []string
	weight []float64
	df     []int // sentences of the pool that hold each word
}

// newScorer makes a scorer for the question's search words over a pool of
// sentences.
func newScorer(query string, pool []string) scorer {
	var sc scorer
	seen := map[string]bool{}
	for _, w := range text.Words(query) {
		s := stem(w)
		if len(w) < 2 || seen[s] {
			continue
		}
		seen[s] = true
		sc.stems = append(sc.stems, s)
	}
	df := make([]int, len(sc.stems))
	for _, sent := range pool {
		for i, hit := range sc.hits(sent) {
			if hit {
				df[i]++
			}
		}
	}
	for i := range sc.stems {
		sc.weight = append(sc.weight, math.Log(1+float64(len(pool)+1)/(float64(df[i])+0.5)))
	}
	sc.df = df
	return sc
}

// total is what the question's words weigh together, leaving out those
// that no sentence read holds: a question's own wording ("explain", "on
// which page") is not held against a passage.
func (sc scorer) total() float64 {
	var t float64
	for i, w := range sc.weight {
		if sc.df[i] > 0 {
			t += w
		}
	}
	return t
}

// hits says which of the question's words a text holds.
func (sc scorer) hits(s string) []bool {
	out := make([]bool, len(sc.stems))
	for _, w := range text.Words(s) {
		s := stem(w)
		for i, q := range sc.stems {
			if !out[i] && sameWord(s, q) {
				out[i] = true
			}
		}
	}
	return out
}

// score returns a text's score and how many of the question's words it
// holds. Two of them side by side, as in the question, count a little more.
func (sc scorer) score(s string) (float64, int) {
	toks := text.Words(s)
	var total float64
	matched := 0
	seen := make([]bool, len(sc.stems))
	prev := -1
	for _, w := range toks {
		s := stem(w)
		cur := -1
		for i, q := range sc.stems {
			if sameWord(s, q) {
				cur = i
				break
			}
		}
		if cur >= 0 && !seen[cur] {
			seen[cur] = true
			total += sc.weight[cur]
			matched++
		}
		if cur >= 0 && prev >= 0 && cur == prev+1 {
			total += sc.weight[cur] / 2
		}
		prev = cur
	}
	// Very short and very long sentences say less per word read.
	if n := len(toks); n < 8 || n > 60 {
		total *= 0.8
	}
	return total, matched
}
