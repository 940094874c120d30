package index

// Pseudo-relevance feedback: a question worded otherwise than its paper
// finds, among its first papers, some that are about what it asks; the
// words those papers share in their titles, abstracts and section titles
// say it in the library's own words, and the first papers are weighed
// again with them.

import (
	"context"
	"fmt"
	"sort"

	"github.com/agentero/agentero/backend/text"
)

// minFeedbackTerms is the fewest terms a query has to be widened: a
// question, not a few keywords or a name.
const minFeedbackTerms = 3

// maxExpanded is how many of the first papers a widened question weighs
// again: those the widening may reorder.
const maxExpanded = 16

// maxFeedbackWords is the most words the first papers share whose rarity
// is looked up to choose the feedback terms.
const maxFeedbackWords = 12

// expand widens a ranking (cs, ordered) with the terms its strongest first
// papers share: the words of the titles, abstracts and section titles of
// its first weights.FeedbackPapers papers that at least two of them hold
// and the query does not, the rarest first, each weighing
// weights.Feedback times its rarity. The first maxExpanded papers get the
// bonus these words give their fields. Only a question of some terms that
// no page holds whole is widened (its best page is of tier 0): one that
// names a paper or quotes a page has found it, and a pasted passage (more
// than maxCandidateTerms terms) holds words enough.
func (r *ranker) expand(ctx context.Context, cs []candidate) error {
	if !r.db.fields || weights.Feedback <= 0 || r.p.stopOnly || r.p.long || len(r.p.terms) < minFeedbackTerms || len(cs) == 0 || cs[0].tier > 0 {
		return nil
	}
	var ids []int64 // the candidates' papers, in their order
	seen := map[int64]bool{}
	for _, c := range cs {
		if !c.file && !seen[c.group] && len(ids) < maxExpanded {
			seen[c.group] = true
			ids = append(ids, c.group)
		}
	}
	top := ids[:min(len(ids), weights.FeedbackPapers)]
	if len(top) < 2 {
		return nil
	}
	words, err := r.feedbackWords(ctx, top)
	if err != nil || len(words) == 0 {
		return err
	}
	idf, err := r.db.idf(ctx, words)
	if err != nil {
		return err
	}
	sort.SliceStable(words, func(i, j int) bool { return idf[words[i]] > idf[words[j]] })
	words = words[:min(len(words), weights.FeedbackTerms)]
	ws := make([]float64, len(words))
	for i, w := range words {
		ws[i] = weights.Feedback * idf[w]
	}
	more := map[int64]float64{}
	if err := r.fieldScores(ctx, ids, words, ws, 1, more); err != nil {
		return err
	}
	addTitles(cs, more)
	return nil
}

// feedbackWords are the words (folded, lower case) of the papers' titles,
// abstracts and section titles that two or more of them hold and the
// query does not, compared by stem: the most held first, then the longest.
func (r *ranker) feedbackWords(ctx context.Context, papers []int64) ([]string, error) {
	rows, err := r.db.sql.QueryContext(ctx, `SELECT p.title || char(10) || p.abstract || char(10) ||
		coalesce((SELECT group_concat(s.title, char(10)) FROM sections s WHERE s.paper_id = p.id), '')
		FROM papers p WHERE p.id IN (`+placeholders(len(papers))+`)`, anys(papers)...)
	if err != nil {
		return nil, fmt.Errorf("feedback: %w", err)
	}
	defer rows.Close()
	query := map[string]bool{}
	for _, w := range r.p.words {
		query[text.Stem(w)] = true
	}
	held := map[string]int{}    // stem: papers that hold it
	word := map[string]string{} // stem: its first word
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("feedback: %w", err)
		}
		mine := map[string]bool{}
		for _, w := range text.Words(s) {
			if len(w) < 3 || text.Stop(w) || isNumber(w) {
				continue
			}
			st := text.Stem(w)
			if query[st] || mine[st] {
				continue
			}
			mine[st] = true
			held[st]++
			if _, ok := word[st]; !ok {
				word[st] = w
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("feedback: %w", err)
	}
	var sts []string
	for st, n := range held {
		if n >= 2 {
			sts = append(sts, st)
		}
	}
	sort.Slice(sts, func(i, j int) bool {
		a, b := sts[i], sts[j]
		if held[a] != held[b] {
			return held[a] > held[b]
		}
		if len(word[a]) != len(word[b]) {
			return len(word[a]) > len(word[b])
		}
		return a < b
	})
	out := make([]string, 0, min(len(sts), maxFeedbackWords))
	for _, st := range sts[:min(len(sts), maxFeedbackWords)] {
		out = append(out, word[st])
	}
	return out, nil
}

// isNumber reports whether w is digits alone.
func isNumber(w string) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
