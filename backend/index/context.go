package index

// The reads the per-turn agentero-context MCP server makes (SPEC §4) beside
// its searches (query.go): page ranges, outlines, a paper's files, and the
// library-wide lookups that paper relations need.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agentero/agentero/backend/quote"
)

// Section is one of a paper's sections (backend/outline): from the PDF's
// outline, or a heading found on its page.
type Section struct {
	Level int    `json:"level"`
	Title string `json:"title"`
	Page  int    `json:"page"`
	// Start is the rune offset of the title in its page's text: the
	// section's text runs from there to the next section's start.
	Start int `json:"-"`
	// Source is "outline" or "headings".
	Source string `json:"-"`
}

// Sections returns a paper's sections in reading order.
func (db *DB) Sections(ctx context.Context, ref string) ([]Section, error) {
	cols := `s.start, s.source`
	if !db.starts {
		cols = `0, 'outline'`
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT s.level, s.title, s.page, `+cols+` FROM sections s JOIN papers p ON p.id = s.paper_id
		WHERE p.ref = ? ORDER BY s.ord`, ref)
	if err != nil {
		return nil, fmt.Errorf("read sections: %w", err)
	}
	defer rows.Close()
	out := []Section{}
	for rows.Next() {
		var s Section
		if err := rows.Scan(&s.Level, &s.Title, &s.Page, &s.Start, &s.Source); err != nil {
			return nil, fmt.Errorf("read sections: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// SectionAt returns the title of the section that rune offset off of
// page holds: the last one starting before it. "" when the place comes
// before the first section (a title page) or the paper has none.
func (db *DB) SectionAt(ctx context.Context, ref string, page, off int) (string, error) {
	var title string
	start := `s.start`
	if !db.starts {
		start = `0`
	}
	err := db.sql.QueryRowContext(ctx, `SELECT s.title FROM sections s JOIN papers p ON p.id = s.paper_id
		WHERE p.ref = ? AND s.page > 0 AND (s.page < ? OR s.page = ? AND `+start+` <= ?) ORDER BY s.ord DESC LIMIT 1`,
		ref, page, page, off).Scan(&title)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("section at: %w", err)
	}
	return title, nil
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

// SectionOf returns the title of the section a passage of page is in:
// where the quote is on the page, or, when it is not found there, the
// section the page is in when no section starts on it. "" when unknown.
func (db *DB) SectionOf(ctx context.Context, ref string, page int, q string) (string, error) {
	text, _, err := db.PageText(ctx, ref, page)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if m, ok := quote.Find(quote.Page{Number: page, Text: text}, nil, q); ok && len(m.Spans) > 0 && m.Spans[0].Page == page {
		return db.SectionAt(ctx, ref, page, m.Spans[0].From)
	}
	var starts int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM sections s JOIN papers p ON p.id = s.paper_id WHERE p.ref = ? AND s.page = ?`,
		ref, page).Scan(&starts); err != nil {
		return "", fmt.Errorf("section of: %w", err)
	}
	if starts > 0 {
		return "", nil
	}
	return db.SectionAt(ctx, ref, page, 0)
}
