package index

import (
	"context"
	"fmt"
)

// TermCount counts the pages matching the FTS5 expression expr, stopping at
// limit: a cheap document frequency (the doclist alone, no table reads).
func (db *DB) TermCount(ctx context.Context, expr string, limit int) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? LIMIT ?)`, expr, limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("search library: %w", err)
	}
	return n, nil
}

// TermHits is how many pages of a paper match a term, of how many.
type TermHits struct {
	Pages      int // pages that match
	PaperPages int // pages the paper has
}

// TermPapers counts, for the FTS5 expression expr, how many pages of each
// paper match, reading at most limit matching pages; total is the number
// of matching pages read (limit when there are more).
func (db *DB) TermPapers(ctx context.Context, expr string, limit int) (perPaper map[string]TermHits, total int, err error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, p.page_count FROM
		(SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? LIMIT ?) m
		JOIN pages pg ON pg.id = m.rowid JOIN papers p ON p.id = pg.paper_id`, expr, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("search library: %w", err)
	}
	defer rows.Close()
	perPaper = map[string]TermHits{}
	for rows.Next() {
		var ref string
		var pages int
		if err := rows.Scan(&ref, &pages); err != nil {
			return nil, 0, fmt.Errorf("search library: %w", err)
		}
		h := perPaper[ref]
		h.Pages++
		h.PaperPages = pages
		perPaper[ref] = h
		total++
	}
	return perPaper, total, rows.Err()
}
