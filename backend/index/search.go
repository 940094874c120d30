package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
)

// Search runs q and returns its hits from q.Offset, best first.
//
// A scope of at most rankAll papers has every matching page ranked. A
// larger one (a library of thousands) is ranked paper first:
// agentero_paper_rank over papers_fts (one row per paper, each page's
// distinct words) picks the best papers in batches of growing size, and
// only their pages are ranked. Ranking every page a common word is on
// costs a pass over its whole posting list plus a length lookup per page:
// 20 to 35 ms for one word at 10,000 papers with bm25, against a few ms
// this way (BenchmarkSearchLatency). A batch's pages follow those of the
// batches before it within each round of the per-paper cap, so a later
// call (a cursor) that ranks more batches keeps the order of the hits an
// earlier one returned.
//
// Hits are ordered in rounds: each paper's (or text file's) first PerPaper
// hits come before any paper's next ones. A result ends at q.Limit hits or
// where one paper would pass PerPaper; Next continues from there.
func (db *DB) Search(ctx context.Context, q Query) (Result, error) {
	q = q.withDefaults()
	res, err := db.search(ctx, q)
	if err != nil {
		return Result{}, fmt.Errorf("search: %w", err)
	}
	return res, nil
}

// rankAll is the largest number of papers a scope may hold to have every
// matching page ranked; beyond it, papers are ranked first.
var rankAll = 64

// firstBatch is how many papers the first batch of a paper-first search
// ranks the pages of (see paperFirst).
const firstBatch = 8

// candidate is a page or text file that matches a query, with its rank.
type candidate struct {
	rowid int64
	file  bool
	group int64   // the paper's id, or minus the file's id: what the per-paper cap counts
	batch int     // the batch of papers it was found in (paper-first searches)
	tier  int     // 2 the whole query as a phrase, 1 every term, 0 some
	score float64 // bm25 with the terms' weights, plus the title bonus
	round int     // rank within its group / PerPaper
}

func (a candidate) better(b candidate) bool {
	if a.tier != b.tier {
		return a.tier > b.tier
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if a.file != b.file {
		return !a.file
	}
	return a.rowid < b.rowid
}

func (db *DB) search(ctx context.Context, q Query) (Result, error) {
	p, err := db.plan(ctx, q)
	if err != nil || p == nil {
		return Result{Hits: []Hit{}}, err
	}
	if q.Offset != 0 {
		return db.pageHits(ctx, p, q)
	}
	// Papers without readable text, found by their metadata (metahits.go),
	// lead the first result; they are looked up on a connection of their
	// own while the pages are ranked, and waited for.
	type found struct {
		hits []Hit
		err  error
	}
	metaDone := make(chan found, 1)
	go func() {
		hits, err := db.metadataHits(ctx, p, q.Scope)
		metaDone <- found{hits, err}
	}()
	res, err := db.pageHits(ctx, p, q)
	meta := <-metaDone
	if err != nil {
		return res, err
	}
	if meta.err != nil || len(meta.hits) == 0 {
		return res, meta.err
	}
	// the page hits the metadata hits push out come next
	res.Found += len(meta.hits)
	n := min(len(meta.hits), q.Limit)
	hits := append(meta.hits[:n:n], res.Hits...)
	if len(hits) > q.Limit {
		res.Next = hits[q.Limit].Rank
		hits = hits[:q.Limit]
	}
	res.Hits = hits
	return res, nil
}

// pageHits ranks the pages and text files of q's scope that match p.
func (db *DB) pageHits(ctx context.Context, p *plan, q Query) (Result, error) {
	sc, err := db.resolve(ctx, q.Scope)
	if err != nil {
		return Result{}, err
	}
	r := &ranker{db: db, p: p}
	need := q.Offset + q.Limit
	var cands []candidate
	partial := false // some papers or pages that match were not ranked
	if sc.many && db.paperTextReady(ctx) {
		cands, partial, err = r.paperFirst(ctx, sc, need, q.PerPaper)
	} else if !sc.all && !sc.many {
		// A few papers and files: every page and file that holds a term.
		cands, partial, err = r.whole(ctx, sc, p.pageExpr, need, q.PerPaper)
	} else {
		// Every matching page of the library: those that hold every term
		// first, which is all the first round needs when they fill it
		// (their tiers come before the others'); the rest only when not.
		cands, partial, err = r.whole(ctx, sc, p.allExpr, need, q.PerPaper)
		if err == nil && p.allExpr != p.pageExpr {
			if partial = firstRound(cands, q.PerPaper) >= need; !partial {
				cands, _, err = r.whole(ctx, sc, p.pageExpr, need, q.PerPaper)
			}
		}
	}
	if err != nil {
		return Result{}, err
	}
	order(cands, q.PerPaper)
	// Widening reorders the papers within a batch of a paper-first
	// search, whose first batches are the same in a later call (a cursor).
	if err := r.expand(ctx, cands); err != nil {
		return Result{}, err
	}
	order(cands, q.PerPaper)
	return db.take(ctx, p, q, cands, partial)
}

// whole ranks every page and text file of the scope that matches expr
// (every page of a large scope while papers_fts is being filled: the best
// maxMatches; see library for a query of stop words alone, and its second
// result).
func (r *ranker) whole(ctx context.Context, sc *resolved, expr string, need, perPaper int) ([]candidate, bool, error) {
	files, err := r.files(ctx, sc, expr)
	if err != nil {
		return nil, false, err
	}
	var pages []candidate
	var titles map[int64]float64
	partial := false
	if sc.all || sc.many {
		if titles, err = r.bonus(ctx, sc.ids); err != nil {
			return nil, false, err
		}
		if sc.files != "" {
			need = math.MaxInt // files come after every page of a round: read them all
		}
		pages, partial, err = r.library(ctx, sc.ids, expr, need, perPaper)
	} else {
		ids := make([]int64, len(sc.papers))
		for i, sp := range sc.papers {
			ids[i] = sp.id
		}
		if titles, err = r.bonus(ctx, ids); err != nil {
			return nil, false, err
		}
		pages, err = r.pages(ctx, sc.papers, 0, expr)
	}
	if err != nil {
		return nil, false, err
	}
	addTitles(pages, titles)
	return append(files, pages...), partial, nil
}

// order sorts candidates best first, in rounds of perPaper per group, and
// within a round batch by batch.
func order(cs []candidate, perPaper int) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].better(cs[j]) })
	seen := map[int64]int{}
	for i := range cs {
		cs[i].round = seen[cs[i].group] / perPaper
		seen[cs[i].group]++
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].round != cs[j].round {
			return cs[i].round < cs[j].round
		}
		return cs[i].batch < cs[j].batch
	})
}

// take turns the candidates from q.Offset into hits: until q.Limit, or
// until one group would pass q.PerPaper. When partial (not every match was
// ranked), Next continues even after the last candidate.
func (db *DB) take(ctx context.Context, p *plan, q Query, cs []candidate, partial bool) (Result, error) {
	res := Result{Hits: []Hit{}, Found: len(cs)}
	if q.Offset >= len(cs) {
		return res, nil
	}
	var chosen []candidate
	per := map[int64]int{}
	end := q.Offset
	for ; end < len(cs) && len(chosen) < q.Limit; end++ {
		c := cs[end]
		if per[c.group] >= q.PerPaper {
			break
		}
		per[c.group]++
		chosen = append(chosen, c)
	}
	if end < len(cs) || partial {
		res.Next = end
	}
	hits, err := db.hits(ctx, p, q, chosen)
	if err != nil {
		return Result{}, err
	}
	res.Hits = hits
	return res, nil
}

// hits reads what the chosen candidates show: where each is, and a snippet
// around its terms. A candidate that left the index since it matched is
// left out.
func (db *DB) hits(ctx context.Context, p *plan, q Query, chosen []candidate) ([]Hit, error) {
	type key struct {
		file  bool
		rowid int64
	}
	var pages, files []int64
	for _, c := range chosen {
		if c.file {
			files = append(files, c.rowid)
		} else {
			pages = append(pages, c.rowid)
		}
	}
	read := map[key]Hit{}
	at := map[key]int{} // a page hit's first matched term: a rune offset in its page
	// One row at a time: FTS5 seeks to a rowid, where rowid IN (...) would
	// have it read every row that holds a term (ms for common words at
	// 10,000 papers).
	if len(pages) > 0 {
		stmt, err := db.sql.PrepareContext(ctx, `SELECT p.ref, p.title, p.pdf_path, pg.page, pg.label,
			highlight(pages_fts, 0, char(2), char(3))
			FROM pages_fts CROSS JOIN pages pg ON pg.id = pages_fts.rowid CROSS JOIN papers p ON p.id = pg.paper_id
			WHERE pages_fts MATCH ? AND pages_fts.rowid = ?`)
		if err != nil {
			return nil, fmt.Errorf("read hits: %w", err)
		}
		defer stmt.Close()
		for _, id := range pages {
			var h Hit
			var pdfPath, marked string
			err := stmt.QueryRowContext(ctx, p.pageExpr, id).Scan(&h.Ref, &h.Title, &pdfPath, &h.Page, &h.PageLabel, &marked)
			if errors.Is(err, sql.ErrNoRows) {
				continue // it left the index
			}
			if err != nil {
				return nil, fmt.Errorf("read hits: %w", err)
			}
			h.CitationURI = citation.New(pdfPath, h.Page, "").String()
			h.Snippet, h.Quote = snippet(marked, p.terms, p.places, q.SnippetChars)
			k := key{false, id}
			if i := strings.Index(marked, MarkStart); i >= 0 {
				at[k] = utf8.RuneCountInString(marked[:i])
			}
			if h.Section, err = db.SectionAt(ctx, h.Ref, h.Page, at[k]); err != nil {
				return nil, err
			}
			read[k] = h
		}
	}
	if len(files) > 0 {
		stmt, err := db.sql.PrepareContext(ctx, `SELECT f.path, f.paper_ref, highlight(files_fts, 0, char(2), char(3))
			FROM files_fts CROSS JOIN files f ON f.id = files_fts.rowid
			WHERE files_fts MATCH ? AND files_fts.rowid = ?`)
		if err != nil {
			return nil, fmt.Errorf("read hits: %w", err)
		}
		defer stmt.Close()
		for _, id := range files {
			var h Hit
			var marked string
			err := stmt.QueryRowContext(ctx, p.pageExpr, id).Scan(&h.Path, &h.Ref, &marked)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("read hits: %w", err)
			}
			h.Title, h.CitationURI = path.Base(h.Path), citation.New(h.Path, 0, "").String()
			h.Snippet, h.Quote = snippet(marked, p.terms, p.places, q.SnippetChars)
			read[key{true, id}] = h
		}
	}
	out := []Hit{}
	for i, c := range chosen {
		h, ok := read[key{c.file, c.rowid}]
		if !ok {
			continue
		}
		h.Score, h.Rank = c.score, q.Offset+i
		out = append(out, h)
	}
	return out, nil
}

// resolved is a Scope resolved against the index.
type resolved struct {
	all    bool        // the whole library, few enough papers to rank every matching page
	papers []paperSpan // a few papers, to rank every matching page of
	many   bool        // too many papers: rank paper first
	ids    []int64     // many: the scope's papers; nil for the whole library
	files  string      // SQL condition on files f for the scope's text files; "" for none
	args   []any
}

// paperSpan is a paper and the span of its page ids (a paper's pages are
// written in one transaction, so its ids are consecutive).
type paperSpan struct {
	id, lo, hi int64
}

// resolve resolves a scope. A folder holds, at any depth, the papers whose
// folders lie in it as well as its text files (SPEC §3: a directory grant
// covers its papers, searched by page); the vault's root ("" or ".") holds
// every paper and every text file.
// refScope is the papers of s as a condition on col, a papers.ref column:
// the papers named, and every paper under a folder by whole path
// components ("papers/a" never holds "papers/a-b"). all reports a scope of
// every paper (AllPapers, or the folder "" or "."), for which cond is "";
// cond is "" too for a scope without papers or folders.
func refScope(col string, s Scope) (cond string, args []any, all bool) {
	var conds []string
	if len(s.Papers) > 0 {
		conds = append(conds, col+` IN (`+placeholders(len(s.Papers))+`)`)
		args = append(args, anys(s.Papers)...)
	}
	for _, d := range s.Folders {
		if d == "" || d == "." {
			return "", nil, true
		}
		// Everything under d/ sorts between "d/" and "d0" ('0' follows '/').
		conds = append(conds, `(`+col+` = ? OR (`+col+` > ? AND `+col+` < ?))`)
		args = append(args, d, d+"/", d+"0")
	}
	if s.AllPapers {
		return "", nil, true
	}
	return strings.Join(conds, " OR "), args, false
}

// refIDs is the ids of the papers of s that refScope names (not for a
// scope of every paper), as a subquery that SQLite answers from the index
// of refs, one lookup per paper or folder: refScope's conditions joined
// by OR have it read every paper (and, joined with pages, every page).
func refIDs(s Scope) (string, []any) {
	var parts []string
	var args []any
	if len(s.Papers) > 0 {
		parts = append(parts, `SELECT id FROM papers WHERE ref IN (`+placeholders(len(s.Papers))+`)`)
		args = append(args, anys(s.Papers)...)
	}
	for _, d := range s.Folders {
		parts = append(parts, `SELECT id FROM papers WHERE ref = ?`, `SELECT id FROM papers WHERE ref > ? AND ref < ?`)
		args = append(args, d, d+"/", d+"0")
	}
	if len(parts) == 0 {
		return `SELECT id FROM papers WHERE 0`, nil
	}
	return strings.Join(parts, " UNION ALL "), args
}

func (db *DB) resolve(ctx context.Context, s Scope) (*resolved, error) {
	sc := &resolved{}
	var folders []string
	everyFile := false
	for _, d := range s.Folders {
		if d == "" || d == "." {
			s.AllPapers, everyFile = true, true
			continue
		}
		folders = append(folders, d)
	}
	var err error
	switch {
	case s.AllPapers:
		var n int
		if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM papers LIMIT ?)`, rankAll+1).Scan(&n); err != nil {
			return nil, fmt.Errorf("resolve scope: %w", err)
		}
		sc.all, sc.many = n <= rankAll, n > rankAll
	case len(s.Papers) > 0 || len(folders) > 0:
		ids, args := refIDs(Scope{Papers: s.Papers, Folders: folders})
		sc.papers, err = db.spans(ctx, `SELECT paper_id, min(id), max(id) FROM pages WHERE paper_id IN (`+ids+`)
			GROUP BY paper_id ORDER BY paper_id`, args...)
		if len(sc.papers) > rankAll {
			sc.many = true
			for _, sp := range sc.papers {
				sc.ids = append(sc.ids, sp.id)
			}
			sc.papers = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("resolve scope: %w", err)
	}
	if everyFile {
		sc.files = "1"
		return sc, nil
	}
	var conds []string
	for _, f := range s.Files {
		conds = append(conds, "f.path = ?")
		sc.args = append(sc.args, f)
	}
	for _, d := range folders {
		conds = append(conds, "(f.path > ? AND f.path < ?)")
		sc.args = append(sc.args, d+"/", d+"0")
	}
	if len(conds) > 0 {
		sc.files = "(" + strings.Join(conds, " OR ") + ")"
	}
	return sc, nil
}

// spans runs a query of (paper id, first page id, last page id).
func (db *DB) spans(ctx context.Context, query string, args ...any) ([]paperSpan, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []paperSpan
	for rows.Next() {
		var sp paperSpan
		if err := rows.Scan(&sp.id, &sp.lo, &sp.hi); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
