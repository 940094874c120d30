package index

// A paper's parts, weighed apart in every search: its title and authors
// (papers_fts's title column, TitleWeight), its abstract, the titles of
// its sections and the captions of its figures and tables (fields_fts,
// one row per paper), and its text as a whole (papers_fts's text column:
// the pages each word is on). Each adds to every page of its paper a
// bonus within the page's tier, so that a question worded like a paper's
// abstract or headings finds it though no single page holds its words.

import (
	"context"
	"database/sql"
	"fmt"
)

// Weights are the ranking's tuned weights: TestSearchParaphrases measures
// them on testdata/paraphrases.csv, and they were chosen on its tuned-on
// questions alone.
type Weights struct {
	// Fields weigh a term in each column of fields_fts (abstract, section
	// titles, captions) against one on a page.
	Fields []float64
	FieldB float64 // length normalisation of the fields
	// Paper weighs a paper's text as a whole (the pages each term is on)
	// as ranking papers first weighs it.
	Paper float64
	// Feedback weighs the terms the strongest first papers share
	// (pseudo-relevance feedback, expand.go) against the query's own;
	// FeedbackPapers is how many papers they are read from, FeedbackTerms
	// how many are added at most.
	Feedback                      float64
	FeedbackPapers, FeedbackTerms int
}

// weights are the weights every search uses.
var weights = Weights{
	Fields:         []float64{2, 1, 0.25},
	FieldB:         0.5,
	Paper:          0.5,
	Feedback:       0,
	FeedbackPapers: 3,
	FeedbackTerms:  8,
}

// writeFields writes a paper's row of fields_fts from what the index holds
// of it now: its abstract, section titles and captions. A paper without
// pages has no row, as in papers_fts.
func writeFields(ctx context.Context, tx *sql.Tx, id int64, hasPages bool) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM fields_fts WHERE rowid = ?`, id); err != nil {
		return err
	}
	if !hasPages {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO fields_fts (rowid, abstract, heads, captions)
		SELECT p.id, p.abstract,
		  coalesce((SELECT group_concat(title, char(10)) FROM (SELECT title FROM sections WHERE paper_id = p.id ORDER BY ord)), ''),
		  coalesce((SELECT group_concat(caption, char(10)) FROM (SELECT caption FROM figures WHERE paper_id = p.id ORDER BY ord)), '')
		FROM papers p WHERE p.id = ?`, id)
	return err
}

// bonus weighs the papers of ids (nil: every paper of the library) as
// wholes for the query: their title and authors, their fields, and their
// text (weights.Paper). It is what each of their pages adds to its score.
func (r *ranker) bonus(ctx context.Context, ids []int64) (map[int64]float64, error) {
	out, err := r.titles(ctx, ids)
	if err != nil || r.p.stopOnly || ids != nil && len(ids) == 0 {
		return out, err
	}
	if r.db.fields && len(weights.Fields) > 0 {
		words, ws := r.rarest(maxFieldWords)
		if err := r.fieldScores(ctx, ids, words, ws, 1, out); err != nil {
			return nil, err
		}
	}
	if weights.Paper > 0 && r.db.titles {
		if err := r.rankWhole(ctx, ids); err != nil {
			return nil, err
		}
		for _, id := range idsOr(ids, r.ranked) {
			out[id] += weights.Paper * r.ranked[id]
		}
	}
	return out, nil
}

// maxFieldWords is the most words a paper's fields are weighed by: the
// query's rarest. Each is looked up in each paper's row, and a common
// word's list of rows is long to seek in (a question's 8 words: 1.7 ms
// for 8 papers at 10,000) while it weighs little; fewer than 8 lose
// questions of the labelled set (4: hit@1 38 to 33 of 48 tuned-on).
var maxFieldWords = 8

// idsOr is ids, or the keys of m when ids is nil.
func idsOr(ids []int64, m map[int64]float64) []int64 {
	if ids != nil {
		return ids
	}
	out := make([]int64, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	return out
}

// fieldScores adds to out, for each paper of ids (nil: every paper), scale
// times how well its fields hold words, each of the weight in ws.
func (r *ranker) fieldScores(ctx context.Context, ids []int64, words []string, ws []float64, scale float64, out map[int64]float64) error {
	if len(words) == 0 {
		return nil
	}
	args := []any{weights.FieldB, len(weights.Fields)}
	for _, w := range weights.Fields {
		args = append(args, w)
	}
	for _, w := range ws {
		args = append(args, w)
	}
	q := `SELECT rowid, -agentero_field_rank(fields_fts, ` + placeholders(len(args)) + `) FROM fields_fts WHERE fields_fts MATCH ?`
	args = append(args, wordsExpr(words))
	if err := r.perPaper(ctx, q, args, ids, func(id int64, s float64) { out[id] += scale * s }); err != nil {
		return fmt.Errorf("rank fields: %w", err)
	}
	return nil
}

// perPaper runs q (a statement of rowid and score over an FTS5 table) for
// the papers of ids, one rowid at a time (FTS5 seeks to a rowid, where
// rowid IN (...) reads every row that holds a word), or for every paper
// in one pass when ids is nil or holds more than rankAll papers, and
// hands each row of ids to add.
func (r *ranker) perPaper(ctx context.Context, q string, args []any, ids []int64, add func(int64, float64)) error {
	read := func(rows *sql.Rows, err error) error {
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var s float64
			if err := rows.Scan(&id, &s); err != nil {
				return err
			}
			add(id, s)
		}
		return rows.Err()
	}
	if ids == nil {
		return read(r.db.sql.QueryContext(ctx, q, args...))
	}
	if len(ids) > rankAll {
		// many papers (a large folder while papers_fts is filled): one
		// pass, keeping theirs
		in := make(map[int64]bool, len(ids))
		for _, id := range ids {
			in[id] = true
		}
		all := add
		add = func(id int64, s float64) {
			if in[id] {
				all(id, s)
			}
		}
		return read(r.db.sql.QueryContext(ctx, q, args...))
	}
	stmt, err := r.db.sql.PrepareContext(ctx, q+` AND rowid = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	args = append(args, 0)
	for _, id := range ids {
		args[len(args)-1] = id
		if err := read(stmt.QueryContext(ctx, args...)); err != nil {
			return err
		}
	}
	return nil
}

// rankWhole ranks the papers of ids (nil: every paper) by their text as
// a paper-first search ranks them (paperLists), unless a paper-first
// search has: every way of ranking weighs a paper's text alike.
func (r *ranker) rankWhole(ctx context.Context, ids []int64) error {
	if r.ranked != nil {
		return nil
	}
	r.ranked = map[int64]float64{}
	for _, l := range r.paperLists() {
		if ids == nil {
			got, err := r.rankPapers(ctx, l, nil, 0, maxRankedPapers)
			if err != nil {
				return err
			}
			for _, p := range got {
				r.ranked[p.id] = p.score
			}
			continue
		}
		q, args := r.paperRank(l)
		if err := r.perPaper(ctx, q, args, ids, func(id int64, s float64) { r.ranked[id] = s }); err != nil {
			return fmt.Errorf("rank papers: %w", err)
		}
	}
	return nil
}

// wordsExpr is words as an FTS5 expression that matches any of them.
func wordsExpr(words []string) string {
	expr := ""
	for i, w := range words {
		if i > 0 {
			expr += " OR "
		}
		expr += phrase([]string{w})
	}
	return expr
}
