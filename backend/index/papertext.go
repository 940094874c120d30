package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/text"
)

// paperText is a paper's text in papers_fts: for each page, the distinct
// words on it (text.IsWordRune, lower case, in order of first use), one
// page per line. So a word counts once per page in the paper-level ranking
// (agentero_paper_rank), and the row stays small however often the word is
// repeated.
func paperText(pages []string) string {
	var b strings.Builder
	seen := map[string]bool{}
	var word []byte
	first := true
	flush := func() {
		if len(word) == 0 {
			return
		}
		if !seen[string(word)] { // no allocation for the lookup
			seen[string(word)] = true
			if !first {
				b.WriteByte(' ')
			}
			b.Write(word)
			first = false
		}
		word = word[:0]
	}
	for i, page := range pages {
		if i > 0 {
			b.WriteByte('\n')
		}
		clear(seen)
		first = true
		for _, r := range page {
			switch {
			case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'):
				word = append(word, byte(r))
			case r < utf8.RuneSelf && 'A' <= r && r <= 'Z':
				word = append(word, byte(r+'a'-'A'))
			case r < utf8.RuneSelf || !text.IsWordRune(r):
				flush()
			default:
				word = utf8.AppendRune(word, unicode.ToLower(r))
			}
		}
		flush()
	}
	return b.String()
}

// fillBatch is how many papers fillPaperText writes per transaction.
const fillBatch = 100

// fillPaperText writes the papers_fts rows of the papers listed in
// paper_text_todo: those indexed before papers_fts existed (about 5 ms a
// paper). It runs at the start of every sync, reports its progress like
// extraction does, and returns at once when none is left.
func (db *DB) fillPaperText(ctx context.Context, progress func(Progress)) error {
	var total int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM paper_text_todo`).Scan(&total); err != nil {
		return fmt.Errorf("fill paper text: %w", err)
	}
	for done := 0; done < total; {
		progress(Progress{Done: done, Total: total})
		n, err := db.fillPaperTextBatch(ctx)
		if err != nil {
			return fmt.Errorf("fill paper text: %w", err)
		}
		if n == 0 {
			break
		}
		done += n
	}
	return nil
}

func (db *DB) fillPaperTextBatch(ctx context.Context) (int, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT paper_id FROM paper_text_todo ORDER BY paper_id LIMIT ?`, fillBatch)
	if err != nil {
		return 0, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for _, id := range ids {
		texts, err := pageTexts(ctx, tx, id)
		if err != nil {
			return 0, err
		}
		if err := writePaperRow(ctx, tx, id, texts); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM paper_text_todo WHERE paper_id = ?`, id); err != nil {
			return 0, err
		}
	}
	return len(ids), tx.Commit()
}

// writePaperRow writes a paper's row of papers_fts: the distinct words of
// each of its pages (texts), its title and authors as the papers table has
// them now, and its number of pages; and its row of fields_fts
// (writeFields). A paper without pages has no row.
func writePaperRow(ctx context.Context, tx *sql.Tx, id int64, texts []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM papers_fts WHERE rowid = ?`, id); err != nil {
		return err
	}
	if err := writeFields(ctx, tx, id, len(texts) > 0); err != nil {
		return err
	}
	if len(texts) == 0 {
		return nil
	}
	var title, authorsJSON string
	if err := tx.QueryRowContext(ctx, `SELECT title, authors FROM papers WHERE id = ?`, id).Scan(&title, &authorsJSON); err != nil {
		return err
	}
	var authors []string
	_ = json.Unmarshal([]byte(authorsJSON), &authors)
	names := strings.Join(append([]string{title}, authors...), "\n")
	_, err := tx.ExecContext(ctx, `INSERT INTO papers_fts (rowid, text, title, pages) VALUES (?, ?, ?, ?)`, id, paperText(texts), names, len(texts))
	return err
}

// pageTexts returns a paper's page texts in page order.
func pageTexts(ctx context.Context, tx *sql.Tx, paperID int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT text FROM pages WHERE paper_id = ? ORDER BY page`, paperID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var texts []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		texts = append(texts, t)
	}
	return texts, rows.Err()
}

// paperTextReady reports whether every paper has its papers_fts row, so
// that Search may rank papers first. An index whose schema predates
// papers_fts (opened read-only, not migrated) is not ready either.
func (db *DB) paperTextReady(ctx context.Context) bool {
	var pending bool
	err := db.sql.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM paper_text_todo)`).Scan(&pending)
	return err == nil && !pending
}
