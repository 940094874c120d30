package index

// The reads the per-turn agentero-context MCP server makes (SPEC §4): search
// scoped to the few papers and files one turn may read, page ranges,
// outlines, and the library-wide lookups that paper relations need.

import (
	"context"
	"fmt"
	"strings"
)

// Scope is what one turn may search: papers by ref, text files by exact
// path, and the text files under folders (a directory grant, or the folder
// of a granted paper).
type Scope struct {
	Papers  []string
	Files   []string
	Folders []string
}

// Match is one page or text file that matches a scoped search expression.
type Match struct {
	ID    int64  // pages.id, or files.id when File is set
	File  bool   // a text file rather than a PDF page
	Ref   string // the paper's ref (pages) or the file's paper folder ("" when none)
	Path  string // the PDF path (pages) or the file path
	Title string // the paper's title (pages)
	Page  int    // physical page (pages)
	Label string // printed page label (pages)
	Chars int    // length of the page or file text
	Text  string // the text with matched tokens between MarkStart and MarkEnd, when asked for
}

// Scoped is a Scope resolved against the index for one search: each
// paper's span of page ids, and how many pages and files the scope holds.
type Scoped struct {
	db      *DB
	papers  []paperSpan
	where   string // SQL condition on files f for the scope's files
	args    []any
	Pages   int // pages of the scope's papers
	Files   int // text files in the scope
	noFiles bool
}

// paperSpan is a paper and the span of its page ids (pages are written a
// paper at a time, so a paper's ids are close together).
type paperSpan struct {
	id, lo, hi int64
}

// Scoped resolves s for searching. Papers not in the index are left out.
func (db *DB) Scoped(ctx context.Context, s Scope) (*Scoped, error) {
	sc := &Scoped{db: db}
	if len(s.Papers) > 0 {
		q := `SELECT p.id, min(pg.id), max(pg.id), count(pg.id) FROM papers p JOIN pages pg ON pg.paper_id = p.id
			WHERE p.ref IN (` + placeholders(len(s.Papers)) + `) GROUP BY p.id ORDER BY p.id`
		rows, err := db.sql.QueryContext(ctx, q, anys(s.Papers)...)
		if err != nil {
			return nil, fmt.Errorf("resolve search scope: %w", err)
		}
		for rows.Next() {
			var sp paperSpan
			var n int
			if err := rows.Scan(&sp.id, &sp.lo, &sp.hi, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("resolve search scope: %w", err)
			}
			sc.papers = append(sc.papers, sp)
			sc.Pages += n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("resolve search scope: %w", err)
		}
	}
	var conds []string
	for _, f := range s.Files {
		conds = append(conds, "f.path = ?")
		sc.args = append(sc.args, f)
	}
	for _, d := range s.Folders {
		// Everything under d/ sorts between "d/" and "d0" ('0' follows '/').
		conds = append(conds, "(f.path > ? AND f.path < ?)")
		sc.args = append(sc.args, d+"/", d+"0")
	}
	if len(conds) == 0 {
		sc.noFiles = true
		return sc, nil
	}
	sc.where = "(" + strings.Join(conds, " OR ") + ")"
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM files f WHERE `+sc.where, sc.args...).Scan(&sc.Files); err != nil {
		return nil, fmt.Errorf("resolve search scope: %w", err)
	}
	return sc, nil
}

// Match returns the scope's pages and files that match the FTS5 expression
// expr (build it with MatchExpr), at most max of each kind; with marks, each
// with its text and every matched token marked, as highlight() marks them.
//
// Pages are searched one paper at a time with the paper's span of page ids
// pushed into the FTS query (rowid BETWEEN), then filtered to the paper:
// FTS5 seeks inside each term's posting list, so a word on most of 150,000
// pages costs about what a rare one does. Filtering the grant after a
// library-wide MATCH instead reads the whole posting list, and bm25() adds
// a pass over it per query (BenchmarkScopedMatch: 1.4 s against a few ms
// for "the" in 208,547 pages); ranking is left to the caller, over the
// scope only. Files are few: the grant filter applies after the MATCH.
func (sc *Scoped) Match(ctx context.Context, expr string, max int, marks bool) ([]Match, error) {
	text := "''"
	if marks {
		text = "highlight(pages_fts, 0, char(2), char(3))"
	}
	var out []Match
	if len(sc.papers) > 0 {
		stmt, err := sc.db.sql.PrepareContext(ctx, `
			SELECT pg.id, p.ref, p.pdf_path, p.title, pg.page, pg.label, length(pg.text), `+text+`
			FROM pages_fts CROSS JOIN pages pg ON pg.id = pages_fts.rowid CROSS JOIN papers p ON p.id = pg.paper_id
			WHERE pages_fts MATCH ? AND pages_fts.rowid BETWEEN ? AND ? AND pg.paper_id = ?
			ORDER BY pg.id LIMIT ?`)
		if err != nil {
			return nil, fmt.Errorf("search pages: %w", err)
		}
		defer stmt.Close()
		for _, sp := range sc.papers {
			if len(out) >= max {
				break
			}
			rows, err := stmt.QueryContext(ctx, expr, sp.lo, sp.hi, sp.id, max-len(out))
			if err != nil {
				return nil, fmt.Errorf("search pages: %w", err)
			}
			for rows.Next() {
				var m Match
				if err := rows.Scan(&m.ID, &m.Ref, &m.Path, &m.Title, &m.Page, &m.Label, &m.Chars, &m.Text); err != nil {
					rows.Close()
					return nil, fmt.Errorf("search pages: %w", err)
				}
				out = append(out, m)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, fmt.Errorf("search pages: %w", err)
			}
		}
	}
	if sc.noFiles {
		return out, nil
	}
	if marks {
		text = "highlight(files_fts, 0, char(2), char(3))"
	}
	rows, err := sc.db.sql.QueryContext(ctx, `
		SELECT f.id, f.paper_ref, f.path, length(f.text), `+text+`
		FROM files_fts CROSS JOIN files f ON f.id = files_fts.rowid
		WHERE files_fts MATCH ? AND `+sc.where+` ORDER BY f.path LIMIT ?`, append(append([]any{expr}, sc.args...), max)...)
	if err != nil {
		return nil, fmt.Errorf("search files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		m := Match{File: true}
		if err := rows.Scan(&m.ID, &m.Ref, &m.Path, &m.Chars, &m.Text); err != nil {
			return nil, fmt.Errorf("search files: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Section is one entry of a paper's outline.
type Section struct {
	Level int    `json:"level"`
	Title string `json:"title"`
	Page  int    `json:"page"`
}

// Sections returns a paper's outline in order.
func (db *DB) Sections(ctx context.Context, ref string) ([]Section, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT s.level, s.title, s.page FROM sections s JOIN papers p ON p.id = s.paper_id
		WHERE p.ref = ? ORDER BY s.ord`, ref)
	if err != nil {
		return nil, fmt.Errorf("read outline: %w", err)
	}
	defer rows.Close()
	out := []Section{}
	for rows.Next() {
		var s Section
		if err := rows.Scan(&s.Level, &s.Title, &s.Page); err != nil {
			return nil, fmt.Errorf("read outline: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Page is the text of one physical page.
type Page struct {
	Number int
	Label  string
	Text   string
}

// Pages returns the pages from through to (inclusive) of a paper, in order.
func (db *DB) Pages(ctx context.Context, ref string, from, to int) ([]Page, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT pg.page, pg.label, pg.text FROM pages pg JOIN papers p ON p.id = pg.paper_id
		WHERE p.ref = ? AND pg.page BETWEEN ? AND ? ORDER BY pg.page`, ref, from, to)
	if err != nil {
		return nil, fmt.Errorf("read pages: %w", err)
	}
	defer rows.Close()
	var out []Page
	for rows.Next() {
		var p Page
		if err := rows.Scan(&p.Number, &p.Label, &p.Text); err != nil {
			return nil, fmt.Errorf("read pages: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PaperFiles lists the text files the index holds inside a paper's folder.
func (db *DB) PaperFiles(ctx context.Context, ref string) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT path FROM files WHERE paper_ref = ? ORDER BY path`, ref)
	if err != nil {
		return nil, fmt.Errorf("list paper files: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("list paper files: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PaperKey is what identifies a library paper when matching citations.
type PaperKey struct {
	Ref     string
	PDFPath string
	Title   string
	Year    int
	DOI     string
	ArxivID string
}

// PaperKeys lists every paper's identifiers, ordered by ref.
func (db *DB) PaperKeys(ctx context.Context) ([]PaperKey, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, pdf_path, title, year, doi, arxiv_id FROM papers ORDER BY ref`)
	if err != nil {
		return nil, fmt.Errorf("list papers: %w", err)
	}
	defer rows.Close()
	var out []PaperKey
	for rows.Next() {
		var k PaperKey
		if err := rows.Scan(&k.Ref, &k.PDFPath, &k.Title, &k.Year, &k.DOI, &k.ArxivID); err != nil {
			return nil, fmt.Errorf("list papers: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// PaperPages counts, per paper, the pages of the whole library that match
// the FTS5 expression expr, for at most limit papers (most pages first).
func (db *DB) PaperPages(ctx context.Context, expr string, limit int) (map[string]int, error) {
	rows, err := db.sql.QueryContext(ctx, `
		SELECT p.ref, count(*) AS n FROM pages_fts CROSS JOIN pages pg ON pg.id = pages_fts.rowid
		CROSS JOIN papers p ON p.id = pg.paper_id
		WHERE pages_fts MATCH ? GROUP BY p.id ORDER BY n DESC, p.ref LIMIT ?`, expr, limit)
	if err != nil {
		return nil, fmt.Errorf("search library: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var ref string
		var n int
		if err := rows.Scan(&ref, &n); err != nil {
			return nil, fmt.Errorf("search library: %w", err)
		}
		out[ref] = n
	}
	return out, rows.Err()
}

// CountPages returns how many pages of the library match expr.
func (db *DB) CountPages(ctx context.Context, expr string) (int, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?`, expr).Scan(&n); err != nil {
		return 0, fmt.Errorf("count pages: %w", err)
	}
	return n, nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
