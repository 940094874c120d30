package refs

// The reference lists live in the index file, in tables refs owns:
// ref_lists (one row per paper whose list was read) and citations (its
// entries, each matched to at most one library paper). Both reference the
// index's papers table, so a paper that leaves the index takes its list
// with it and unmatches the citations of it (foreign keys, on in the
// index's DSN); like the rest of the index they are a cache, rebuilt by
// Sync from the vault.
//
// The schema is refs' own: migrations/*.sql, applied by migrate through
// index.DB.Migrate with refs' own version record. Indexes made before refs
// owned these tables got them from the index's migration 002; refs' first
// migration is that schema with IF NOT EXISTS, so those keep their rows.
// Sync, the only writer, migrates first; the readers take missing tables
// (an index Sync never ran on, or opened read-only) as no lists.

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/index"
)

//go:embed migrations/*.sql
var migrations embed.FS

// schemaOwner names refs' version record in the index file.
const schemaOwner = "refs"

// Schema is refs' tables in the index file, for index.Open: an index
// opened without it takes them for planted tables.
func Schema() index.Schema {
	files, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the embedded folder is there: a build without it does not compile
	}
	return index.Schema{Owner: schemaOwner, Migrations: files}
}

// migrate creates or brings up to date refs' tables in a read-write index.
func migrate(ctx context.Context, db *index.DB) error {
	s := Schema()
	return db.Migrate(ctx, s.Owner, s.Migrations)
}

// noTables reports whether err is a read of refs' tables before migrate
// made them.
func noTables(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}

// ReadList returns the reference list Sync stored for the library paper
// ref, or index.ErrNotFound when none is stored (the paper is not in the
// index, or its list was not read yet).
func ReadList(ctx context.Context, db *index.DB, ref string) (List, error) {
	l := List{Ref: ref}
	err := db.SQL().QueryRowContext(ctx, `SELECT l.scan_key, l.lib_key, l.mode, l.note FROM ref_lists l
		JOIN papers p ON p.id = l.paper_id WHERE p.ref = ?`, ref).Scan(&l.ScanKey, &l.LibKey, &l.Mode, &l.Note)
	if errors.Is(err, sql.ErrNoRows) || noTables(err) {
		return l, index.ErrNotFound
	}
	if err != nil {
		return l, fmt.Errorf("read references of %s: %w", ref, err)
	}
	rows, err := db.SQL().QueryContext(ctx, `SELECT c.cid, c.display, c.raw, c.title, c.authors, c.year, c.venue, c.doi,
		c.arxiv_id, c.url, c.ids, coalesce(m.ref, ''), CASE WHEN m.id IS NULL THEN '' ELSE c.match_by END, c.work_key
		FROM citations c JOIN papers p ON p.id = c.paper_id LEFT JOIN papers m ON m.id = c.match_id
		WHERE p.ref = ? ORDER BY c.ord`, ref)
	if err != nil {
		return l, fmt.Errorf("read references of %s: %w", ref, err)
	}
	defer rows.Close()
	for rows.Next() {
		var c Citation
		var authors, ids string
		if err := rows.Scan(&c.ID, &c.Display, &c.Raw, &c.Title, &authors, &c.Year, &c.Venue, &c.DOI, &c.ArxivID,
			&c.URL, &ids, &c.MatchRef, &c.MatchBy, &c.WorkKey); err != nil {
			return l, fmt.Errorf("read references of %s: %w", ref, err)
		}
		if json.Unmarshal([]byte(authors), &c.Authors) != nil || c.Authors == nil {
			c.Authors = []string{}
		}
		c.IDs = strings.Fields(ids)
		l.Citations = append(l.Citations, c)
	}
	return l, rows.Err()
}

// putList replaces a paper's stored reference list with l, matches
// included. A paper no longer in the index is index.ErrNotFound.
func putList(ctx context.Context, db *index.DB, l List, now time.Time) error {
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, err := paperID(ctx, tx, l.Ref)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM citations WHERE paper_id = ?`, id); err != nil {
		return fmt.Errorf("store references of %s: %w", l.Ref, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO ref_lists (paper_id, scan_key, lib_key, mode, note, scanned_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (paper_id) DO UPDATE SET scan_key = excluded.scan_key,
		lib_key = excluded.lib_key, mode = excluded.mode, note = excluded.note, scanned_at = excluded.scanned_at`,
		id, l.ScanKey, l.LibKey, l.Mode, l.Note, now.Unix()); err != nil {
		return fmt.Errorf("store references of %s: %w", l.Ref, err)
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO citations (paper_id, ord, cid, display, raw, title, authors, year,
		venue, doi, arxiv_id, url, ids, match_id, match_by, work_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM papers WHERE ref = ? AND ? != ''), ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for i, c := range l.Citations {
		authors := c.Authors
		if authors == nil {
			authors = []string{}
		}
		a, _ := json.Marshal(authors)
		if _, err := ins.ExecContext(ctx, id, i, c.ID, c.Display, c.Raw, c.Title, string(a), c.Year, c.Venue, c.DOI,
			c.ArxivID, c.URL, strings.Join(c.IDs, " "), c.MatchRef, c.MatchRef, c.MatchBy, c.WorkKey); err != nil {
			return fmt.Errorf("store references of %s: %w", l.Ref, err)
		}
	}
	return tx.Commit()
}

// setMatches stores the matches of the citations cs[i], i in changed, of a
// paper's list (cs is the whole list, in order), and the library key they
// were made against.
func setMatches(ctx context.Context, db *index.DB, ref, libKey string, cs []Citation, changed []int) error {
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, err := paperID(ctx, tx, ref)
	if err != nil {
		return err
	}
	up, err := tx.PrepareContext(ctx, `UPDATE citations SET match_id = (SELECT id FROM papers WHERE ref = ? AND ? != ''),
		match_by = ?, work_key = ? WHERE paper_id = ? AND ord = ?`)
	if err != nil {
		return err
	}
	defer up.Close()
	for _, i := range changed {
		c := cs[i]
		if _, err := up.ExecContext(ctx, c.MatchRef, c.MatchRef, c.MatchBy, c.WorkKey, id, i); err != nil {
			return fmt.Errorf("store matches of %s: %w", ref, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE ref_lists SET lib_key = ? WHERE paper_id = ?`, libKey, id); err != nil {
		return fmt.Errorf("store matches of %s: %w", ref, err)
	}
	return tx.Commit()
}

// paperID is the index row of the paper ref, or index.ErrNotFound.
func paperID(ctx context.Context, tx *sql.Tx, ref string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM papers WHERE ref = ?`, ref).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, index.ErrNotFound
	}
	return id, err
}

// listState is what the store remembers of a list without reading it.
type listState struct {
	ScanKey, LibKey, Mode, Note string
	Citations                   int
}

// listStates returns the state of every stored list, by paper ref.
func listStates(ctx context.Context, db *index.DB) (map[string]listState, error) {
	rows, err := db.SQL().QueryContext(ctx, `SELECT p.ref, l.scan_key, l.lib_key, l.mode, l.note,
		(SELECT count(*) FROM citations c WHERE c.paper_id = l.paper_id) FROM ref_lists l JOIN papers p ON p.id = l.paper_id`)
	if noTables(err) {
		return map[string]listState{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read reference lists: %w", err)
	}
	defer rows.Close()
	out := map[string]listState{}
	for rows.Next() {
		var ref string
		var s listState
		if err := rows.Scan(&ref, &s.ScanKey, &s.LibKey, &s.Mode, &s.Note, &s.Citations); err != nil {
			return nil, fmt.Errorf("read reference lists: %w", err)
		}
		out[ref] = s
	}
	return out, rows.Err()
}

// edge is one in-library citation: Citing's reference list holds Cited.
type edge struct {
	Citing, Cited, MatchBy string
}

// citationEdges lists every in-library citation, by citing then cited ref;
// a paper citing another twice gives one edge.
func citationEdges(ctx context.Context, db *index.DB) ([]edge, error) {
	return readEdges(ctx, db, `SELECT p.ref, m.ref, min(c.match_by) FROM citations c
		JOIN papers p ON p.id = c.paper_id JOIN papers m ON m.id = c.match_id
		WHERE m.id != p.id GROUP BY p.id, m.id ORDER BY p.ref, m.ref`)
}

// citingPapers lists the library papers whose reference lists hold ref,
// with how the entry was matched, by citing ref.
func citingPapers(ctx context.Context, db *index.DB, ref string) ([]edge, error) {
	return readEdges(ctx, db, `SELECT p.ref, m.ref, min(c.match_by) FROM papers m
		JOIN citations c ON c.match_id = m.id JOIN papers p ON p.id = c.paper_id
		WHERE m.ref = ? AND p.id != m.id GROUP BY p.id ORDER BY p.ref`, ref)
}

func readEdges(ctx context.Context, db *index.DB, query string, args ...any) ([]edge, error) {
	rows, err := db.SQL().QueryContext(ctx, query, args...)
	if noTables(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read citations: %w", err)
	}
	defer rows.Close()
	var out []edge
	for rows.Next() {
		var e edge
		if err := rows.Scan(&e.Citing, &e.Cited, &e.MatchBy); err != nil {
			return nil, fmt.Errorf("read citations: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// coupling is a library paper that shares cited works with another.
type coupling struct {
	Ref    string
	Shared int // works both lists cite
	Total  int // distinct works the other paper's list cites
}

// coupledPapers lists the papers whose reference lists share works with
// ref's (bibliographic coupling), with how many works each cites, and how
// many distinct works ref itself cites.
func coupledPapers(ctx context.Context, db *index.DB, ref string) ([]coupling, int, error) {
	var own int
	err := db.SQL().QueryRowContext(ctx, `SELECT count(DISTINCT c.work_key) FROM citations c
		JOIN papers p ON p.id = c.paper_id WHERE p.ref = ? AND c.work_key != ''`, ref).Scan(&own)
	if noTables(err) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read coupling: %w", err)
	}
	rows, err := db.SQL().QueryContext(ctx, `
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
	var out []coupling
	for rows.Next() {
		var c coupling
		if err := rows.Scan(&c.Ref, &c.Shared, &c.Total); err != nil {
			return nil, 0, fmt.Errorf("read coupling: %w", err)
		}
		out = append(out, c)
	}
	return out, own, rows.Err()
}
