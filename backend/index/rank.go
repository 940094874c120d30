package index

/*
#cgo LDFLAGS: -lm
#include "rank.h"
*/
import "C"

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// registerRank makes agentero_paper_rank and agentero_page_rank (see
// rank.c) available on every SQLite connection opened from now on. Open
// calls it before its first connection.
var registerRank = sync.OnceValue(func() error {
	if rc := C.agenteroRegisterRank(); rc != 0 {
		return fmt.Errorf("register agentero ranking: sqlite error %d", int(rc))
	}
	return nil
})

// tierUnit is rank.c's TIER: agentero_page_rank returns -(tier*tierUnit + score).
const tierUnit = 1e9

// maxTogether is the most words a paper-first search looks for together on
// one page (agentero_paper_rank's together): beyond it, pages rarely hold
// them all and collecting their offsets costs more than it tells.
const maxTogether = 4

// ranker ranks the pages, text files and papers that match one plan.
type ranker struct {
	db *DB
	p  *plan
	// ranked are the papers a paper-first search ranked (or rankWhole),
	// with their scores: their text's weight as wholes (bonus), which a
	// statement of its own would cost tens of ms at 10,000 papers
	ranked map[int64]float64
}

// rank is the rank expression of pages or files (table) and its
// arguments: agentero_page_rank with b, the query's shape and a weight per
// term; 0 for a query of stop words alone, whose matches are taken in
// index order.
func (r *ranker) rank(table string) (string, []any) {
	if r.p.stopOnly {
		return "0", nil
	}
	args := []any{pageB, r.p.shape}
	for _, w := range r.p.weights {
		args = append(args, w)
	}
	return "agentero_page_rank(" + table + ", " + placeholders(len(args)) + ")", args
}

// titleArgs are agentero_paper_rank's arguments after the table for
// weighing titles alone: no length, no nearness, the title weight, a weight
// per word.
func (r *ranker) titleArgs() (string, []any) {
	args := []any{0, 0, 0, TitleWeight}
	for _, w := range r.p.wordW {
		args = append(args, w)
	}
	return placeholders(len(args)), args
}

func (r *ranker) decode(rank float64) (tier int, score float64) {
	v := -rank
	tier = int(v / tierUnit)
	return tier, v - float64(tier)*tierUnit
}

// files ranks the scope's text files that match expr.
func (r *ranker) files(ctx context.Context, sc *resolved, expr string) ([]candidate, error) {
	if sc.files == "" {
		return nil, nil
	}
	rank, args := r.rank("files_fts")
	args = append(append(append(args, expr), sc.args...), maxMatches)
	rows, err := r.db.sql.QueryContext(ctx, `SELECT f.id, `+rank+`
		FROM files_fts CROSS JOIN files f ON f.id = files_fts.rowid
		WHERE files_fts MATCH ? AND `+sc.files+` LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("rank files: %w", err)
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var id int64
		var rank float64
		if err := rows.Scan(&id, &rank); err != nil {
			return nil, fmt.Errorf("rank files: %w", err)
		}
		c := candidate{rowid: id, file: true, group: -id}
		c.tier, c.score = r.decode(rank)
		out = append(out, c)
	}
	return out, rows.Err()
}

// titles weighs the papers (of ids; of the whole library for nil) whose
// title or authors hold the query's words: the bonus their pages get, as
// agentero_paper_rank gives it.
func (r *ranker) titles(ctx context.Context, ids []int64) (map[int64]float64, error) {
	out := map[int64]float64{}
	if ids != nil && len(ids) == 0 || !r.db.titles || r.p.stopOnly {
		return out, nil
	}
	ph, args := r.titleArgs()
	q := `SELECT rowid, -agentero_paper_rank(papers_fts, ` + ph + `) FROM papers_fts WHERE papers_fts MATCH ?`
	args = append(args, "{title} : ("+r.p.paperExpr+")")
	if err := r.perPaper(ctx, q, args, ids, func(id int64, s float64) { out[id] = s }); err != nil {
		return nil, fmt.Errorf("rank titles: %w", err)
	}
	return out, nil
}

// pages ranks every page of papers that matches expr, one paper at a
// time: FTS5 seeks to each paper's span of page ids, so this costs what the
// papers hold, not what the library holds.
func (r *ranker) pages(ctx context.Context, papers []paperSpan, batch int, expr string) ([]candidate, error) {
	if len(papers) == 0 {
		return nil, nil
	}
	rank, args := r.rank("pages_fts")
	stmt, err := r.db.sql.PrepareContext(ctx, `SELECT rowid, `+rank+` FROM pages_fts
		WHERE pages_fts MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?`)
	if err != nil {
		return nil, fmt.Errorf("rank pages: %w", err)
	}
	defer stmt.Close()
	args = append(args, expr, 0, 0, maxMatches)
	var out []candidate
	for _, sp := range papers {
		args[len(args)-3], args[len(args)-2] = sp.lo, sp.hi
		found, err := r.scan(stmt.QueryContext(ctx, args...))
		if err != nil {
			return nil, fmt.Errorf("rank pages: %w", err)
		}
		for _, c := range found {
			c.group, c.batch = sp.id, batch
			out = append(out, c)
		}
	}
	return out, nil
}

// addTitles adds to each page its paper's title bonus.
func addTitles(cs []candidate, titles map[int64]float64) {
	if len(titles) == 0 {
		return
	}
	for i := range cs {
		if !cs[i].file {
			cs[i].score += titles[cs[i].group]
		}
	}
}

// scan reads rows of (rowid, agentero_page_rank) and closes them.
func (r *ranker) scan(rows *sql.Rows, err error) ([]candidate, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		var rank float64
		if err := rows.Scan(&c.rowid, &rank); err != nil {
			return nil, err
		}
		c.tier, c.score = r.decode(rank)
		out = append(out, c)
	}
	return out, rows.Err()
}

// paperFirst ranks the pages of the best papers, batch by batch, until
// the first rounds hold need hits or no paper is left. The papers come
// ranked by agentero_paper_rank: first those that hold every word of the
// query (only their pages can hold every term), then those that hold some.
// Batches hold firstBatch papers, then firstBatch again, then twice as
// many as the one before: the same papers whatever need is, so that a
// later call (a cursor) sees the same first batches.
//
// It returns the text files of the scope too, and whether papers were left
// unranked.
func (r *ranker) paperFirst(ctx context.Context, sc *resolved, need, perPaper int) ([]candidate, bool, error) {
	out, err := r.files(ctx, sc, r.p.pageExpr)
	if err != nil {
		return nil, false, err
	}
	lists := r.paperLists()
	r.ranked = map[int64]float64{}
	var ranked []int64
	list, at := 0, 0 // the list being read, and how far
	fill := func(n int) error {
		for len(ranked) < n && list < len(lists) {
			got, err := r.rankPapers(ctx, lists[list], sc.ids, at, rankChunk)
			if err != nil {
				return err
			}
			for _, p := range got {
				ranked = append(ranked, p.id)
				r.ranked[p.id] = p.score
			}
			at += len(got)
			if len(got) < rankChunk {
				list, at = list+1, 0
			}
		}
		return nil
	}
	start, size := 0, firstBatch
	for batch := 0; ; batch++ {
		if err := fill(start + size); err != nil {
			return nil, false, err
		}
		ids := ranked[start:min(start+size, len(ranked))]
		if len(ids) == 0 {
			return out, false, nil
		}
		spans, err := r.spansOf(ctx, ids)
		if err != nil {
			return nil, false, err
		}
		titles, err := r.bonus(ctx, ids)
		if err != nil {
			return nil, false, err
		}
		found, err := r.pages(ctx, spans, batch, r.p.pageExpr)
		if err != nil {
			return nil, false, err
		}
		addTitles(found, titles)
		out = append(out, found...)
		start += len(ids)
		if firstRound(out, perPaper) >= need {
			left := start < len(ranked) || list < len(lists)
			return out, left, nil
		}
		if batch > 0 {
			size *= 2
		}
	}
}

// firstRound counts the hits of the first round: up to perPaper a group.
func firstRound(cs []candidate, perPaper int) int {
	per := map[int64]int{}
	n := 0
	for _, c := range cs {
		if per[c.group] < perPaper {
			per[c.group]++
			n++
		}
	}
	return n
}

// rankChunk is how many papers one ranking of papers_fts returns: ranking
// costs a pass over the query's words however many are returned.
const rankChunk = 64

// paperList is a papers_fts expression and the weights of its phrases.
type paperList struct {
	expr     string
	unranked bool // in index order
	together bool
	weights  []float64
	title    float64 // the weight of the words in a paper's title and authors
	b        float64 // length normalisation: 0 spares reading each paper's length
	avgPages float64 // the library's pages per paper, for b
}

// paperLists are the lists papers are ranked in: every word, then some
// words (one list for a query of one word). A query of stop words alone
// takes the papers that hold them all in index order.
func (r *ranker) paperLists() []paperList {
	ws, wordW := r.p.words, r.p.wordW
	if !r.p.stopOnly {
		ws, wordW = r.paperWords()
	}
	words := make([]string, len(ws))
	for i, w := range ws {
		words[i] = phrase([]string{w})
	}
	and := strings.Join(words, " AND ")
	if r.p.stopOnly {
		// Words on nearly every page of every paper: ranking the papers
		// would cost a pass over all of them and tell little.
		return []paperList{{expr: and, unranked: true}}
	}
	if len(words) == 1 {
		return []paperList{{expr: words[0], weights: wordW, title: TitleWeight}}
	}
	// The phrases after NOT are found in no row of the list: weight 0.
	some := append(append([]float64{}, wordW...), make([]float64, len(words))...)
	return []paperList{
		{expr: and, together: len(words) <= maxTogether, weights: wordW, title: TitleWeight},
		{expr: "(" + strings.Join(words, " OR ") + ") NOT (" + and + ")", weights: some, title: TitleWeight},
	}
}

// maxPaperWords is the most words papers are ranked by as wholes (their
// text and their fields): the query's rarest. Ranking papers costs a pass
// over every paper that holds one of the words, and the commonest are on
// nearly all of them while weighing least (a question of 12 terms: 11 ms
// of CPU at 10,000 papers with all, 6 ms with 8).
var maxPaperWords = 8

// paperWords are the words papers are ranked by, with their weights: the
// query's maxPaperWords rarest, in the query's order.
func (r *ranker) paperWords() ([]string, []float64) { return r.rarest(maxPaperWords) }

// rarest are the query's n rarest words, with their weights, in the
// query's order.
func (r *ranker) rarest(n int) ([]string, []float64) {
	if len(r.p.words) <= n {
		return r.p.words, r.p.wordW
	}
	at := make([]int, len(r.p.words))
	for i := range at {
		at[i] = i
	}
	sort.SliceStable(at, func(i, j int) bool { return r.p.wordW[at[i]] > r.p.wordW[at[j]] })
	at = at[:n]
	sort.Ints(at)
	words, ws := make([]string, len(at)), make([]float64, len(at))
	for i, k := range at {
		words[i], ws[i] = r.p.words[k], r.p.wordW[k]
	}
	return words, ws
}

// spansOf returns the spans of page ids of papers, in the order given.
func (r *ranker) spansOf(ctx context.Context, ids []int64) ([]paperSpan, error) {
	at := map[int64]int{}
	for i, id := range ids {
		at[id] = i
	}
	spans, err := r.db.spans(ctx, `SELECT paper_id, min(id), max(id) FROM pages WHERE paper_id IN (`+placeholders(len(ids))+`)
		GROUP BY paper_id`, anys(ids)...)
	if err != nil {
		return nil, fmt.Errorf("rank papers: %w", err)
	}
	sort.Slice(spans, func(i, j int) bool { return at[spans[i].id] < at[spans[j].id] })
	return spans, nil
}

// rankedPaper is a paper and its score.
type rankedPaper struct {
	id    int64
	score float64
}

// rankPapers ranks the papers of a list (only those of ids, when given) by
// agentero_paper_rank and returns papers from..from+n, best first.
func (r *ranker) rankPapers(ctx context.Context, l paperList, ids []int64, from, n int) ([]rankedPaper, error) {
	if l.unranked {
		q, args := `SELECT rowid, 0 FROM papers_fts WHERE papers_fts MATCH ?`, []any{l.expr}
		if ids != nil {
			q += ` AND rowid IN (` + placeholders(len(ids)) + `)`
			args = append(args, anys(ids)...)
		}
		return scanPapers(r.db.sql.QueryContext(ctx, q+` ORDER BY rowid LIMIT ? OFFSET ?`, append(args, n, from)...))
	}
	q, args := r.paperRank(l)
	if ids != nil {
		q += ` AND rowid IN (` + placeholders(len(ids)) + `)`
		args = append(args, anys(ids)...)
	}
	return scanPapers(r.db.sql.QueryContext(ctx, q+` ORDER BY score DESC, rowid LIMIT ? OFFSET ?`, append(args, n, from)...))
}

// paperRank is the statement that ranks the papers of a ranked list
// (rowid and score), and its arguments.
func (r *ranker) paperRank(l paperList) (string, []any) {
	args := []any{l.b, l.avgPages, 0, l.title}
	if l.together {
		args[2] = 1
	}
	for _, w := range l.weights {
		args = append(args, w)
	}
	q := `SELECT rowid, -agentero_paper_rank(papers_fts, ` + placeholders(len(args)) + `) AS score FROM papers_fts WHERE papers_fts MATCH ?`
	return q, append(args, l.expr)
}

// scanPapers reads rows of (rowid, score) and closes them.
func scanPapers(rows *sql.Rows, err error) ([]rankedPaper, error) {
	if err != nil {
		return nil, fmt.Errorf("rank papers: %w", err)
	}
	defer rows.Close()
	var out []rankedPaper
	for rows.Next() {
		var p rankedPaper
		if err := rows.Scan(&p.id, &p.score); err != nil {
			return nil, fmt.Errorf("rank papers: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PaperScore is a library paper and how well it matches a query.
type PaperScore struct {
	Ref   string
	Score float64
}

// RankPapers ranks the papers of q's scope as a search of a large library
// does before it ranks pages, by the pages that hold each of the query's
// words, weighed by the words' rarity (and q.Boost), with two differences:
// a paper's count of pages is weighed against its length (its number of
// pages), so that a long paper that mentions everything does not win; and
// titles get no bonus, since a query made of a paper's own words (related
// papers) holds its title already. It returns q.Limit papers (at most
// maxRankedPapers) from q.Offset, best first.
func (db *DB) RankPapers(ctx context.Context, q Query) ([]PaperScore, error) {
	limit := min(q.Limit, maxRankedPapers)
	q = q.withDefaults()
	if limit > 0 {
		q.Limit = limit // past a search's MaxLimit
	}
	p, err := db.plan(ctx, q)
	if err != nil || p == nil {
		return nil, err
	}
	if !db.paperTextReady(ctx) {
		return nil, nil
	}
	sc, err := db.resolve(ctx, q.Scope)
	if err != nil {
		return nil, err
	}
	if !sc.many && !sc.all {
		sc.ids = []int64{}
		for _, sp := range sc.papers {
			sc.ids = append(sc.ids, sp.id)
		}
	}
	r := &ranker{db: db, p: p}
	words := make([]string, len(p.words))
	for i, w := range p.words {
		words[i] = phrase([]string{w})
	}
	l := paperList{expr: strings.Join(words, " OR "), weights: p.wordW}
	if db.titles { // papers_fts has each paper's pages (an index opened read-only may predate them)
		l.b = rankPapersB
		if err := db.sql.QueryRowContext(ctx, `SELECT coalesce(avg(page_count), 0) FROM papers WHERE page_count > 0`).Scan(&l.avgPages); err != nil {
			return nil, fmt.Errorf("rank papers: %w", err)
		}
	}
	ranked, err := r.rankPapers(ctx, l, sc.ids, q.Offset, q.Limit)
	if err != nil || len(ranked) == 0 {
		return nil, err
	}
	ids := make([]int64, len(ranked))
	for i, p := range ranked {
		ids[i] = p.id
	}
	refs := map[int64]string{}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, ref FROM papers WHERE id IN (`+placeholders(len(ids))+`)`, anys(ids)...)
	if err != nil {
		return nil, fmt.Errorf("rank papers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var ref string
		if err := rows.Scan(&id, &ref); err != nil {
			return nil, fmt.Errorf("rank papers: %w", err)
		}
		refs[id] = ref
	}
	out := make([]PaperScore, 0, len(ranked))
	for _, p := range ranked {
		if ref, ok := refs[p.id]; ok {
			out = append(out, PaperScore{Ref: ref, Score: p.score})
		}
	}
	return out, rows.Err()
}

// maxRankedPapers is the most papers RankPapers returns at once.
const maxRankedPapers = 1000

// rankPapersB is RankPapers' length normalisation: a paper of many pages
// holds many words, so without it long papers would be close to all.
const rankPapersB = 0.75

// library ranks the pages of the whole library (of the papers of ids,
// when given) that match expr, in one statement: for a small library,
// every one of them; while papers_fts is being filled (an index being
// upgraded), the best maxMatches. A query of stop words alone reads its
// pages in index order, where a paper's pages are next to each other, and
// stops once the first round holds need hits; the second result says so.
func (r *ranker) library(ctx context.Context, ids []int64, expr string, need, perPaper int) ([]candidate, bool, error) {
	rank, args := r.rank("pages_fts")
	q := `SELECT f.rowid, pg.paper_id, ` + rank + ` AS r
		FROM pages_fts f CROSS JOIN pages pg ON pg.id = f.rowid WHERE pages_fts MATCH ?`
	args = append(args, expr)
	if ids != nil {
		q += ` AND pg.paper_id IN (` + placeholders(len(ids)) + `)`
		args = append(args, anys(ids)...)
	}
	order := ` ORDER BY r, f.rowid LIMIT ?`
	if r.p.stopOnly {
		order = ` ORDER BY f.rowid LIMIT ?`
	}
	rows, err := r.db.sql.QueryContext(ctx, q+order, append(args, maxMatches)...)
	if err != nil {
		return nil, false, fmt.Errorf("rank pages: %w", err)
	}
	defer rows.Close()
	var out []candidate
	per := map[int64]int{}
	first := 0 // hits of the first round so far
	for rows.Next() {
		var c candidate
		var rank float64
		if err := rows.Scan(&c.rowid, &c.group, &rank); err != nil {
			return nil, false, fmt.Errorf("rank pages: %w", err)
		}
		if r.p.stopOnly && first >= need && per[c.group] == 0 {
			return out, true, nil // a later paper: its hits come after
		}
		c.tier, c.score = r.decode(rank)
		out = append(out, c)
		if per[c.group] < perPaper {
			first++
		}
		per[c.group]++
	}
	return out, false, rows.Err()
}
