package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Snippet markers: a matched term sits between MarkStart and MarkEnd.
// Control characters never survive text normalisation, so they cannot
// occur in indexed text.
const (
	MarkStart = "\x02"
	MarkEnd   = "\x03"
)

// Hit is one page that matches a search.
type Hit struct {
	Ref         string  `json:"ref"`
	Title       string  `json:"title"`
	Page        int     `json:"page"`
	PageLabel   string  `json:"pageLabel"`
	Snippet     string  `json:"snippet"`
	CitationURI string  `json:"citationUri"`
	Score       float64 `json:"-"`
}

// MaxHitsPerPaper keeps one long paper from filling a result list.
const MaxHitsPerPaper = 3

// Search finds the pages that best match query over the whole vault, best
// first. Words are matched with stemming; "quoted phrases" must match
// exactly. Pages holding the words as a phrase rank before pages that hold
// them apart.
//
// Pages are ranked by agentero_rank (rank.c): bm25's formula without its
// idf, since every page of a tier holds every word, and without its passes
// over the whole table. A query that matches fewer than broadMatches pages
// has all of them ranked. A broader one is ranked paper first:
// agentero_rank over papers_fts (one row per paper) picks the best papers,
// and only their pages are ranked. Ranking every page a common word is on
// costs a pass over its whole posting list plus a length lookup per page:
// 20 to 35 ms for one word at 10,000 papers with bm25, against a few ms
// this way (BenchmarkSearchLatency).
func (db *DB) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 20
	}
	if limit > 200 {
		limit = 200
	}
	terms := Terms(query)
	if len(terms) == 0 {
		return []Hit{}, nil
	}
	// The phrase of all the words ranks first; then pages holding every
	// word that carries meaning. Words on nearly every page (the, of) only
	// cost time there, so they are left to the phrase, and a query of such
	// words alone is matched without ranking.
	content := Content(terms)
	if len(content) == 0 {
		return db.searchUnranked(ctx, MatchExpr(terms, false), limit)
	}
	tiers := []string{MatchExpr(content, false)}
	if len(terms) > 1 {
		tiers = []string{MatchExpr(terms, true), tiers[0]}
	}
	hits, err := db.search(ctx, content, tiers, limit)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return hits, nil
}

// broadMatches (a variable for tests) is the number of matching pages from
// which a query is ranked paper first: below it, ranking every matching
// page costs less than ranking papers, and a query whose words meet on few
// pages is found at once rather than after trying paper after paper.
var broadMatches = 1000

// pageRank ranks pages wherever Search ranks them, so that narrow and broad
// queries order pages alike: bm25's formula without idf, with bm25's
// length normalisation (b = 0.75).
const pageRank = "agentero_rank(pages_fts, 0.75)"

// candidate is a page that matches a tier, with its rank (lower is better).
type candidate struct {
	rowid int64
	score float64
}

func (db *DB) search(ctx context.Context, content []Term, tiers []string, limit int) ([]Hit, error) {
	// Whether the query is broad and which papers rank best are found at
	// the same time; the papers go unused when it is not broad.
	ready := db.paperTextReady(ctx)
	paperQ := paperExpr(content)
	var first []paperSpan
	var firstN int
	var paperErr error
	var wg sync.WaitGroup
	if ready {
		wg.Go(func() { first, firstN, paperErr = db.bestPapers(ctx, paperQ, 0, limit) })
	}
	broad, err := db.isBroad(ctx, tiers[len(tiers)-1])
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if broad && ready {
		if paperErr != nil {
			return nil, paperErr
		}
		return db.searchByPaper(ctx, paperQ, tiers, limit, first, firstN)
	}
	// Few pages match (or papers_fts is still being filled): rank them all,
	// tier by tier.
	lists := make([][]candidate, len(tiers))
	for i, q := range tiers {
		if lists[i], err = db.rankedPages(ctx, q, limit*MaxHitsPerPaper); err != nil {
			return nil, err
		}
	}
	return db.assemble(ctx, tiers, lists, limit)
}

// isBroad reports whether q matches at least broadMatches pages; it stops
// counting there.
func (db *DB) isBroad(ctx context.Context, q string) (bool, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? LIMIT ?)`,
		q, broadMatches).Scan(&n)
	return n >= broadMatches, err
}

// rankedPages returns the best max pages that match q, best first.
func (db *DB) rankedPages(ctx context.Context, q string, max int) ([]candidate, error) {
	return db.candidates(ctx, `SELECT rowid, `+pageRank+` AS score FROM pages_fts
		WHERE pages_fts MATCH ? ORDER BY score LIMIT ?`, q, max)
}

func (db *DB) candidates(ctx context.Context, query string, args ...any) ([]candidate, error) {
	return scanCandidates(db.sql.QueryContext(ctx, query, args...))
}

// scanCandidates reads rows of (rowid, rank) and closes them.
func scanCandidates(rows *sql.Rows, err error) ([]candidate, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.rowid, &c.score); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// paperExpr is the papers_fts query for content terms: every word that is
// not a stop word, each anywhere in the paper (papers_fts keeps no word
// order, so a phrase becomes its words).
func paperExpr(content []Term) string {
	var words, all []Term
	for _, t := range content {
		for _, w := range t.Words {
			all = append(all, Term{Words: []string{w}})
			if !stopWords[strings.ToLower(w)] {
				words = append(words, Term{Words: []string{w}})
			}
		}
	}
	if len(words) == 0 {
		words = all
	}
	return MatchExpr(words, false)
}

// searchByPaper ranks the pages of the best papers (papers, the first
// limit of the n that bestPapers found) by each tier in turn (the phrase
// before the words apart). A paper can hold every word without any one
// page holding them all, so when the best papers give too few pages, the
// next papers are taken, in growing batches, until limit pages are found
// or no paper is left.
func (db *DB) searchByPaper(ctx context.Context, paperQ string, tiers []string, limit int, papers []paperSpan, n int) ([]Hit, error) {
	asked, offset := limit, limit
	for {
		lists := make([][]candidate, len(tiers))
		errs := make([]error, len(tiers))
		var wg sync.WaitGroup
		for i, q := range tiers {
			wg.Go(func() { lists[i], errs[i] = db.bestPages(ctx, q, papers) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		hits, err := db.assemble(ctx, tiers, lists, limit)
		if err != nil {
			return nil, err
		}
		if len(hits) >= limit || n < asked {
			return hits, nil
		}
		asked = offset * 3
		more, m, err := db.bestPapers(ctx, paperQ, offset, asked)
		if err != nil {
			return nil, err
		}
		papers, n, offset = append(papers, more...), m, offset+asked
	}
}

// bestPapers returns the papers that match q, ranked by agentero_rank
// (see rank.c), limit of them from offset, with their spans of page ids.
// n is how many papers matched, spans or not.
func (db *DB) bestPapers(ctx context.Context, q string, offset, limit int) (spans []paperSpan, n int, err error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT rowid FROM papers_fts WHERE papers_fts MATCH ?
		ORDER BY agentero_rank(papers_fts) LIMIT ? OFFSET ?`, q, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	stmt, err := db.sql.PrepareContext(ctx, `SELECT min(id), max(id) FROM pages WHERE paper_id = ?`)
	if err != nil {
		return nil, 0, err
	}
	defer stmt.Close()
	for _, id := range ids {
		var lo, hi sql.NullInt64
		if err := stmt.QueryRowContext(ctx, id).Scan(&lo, &hi); err != nil {
			return nil, 0, err
		}
		if lo.Valid {
			spans = append(spans, paperSpan{id: id, lo: lo.Int64, hi: hi.Int64})
		}
	}
	return spans, len(ids), nil
}

// bestPages returns, for each paper, its up to MaxHitsPerPaper pages that
// match q, all ranked together, best first. FTS5 seeks to each paper's span
// of page ids and agentero_rank makes no pass over the whole table, so this
// costs what the papers hold, not what the vault holds.
func (db *DB) bestPages(ctx context.Context, q string, papers []paperSpan) ([]candidate, error) {
	stmt, err := db.sql.PrepareContext(ctx, `SELECT rowid, `+pageRank+` AS score FROM pages_fts
		WHERE pages_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score LIMIT ?`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var out []candidate
	for _, sp := range papers {
		found, err := scanCandidates(stmt.QueryContext(ctx, q, sp.lo, sp.hi, MaxHitsPerPaper))
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	return out, nil
}

// assemble turns ranked candidates into hits: the first tier's pages, then
// the next tier's, each page once, at most MaxHitsPerPaper per paper and
// limit in all, each with a snippet of its tier's terms.
func (db *DB) assemble(ctx context.Context, tiers []string, lists [][]candidate, limit int) ([]Hit, error) {
	info, err := db.sql.PrepareContext(ctx, `SELECT p.id, p.ref, p.title, p.pdf_path, pg.page, pg.label
		FROM pages pg JOIN papers p ON p.id = pg.paper_id WHERE pg.id = ?`)
	if err != nil {
		return nil, err
	}
	defer info.Close()
	hits := []Hit{}
	var snips []snip
	perPaper := map[int64]int{}
	seen := map[int64]bool{}
	for i, q := range tiers {
		for _, c := range lists[i] {
			if len(hits) >= limit {
				break
			}
			if seen[c.rowid] {
				continue
			}
			seen[c.rowid] = true
			var h Hit
			var paper int64
			var pdfPath string
			err := info.QueryRowContext(ctx, c.rowid).Scan(&paper, &h.Ref, &h.Title, &pdfPath, &h.Page, &h.PageLabel)
			if errors.Is(err, sql.ErrNoRows) {
				continue // deleted since it matched
			}
			if err != nil {
				return nil, err
			}
			if perPaper[paper] >= MaxHitsPerPaper {
				continue
			}
			perPaper[paper]++
			h.CitationURI = CitationURI(pdfPath, h.Page, "")
			hits = append(hits, h)
			snips = append(snips, snip{q, c.rowid})
		}
	}
	return hits, db.snippets(ctx, hits, snips)
}

// snip is the query and page of one hit's snippet.
type snip struct {
	q     string
	rowid int64
}

// snippets fills hits[i].Snippet from snips[i], a few at a time: each
// tokenizes its whole page, and the pages are independent.
func (db *DB) snippets(ctx context.Context, hits []Hit, snips []snip) error {
	workers := min(runtime.NumCPU(), maxSearchConns, len(hits))
	next := make(chan int)
	errs := make([]error, len(hits))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				hits[i].Snippet, errs[i] = db.snippet(ctx, snips[i].q, snips[i].rowid)
			}
		})
	}
	for i := range hits {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}

// searchUnranked returns the first pages that match q, in index order: for
// queries of stop words alone, which match nearly every page and would
// cost a ranking pass over all of them.
func (db *DB) searchUnranked(ctx context.Context, q string, limit int) ([]Hit, error) {
	list, err := db.candidates(ctx, `SELECT rowid, 0 FROM pages_fts WHERE pages_fts MATCH ? LIMIT ?`, q, limit*MaxHitsPerPaper)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits, err := db.assemble(ctx, []string{q}, [][]candidate{list}, limit)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return hits, nil
}

// stopWords are English words found on nearly every page of a paper.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after all also an and any are as at be been but by can could did do does
		for from had has have he her his how i if in into is it its may more most no not of on one or other our
		she should so some such than that the their them then there these they this those through to up
		was we were what when where which while who will with would you your`) {
		stopWords[w] = true
	}
}

// Content keeps the terms that carry meaning: phrases, and words that are
// not stop words, each once.
func Content(terms []Term) []Term {
	var out []Term
	seen := map[string]bool{}
	for _, t := range terms {
		key := strings.ToLower(strings.Join(t.Words, " "))
		if seen[key] {
			continue // "x AND x" matches what "x" does, at twice the cost
		}
		seen[key] = true
		if t.Phrase || !stopWords[strings.ToLower(t.Words[0])] {
			out = append(out, t)
		}
	}
	return out
}

// snippet marks the terms of an FTS query on one page.
func (db *DB) snippet(ctx context.Context, match string, rowid int64) (string, error) {
	var s string
	err := db.sql.QueryRowContext(ctx, `SELECT snippet(pages_fts, 0, char(2), char(3), '…', 24)
		FROM pages_fts WHERE pages_fts MATCH ? AND rowid = ?`, match, rowid).Scan(&s)
	return strings.Join(strings.Fields(s), " "), err
}

// CitationURI builds the SPEC §1 location of a page: the vault-relative
// file path, #page=N, and optionally the first words of a quote.
func CitationURI(file string, page int, quote string) string {
	if page <= 0 {
		return file
	}
	u := fmt.Sprintf("%s#page=%d", file, page)
	if quote != "" {
		u += "&quote=" + url.QueryEscape(quote)
	}
	return u
}

// Term is one search term: a word, or a phrase the user quoted.
type Term struct {
	Words  []string
	Phrase bool
}

// Terms splits a user query into words and "quoted phrases". Punctuation
// separates words; FTS5 syntax in the query has no effect.
func Terms(query string) []Term {
	var out []Term
	parts := strings.Split(query, `"`)
	for i, part := range parts {
		words := strings.FieldsFunc(part, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 && i < len(parts)-1 { // inside a closed pair of quotes
			out = append(out, Term{Words: words, Phrase: true})
			continue
		}
		for _, w := range words {
			out = append(out, Term{Words: []string{w}})
		}
	}
	return out
}

// MatchExpr renders terms as an FTS5 MATCH expression. With asPhrase, all
// the words form one phrase; otherwise each term must occur.
func MatchExpr(terms []Term, asPhrase bool) string {
	quote := func(ws []string) string {
		qs := make([]string, len(ws))
		for i, w := range ws {
			qs[i] = strings.ToLower(w)
		}
		return `"` + strings.Join(qs, " ") + `"`
	}
	if asPhrase {
		var all []string
		for _, t := range terms {
			all = append(all, t.Words...)
		}
		return quote(all)
	}
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = quote(t.Words)
	}
	return strings.Join(parts, " AND ")
}
