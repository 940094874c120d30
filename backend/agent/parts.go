package agent

// A question of several parts ("why Merkle trees, and what is their main
// disadvantage?") is answered part by part: the passages chosen for the
// whole question are checked against each part, and a part none of them
// answers as well as a sentence read for the turn gets that sentence.

import (
	"regexp"
	"strings"
)

// partBreak is where a question turns to another: a question mark, or
// "and"/"but"/"also" (after a comma or not) before a question word.
var partBreak = regexp.MustCompile(`(?i)\?+|[,;]?\s+(?:and|but|also|as well as)\s+(?:also\s+)?(?:what|why|how|when|where|which|who|whom|whose|is|are|was|were|does|do|did|can|could|should|would|will)\b`)

// questionParts splits a question into its parts, each with words a
// search can match; a question of one part gives one.
func questionParts(q string) []string {
	var parts []string
	last := 0
	add := func(s string) {
		if s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ",;")); s != "" {
			parts = append(parts, s)
		}
	}
	for _, m := range partBreak.FindAllStringIndex(q, -1) {
		cut := q[m[0]:m[1]]
		add(q[last:m[0]])
		last = m[1]
		if !strings.HasPrefix(cut, "?") {
			// The question word opens the next part.
			fields := strings.Fields(cut)
			last = m[1] - len(fields[len(fields)-1])
		}
	}
	add(q[last:])
	if len(parts) == 0 {
		return []string{q}
	}
	return parts
}

// answerParts adds to out, for each part of a question of several, the
// best sentence read for that part when no chosen passage answers it as
// well; it returns the passages with those added (at most one a part).
func (g *gatherer) answerParts(out []passage, parts []string, pool []string) []passage {
	if len(parts) < 2 {
		return out
	}
	for _, part := range parts {
		sc := newScorer(keywords(part), pool)
		if len(sc.stems) == 0 {
			continue
		}
		var best *pageSource
		bestAt, bestScore, bestMatched := -1, 0.0, 0
		for _, s := range g.sources {
			for i, st := range s.sents {
				if score, matched := sc.score(st.text); score > bestScore {
					best, bestAt, bestScore, bestMatched = s, i, score, matched
				}
			}
		}
		if best == nil || bestMatched < min(2, len(sc.stems)) {
			continue
		}
		sentence := best.sents[bestAt].text
		answered := false
		for _, p := range out {
			if score, _ := sc.score(p.text); strings.Contains(p.text, sentence) || score >= bestScore {
				answered = true
				break
			}
		}
		if answered {
			continue
		}
		from, to := best.grow(sc, bestAt, bestAt+1, [2]int{-1, -1})
		out = append(out, best.passage(best.text(from, to), false, bestScore, bestMatched))
	}
	return out
}
