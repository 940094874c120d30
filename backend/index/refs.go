package index

// Reference lists (SPEC §5), as backend/refs stores them: one list per
// paper and its citations, each matched to at most one library paper. The
// parsing and matching live in backend/refs; this file holds their SQL.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// RefInput is what decides whether a paper's reference list must be read
// again, and what its entries are matched against.
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

// RefList is one paper's reference list.
type RefList struct {
	Ref       string
	ScanKey   string // the inputs it was read from
	LibKey    string // the library its matches were made against
	Mode      string // agentero-pdf, agentero-bib, or a foreign sidecar's mode
	Note      string // why the list is empty, when it is
	Citations []Citation
}

// Citation is one entry of a reference list.
type Citation struct {
	ID       string
	Display  string
	Raw      string
	Title    string
	Authors  []string
	Year     int
	Venue    string
	DOI      string
	ArxivID  string
	URL      string
	IDs      []string // every identifier reading ("doi:…", "arxiv:…"), for matching
	MatchRef string   // the library paper it is, or ""
	MatchBy  string   // doi, arxiv or title
	WorkKey  string   // shared by every citation of the same work
}

// RefListState is what the index remembers of a stored list.
type RefListState struct {
	ScanKey, LibKey, Mode, Note string
	Citations                   int
}

// RefListStates returns the scan and library keys of every stored list, by
// paper ref. A missing table (an index not yet migrated, opened read-only)
// reads as no lists.
func (db *DB) RefListStates(ctx context.Context) (map[string]RefListState, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, l.scan_key, l.lib_key, l.mode, l.note,
		(SELECT count(*) FROM citations c WHERE c.paper_id = l.paper_id) FROM ref_lists l JOIN papers p ON p.id = l.paper_id`)
	if err != nil {
		if noRefTables(err) {
			return map[string]RefListState{}, nil
		}
		return nil, fmt.Errorf("read reference lists: %w", err)
	}
	defer rows.Close()
	out := map[string]RefListState{}
	for rows.Next() {
		var ref string
		var s RefListState
		if err := rows.Scan(&ref, &s.ScanKey, &s.LibKey, &s.Mode, &s.Note, &s.Citations); err != nil {
			return nil, fmt.Errorf("read reference lists: %w", err)
		}
		out[ref] = s
	}
	return out, rows.Err()
}

func noRefTables(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}

// PutRefList replaces a paper's reference list with l, matches included.
func (db *DB) PutRefList(ctx context.Context, l RefList, now time.Time) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM papers WHERE ref = ?`, l.Ref).Scan(&id); err != nil {
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM citations WHERE paper_id = ?`, id); err != nil {
		return fmt.Errorf("store references of %s: %w", l.Ref, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO ref_lists (paper_id, scan_key, lib_key, mode, note, scanned_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (paper_id) DO UPDATE SET scan_key = excluded.scan_key, lib_key = excluded.lib_key, mode = excluded.mode,
		note = excluded.note, scanned_at = excluded.scanned_at`, id, l.ScanKey, l.LibKey, l.Mode, l.Note, now.Unix()); err != nil {
		return fmt.Errorf("store references of %s: %w", l.Ref, err)
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO citations (paper_id, ord, cid, display, raw, title, authors, year, venue,
		doi, arxiv_id, url, ids, match_id, match_by, work_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM papers WHERE ref = ? AND ? != ''), ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for i, c := range l.Citations {
		authors, _ := json.Marshal(nonNil(c.Authors))
		if _, err := ins.ExecContext(ctx, id, i, c.ID, c.Display, c.Raw, c.Title, string(authors), c.Year, c.Venue,
			c.DOI, c.ArxivID, c.URL, strings.Join(c.IDs, " "), c.MatchRef, c.MatchRef, c.MatchBy, c.WorkKey); err != nil {
			return fmt.Errorf("store references of %s: %w", l.Ref, err)
		}
	}
	return tx.Commit()
}

// CitationMatch is the match of one citation, by its position in the list.
type CitationMatch struct {
	Ord      int
	MatchRef string
	MatchBy  string
	WorkKey  string
}

// SetMatches records new matches for some citations of a paper and the
// library key they were made against.
func (db *DB) SetMatches(ctx context.Context, ref, libKey string, ms []CitationMatch) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM papers WHERE ref = ?`, ref).Scan(&id); err != nil {
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		return err
	}
	up, err := tx.PrepareContext(ctx, `UPDATE citations SET match_id = (SELECT id FROM papers WHERE ref = ? AND ? != ''),
		match_by = ?, work_key = ? WHERE paper_id = ? AND ord = ?`)
	if err != nil {
		return err
	}
	defer up.Close()
	for _, m := range ms {
		if _, err := up.ExecContext(ctx, m.MatchRef, m.MatchRef, m.MatchBy, m.WorkKey, id, m.Ord); err != nil {
			return fmt.Errorf("store matches of %s: %w", ref, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE ref_lists SET lib_key = ? WHERE paper_id = ?`, libKey, id); err != nil {
		return err
	}
	return tx.Commit()
}

const citationColumns = `c.cid, c.display, c.raw, c.title, c.authors, c.year, c.venue, c.doi, c.arxiv_id, c.url, c.ids,
	coalesce(m.ref, ''), CASE WHEN m.id IS NULL THEN '' ELSE c.match_by END, c.work_key`

func scanCitation(row interface{ Scan(...any) error }) (Citation, error) {
	var c Citation
	var authors, ids string
	err := row.Scan(&c.ID, &c.Display, &c.Raw, &c.Title, &authors, &c.Year, &c.Venue, &c.DOI, &c.ArxivID, &c.URL, &ids,
		&c.MatchRef, &c.MatchBy, &c.WorkKey)
	if err != nil {
		return c, err
	}
	if json.Unmarshal([]byte(authors), &c.Authors) != nil || c.Authors == nil {
		c.Authors = []string{}
	}
	c.IDs = strings.Fields(ids)
	return c, nil
}

// RefList returns one paper's stored reference list, or ErrNotFound when
// none is stored.
func (db *DB) RefList(ctx context.Context, ref string) (RefList, error) {
	l := RefList{Ref: ref}
	err := db.sql.QueryRowContext(ctx, `SELECT l.scan_key, l.lib_key, l.mode, l.note FROM ref_lists l JOIN papers p ON p.id = l.paper_id
		WHERE p.ref = ?`, ref).Scan(&l.ScanKey, &l.LibKey, &l.Mode, &l.Note)
	if err == sql.ErrNoRows || noRefTables(err) {
		return l, ErrNotFound
	}
	if err != nil {
		return l, fmt.Errorf("read references of %s: %w", ref, err)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+citationColumns+` FROM citations c JOIN papers p ON p.id = c.paper_id
		LEFT JOIN papers m ON m.id = c.match_id WHERE p.ref = ? ORDER BY c.ord`, ref)
	if err != nil {
		return l, fmt.Errorf("read references of %s: %w", ref, err)
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanCitation(rows)
		if err != nil {
			return l, fmt.Errorf("read references of %s: %w", ref, err)
		}
		l.Citations = append(l.Citations, c)
	}
	return l, rows.Err()
}

// Edge is one in-library citation: Citing's reference list holds Cited.
type Edge struct {
	Citing, Cited, MatchBy string
}

// CitationEdges lists every in-library citation, by citing then cited ref;
// a paper citing another twice gives one edge.
func (db *DB) CitationEdges(ctx context.Context) ([]Edge, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, m.ref, min(c.match_by) FROM citations c
		JOIN papers p ON p.id = c.paper_id JOIN papers m ON m.id = c.match_id
		WHERE m.id != p.id GROUP BY p.id, m.id ORDER BY p.ref, m.ref`)
	if err != nil {
		if noRefTables(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("read citations: %w", err)
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Citing, &e.Cited, &e.MatchBy); err != nil {
			return nil, fmt.Errorf("read citations: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CitingPapers lists the library papers whose reference lists hold ref,
// with how the entry was matched, by citing ref.
func (db *DB) CitingPapers(ctx context.Context, ref string) ([]Edge, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, m.ref, min(c.match_by) FROM papers m
		JOIN citations c ON c.match_id = m.id JOIN papers p ON p.id = c.paper_id
		WHERE m.ref = ? AND p.id != m.id GROUP BY p.id ORDER BY p.ref`, ref)
	if err != nil {
		if noRefTables(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("read citing papers: %w", err)
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Citing, &e.Cited, &e.MatchBy); err != nil {
			return nil, fmt.Errorf("read citing papers: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Coupling is a library paper that shares cited works with another.
type Coupling struct {
	Ref    string
	Shared int // works both lists cite
	Total  int // distinct works the other paper's list cites
}

// CoupledPapers lists the papers whose reference lists share works with
// ref's (bibliographic coupling), with how many works each cites, and how
// many distinct works ref itself cites.
func (db *DB) CoupledPapers(ctx context.Context, ref string) ([]Coupling, int, error) {
	var own int
	err := db.sql.QueryRowContext(ctx, `SELECT count(DISTINCT c.work_key) FROM citations c JOIN papers p ON p.id = c.paper_id
		WHERE p.ref = ? AND c.work_key != ''`, ref).Scan(&own)
	if noRefTables(err) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read coupling: %w", err)
	}
	rows, err := db.sql.QueryContext(ctx, `
		WITH mine AS (SELECT DISTINCT c.work_key FROM citations c JOIN papers p ON p.id = c.paper_id
		              WHERE p.ref = ? AND c.work_key != ''),
		     shared AS (SELECT c.paper_id, count(DISTINCT c.work_key) AS n FROM citations c
		                WHERE c.work_key IN (SELECT work_key FROM mine) GROUP BY c.paper_id)
		SELECT p.ref, s.n, (SELECT count(DISTINCT work_key) FROM citations WHERE paper_id = s.paper_id AND work_key != '')
		FROM shared s JOIN papers p ON p.id = s.paper_id WHERE p.ref != ? ORDER BY s.n DESC, p.ref`, ref, ref)
	if err != nil {
		return nil, 0, fmt.Errorf("read coupling: %w", err)
	}
	defer rows.Close()
	var out []Coupling
	for rows.Next() {
		var c Coupling
		if err := rows.Scan(&c.Ref, &c.Shared, &c.Total); err != nil {
			return nil, 0, fmt.Errorf("read coupling: %w", err)
		}
		out = append(out, c)
	}
	return out, own, rows.Err()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
