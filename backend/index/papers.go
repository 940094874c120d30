package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound is returned when a paper or file is not in the index.
var ErrNotFound = errors.New("not in the index")

// Paper statuses, the "health" the library shows.
const (
	StatusPending = "pending" // found, not extracted yet
	StatusOK      = "ok"      // every page has text
	StatusPartial = "partial" // some pages have no text layer
	StatusNoText  = "no-text" // no page has text: a scan without OCR
	// StatusGarbled: no page has readable text, and some have a text layer
	// that is garbage (a broken font encoding): the paper needs OCR. Its
	// garbled pages are not indexed (Error names them).
	StatusGarbled = "garbled"
	StatusError   = "error" // could not be read; Error says why
)

// Paper is one indexed paper with its metadata and index health.
type Paper struct {
	Ref         string   `json:"ref"`
	PDFPath     string   `json:"pdfPath"`
	Title       string   `json:"title"`
	TitleSource string   `json:"titleSource"`
	Authors     []string `json:"authors"`
	Year        int      `json:"year"`
	DOI         string   `json:"doi"`
	ArxivID     string   `json:"arxivId"`
	Abstract    string   `json:"abstract"`
	Pages       int      `json:"pages"`
	NoTextPages int      `json:"noTextPages"`
	Status      string   `json:"status"`
	Error       string   `json:"error"`
	SHA256      string   `json:"sha256"`
	// Added is when the PDF was put in the vault, as its file's
	// modification time (Unix milliseconds; 0 when unknown), for sorting.
	Added int64 `json:"added"`
	// Tags are metadata.json's "tags" (a list, or one comma-separated
	// string), for the library's filter.
	Tags []string `json:"tags"`
}

const paperColumns = `ref, pdf_path, title, title_source, authors, year, doi, arxiv_id, abstract,
	page_count, no_text_pages, status, error, pdf_sha256, pdf_mtime, metadata`

func scanPaper(row interface{ Scan(...any) error }) (Paper, error) {
	var p Paper
	var authors, metadata string
	var mtime int64
	err := row.Scan(&p.Ref, &p.PDFPath, &p.Title, &p.TitleSource, &authors, &p.Year, &p.DOI, &p.ArxivID,
		&p.Abstract, &p.Pages, &p.NoTextPages, &p.Status, &p.Error, &p.SHA256, &mtime, &metadata)
	if err != nil {
		return p, err
	}
	p.Added = mtime / 1e6
	p.Tags = metadataTags(metadata)
	if err := json.Unmarshal([]byte(authors), &p.Authors); err != nil || p.Authors == nil {
		p.Authors = []string{}
	}
	return p, nil
}

// Papers lists every paper in the index, ordered by ref.
func (db *DB) Papers(ctx context.Context) ([]Paper, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+paperColumns+` FROM papers ORDER BY ref`)
	if err != nil {
		return nil, fmt.Errorf("list papers: %w", err)
	}
	defer rows.Close()
	out := []Paper{}
	for rows.Next() {
		p, err := scanPaper(rows)
		if err != nil {
			return nil, fmt.Errorf("list papers: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Paper returns one paper by ref.
func (db *DB) Paper(ctx context.Context, ref string) (Paper, error) {
	p, err := scanPaper(db.sql.QueryRowContext(ctx, `SELECT `+paperColumns+` FROM papers WHERE ref = ?`, ref))
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// PageText returns the text and printed label of one physical page.
func (db *DB) PageText(ctx context.Context, ref string, page int) (text, label string, err error) {
	err = db.sql.QueryRowContext(ctx, `SELECT pg.text, pg.label FROM pages pg JOIN papers p ON p.id = pg.paper_id
		WHERE p.ref = ? AND pg.page = ?`, ref, page).Scan(&text, &label)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", ErrNotFound
	}
	return text, label, err
}

// Counts returns how many papers and pages the index holds.
func (db *DB) Counts(ctx context.Context) (papers, pages int, err error) {
	err = db.sql.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM papers), (SELECT count(*) FROM pages)`).Scan(&papers, &pages)
	return papers, pages, err
}

// RefInput is what backend/refs reads of a paper: what decides whether its
// reference list must be read again, and what entries are matched against.
type RefInput struct {
	Ref              string
	PDFPath          string
	Title            string
	TitleSource      string
	Year             int
	DOI              string
	ArxivID          string
	Abstract         string
	SHA256           string
	ExtractorVersion int
	Status           string
	Pages            int
}

// RefInputs lists every paper's identity and extraction state, by ref.
func (db *DB) RefInputs(ctx context.Context) ([]RefInput, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, pdf_path, title, title_source, year, doi, arxiv_id, abstract,
		pdf_sha256, extractor_version, status, page_count FROM papers ORDER BY ref`)
	if err != nil {
		return nil, fmt.Errorf("list papers: %w", err)
	}
	defer rows.Close()
	var out []RefInput
	for rows.Next() {
		var p RefInput
		if err := rows.Scan(&p.Ref, &p.PDFPath, &p.Title, &p.TitleSource, &p.Year, &p.DOI, &p.ArxivID, &p.Abstract,
			&p.SHA256, &p.ExtractorVersion, &p.Status, &p.Pages); err != nil {
			return nil, fmt.Errorf("list papers: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PageTexts returns the text of every page of a paper, in page order.
func (db *DB) PageTexts(ctx context.Context, ref string) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT pg.text FROM pages pg JOIN papers p ON p.id = pg.paper_id
		WHERE p.ref = ? ORDER BY pg.page`, ref)
	if err != nil {
		return nil, fmt.Errorf("read pages: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("read pages: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// metadataTags reads "tags" from a paper's metadata.json as stored: a list
// of strings, or one string of comma-separated tags; anything else is none.
func metadataTags(metadata string) []string {
	var m struct {
		Tags json.RawMessage `json:"tags"`
	}
	out := []string{}
	if json.Unmarshal([]byte(metadata), &m) != nil || len(m.Tags) == 0 {
		return out
	}
	var list []any
	var one string
	switch {
	case json.Unmarshal(m.Tags, &list) == nil:
		for _, t := range list {
			if s, ok := t.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	case json.Unmarshal(m.Tags, &one) == nil:
		for _, t := range strings.Split(one, ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}
