package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/outline"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

func (db *DB) known(ctx context.Context) (map[string]*known, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, ref, pdf_path, pdf_sha256, status, pdf_size, pdf_mtime,
		extractor_version, meta_path, meta_size, meta_mtime, extracted FROM papers`)
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer rows.Close()
	out := map[string]*known{}
	for rows.Next() {
		k := &known{}
		if err := rows.Scan(&k.id, &k.ref, &k.pdfPath, &k.sha, &k.status, &k.size, &k.mtime, &k.version,
			&k.metaPath, &k.metaSize, &k.metaMtime, &k.extracted); err != nil {
			return nil, fmt.Errorf("read index: %w", err)
		}
		out[k.ref] = k
	}
	return out, rows.Err()
}

// insertPending lists new papers at once, before their PDFs are read, so the
// library shows them while indexing runs.
func (db *DB) insertPending(ctx context.Context, root string, jobs []job) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, j := range jobs {
		if j.old != nil {
			continue
		}
		m, _ := readMetadata(ctx, root, j.p)
		d := metadata.Derive(j.p.Ref, m, metadata.Extracted{}, 0)
		authors, _ := json.Marshal(d.Authors)
		if _, err := tx.ExecContext(ctx, `INSERT INTO papers (ref, pdf_path, title, title_source, authors, year, doi, arxiv_id, abstract, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, j.p.Ref, j.p.PDF, d.Title, d.TitleSource, string(authors), d.Year,
			d.DOI, d.ArxivID, d.Abstract, StatusPending); err != nil {
			return fmt.Errorf("list %s: %w", j.p.Ref, err)
		}
	}
	return tx.Commit()
}

// updateMetadata re-derives a paper's metadata after its metadata.json
// changed, from what was extracted before.
func (db *DB) updateMetadata(ctx context.Context, root string, k *known, p vault.Paper) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := setMetadata(ctx, tx, root, k.id, k.extracted, p, true); err != nil {
		return err
	}
	return tx.Commit()
}

// setMetadata derives a paper's metadata again and records it. With
// names, a changed title, author list or abstract is written to the
// paper's rows of papers_fts and fields_fts too (writeDocument writes them
// itself, after).
func setMetadata(ctx context.Context, tx *sql.Tx, root string, id int64, extractedJSON string, p vault.Paper, names bool) error {
	var x extracted
	_ = json.Unmarshal([]byte(extractedJSON), &x)
	m, warn := readMetadata(ctx, root, p)
	warn = joinNotes(warn, x.Cut, garbledNote(x.Garbled), ocrNote(x.OCR, x.NoOCR))
	var cited int
	if err := tx.QueryRowContext(ctx, `SELECT cited_year FROM papers WHERE id = ?`, id).Scan(&cited); err != nil {
		return fmt.Errorf("update metadata: %w", err)
	}
	d := metadata.Derive(p.Ref, m, x.Extracted, cited)
	authors, _ := json.Marshal(d.Authors)
	var oldTitle, oldAuthors, oldAbstract string
	if names {
		if err := tx.QueryRowContext(ctx, `SELECT title, authors, abstract FROM papers WHERE id = ?`, id).Scan(&oldTitle, &oldAuthors, &oldAbstract); err != nil {
			return fmt.Errorf("update metadata: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE papers SET ref = ?, pdf_path = ?, pdf_size = ?, pdf_mtime = ?,
		meta_path = ?, meta_size = ?, meta_mtime = ?, metadata = ?,
		title = ?, title_source = ?, authors = ?, year = ?, doi = ?, arxiv_id = ?, abstract = ?,
		error = CASE WHEN status = 'error' THEN error ELSE ? END
		WHERE id = ?`,
		p.Ref, p.PDF, p.Size, p.ModTime.UnixNano(), p.Metadata, p.MetaSize, p.MetaMod.UnixNano(), metadataJSON(m),
		d.Title, d.TitleSource, string(authors), d.Year, d.DOI, d.ArxivID, d.Abstract, warn, id)
	if err != nil {
		return fmt.Errorf("update metadata: %w", err)
	}
	if !names || oldTitle == d.Title && oldAuthors == string(authors) && oldAbstract == d.Abstract {
		return nil
	}
	texts, err := pageTexts(ctx, tx, id)
	if err == nil {
		err = writePaperRow(ctx, tx, id, texts)
	}
	if err != nil {
		return fmt.Errorf("update metadata: %w", err)
	}
	return nil
}

// write records one read result in its own transaction.
func (db *DB) write(ctx context.Context, root string, r result, now time.Time) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	switch {
	case r.moved != nil:
		// The content moved from a removed ref: keep its pages, drop the
		// pending row listed for the new ref.
		if _, err := tx.ExecContext(ctx, `DELETE FROM papers WHERE ref = ? AND id != ?`, r.p.Ref, r.moved.id); err != nil {
			return err
		}
		if err := setMetadata(ctx, tx, root, r.moved.id, r.moved.extracted, r.p, true); err != nil {
			return err
		}
	case r.touch:
		if err := setMetadata(ctx, tx, root, r.old.id, r.old.extracted, r.p, true); err != nil {
			return err
		}
	default:
		if err := writeDocument(ctx, tx, root, r, now); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// writeDocument replaces a paper's pages and sections with what was extracted
// (or records why nothing could be).
func writeDocument(ctx context.Context, tx *sql.Tx, root string, r result, now time.Time) error {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO papers (ref, pdf_path) VALUES (?, ?)
		ON CONFLICT (ref) DO UPDATE SET pdf_path = excluded.pdf_path RETURNING id`, r.p.Ref, r.p.PDF).Scan(&id)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM pages WHERE paper_id = ?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sections WHERE paper_id = ?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM figures WHERE paper_id = ?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM paper_text_todo WHERE paper_id = ?`, id); err != nil {
		return err
	}
	status, errText, noText := StatusError, "", 0
	var x extracted
	var texts []string
	if r.err != nil {
		errText = userError(r.err)
	} else {
		x = fromDocument(r.doc)
		x.NoOCR = r.noOCR
		// garbled pages are not text: not indexed, counted with the pages
		// without a text layer
		doc := withoutGarbled(r.doc, x.Garbled)
		if texts, err = insertPages(ctx, tx, id, doc); err != nil {
			return err
		}
		for _, pg := range doc.Pages {
			if strings.TrimSpace(pg.Text) == "" && !pg.Cut {
				noText++
			}
		}
		switch {
		case len(r.doc.Pages) == 0:
			status, errText = StatusError, "the PDF has no pages"
		case noText == len(r.doc.Pages) && len(x.Garbled) > 0:
			status = StatusGarbled
		case noText == len(r.doc.Pages):
			status = StatusNoText
		case noText > 0:
			status = StatusPartial
		default:
			status = StatusOK
		}
	}
	xj, _ := json.Marshal(x)
	pages := 0
	if r.doc != nil {
		pages = len(r.doc.Pages)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE papers SET pdf_sha256 = ?, extractor_version = ?, extracted = ?,
		page_count = ?, no_text_pages = ?, status = ?, error = '', indexed_at = ? WHERE id = ?`,
		r.sha, pdf.ExtractorVersion, string(xj), pages, noText, status, now.Unix(), id); err != nil {
		return err
	}
	if err := setMetadata(ctx, tx, root, id, string(xj), r.p, false); err != nil {
		return err
	}
	if err := writePaperRow(ctx, tx, id, texts); err != nil {
		return err
	}
	if errText != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE papers SET error = ? WHERE id = ?`, errText, id); err != nil {
			return err
		}
	}
	return nil
}

// insertPages writes a paper's pages (and through the trigger, pages_fts)
// and its sections (backend/outline: the outline when it is right, else the
// headings found on the pages), and returns the pages' texts.
func insertPages(ctx context.Context, tx *sql.Tx, id int64, doc *pdf.Document) ([]string, error) {
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pages (paper_id, page, label, text) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	texts := make([]string, 0, len(doc.Pages))
	for _, pg := range doc.Pages {
		if _, err := ins.ExecContext(ctx, id, pg.Number, pg.Label, pg.Text); err != nil {
			return nil, err
		}
		texts = append(texts, pg.Text)
	}
	sec, err := tx.PrepareContext(ctx, `INSERT INTO sections (paper_id, ord, level, title, page, start, source) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer sec.Close()
	sections, source := outline.Sections(doc)
	for i, s := range sections {
		if _, err := sec.ExecContext(ctx, id, i, s.Level, s.Title, s.Page, s.Offset, string(source)); err != nil {
			return nil, err
		}
	}
	if err := insertFigures(ctx, tx, id, doc); err != nil {
		return nil, err
	}
	return texts, nil
}

// summarise fills the totals of a sync from the index.
func (db *DB) summarise(ctx context.Context, s *Stats) error {
	s.NoTextPapers, s.Errors, s.Warnings = []string{}, []PaperError{}, []PaperError{}
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(page_count), 0) FROM papers`).Scan(&s.Papers, &s.Pages); err != nil {
		return err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, status, error FROM papers
		WHERE status IN ('no-text', 'error') OR (status != 'pending' AND error != '') ORDER BY ref`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var ref, status, e string
		if err := rows.Scan(&ref, &status, &e); err != nil {
			return err
		}
		switch status {
		case StatusNoText:
			s.NoTextPapers = append(s.NoTextPapers, ref)
			if e != "" {
				s.Warnings = append(s.Warnings, PaperError{Ref: ref, Error: e})
			}
		case StatusError:
			s.Errors = append(s.Errors, PaperError{Ref: ref, Error: e})
		default:
			s.Warnings = append(s.Warnings, PaperError{Ref: ref, Error: e})
		}
	}
	return rows.Err()
}

// syncFiles brings the text files of the vault into the index.
func (ix *Indexer) syncFiles(ctx context.Context, snap *vault.Snapshot) error {
	type fileRow struct {
		id          int64
		paper       string
		size, mtime int64
	}
	rows, err := ix.db.sql.QueryContext(ctx, `SELECT id, path, paper_ref, size, mtime FROM files`)
	if err != nil {
		return err
	}
	have := map[string]fileRow{}
	for rows.Next() {
		var r fileRow
		var p string
		if err := rows.Scan(&r.id, &p, &r.paper, &r.size, &r.mtime); err != nil {
			rows.Close()
			return err
		}
		have[p] = r
	}
	rows.Close()
	tx, err := ix.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, f := range snap.Files {
		old, ok := have[f.Path]
		delete(have, f.Path)
		// A file is read again when it changed, or when the paper it
		// belongs to did: a PDF taken out of its folder, or put into one.
		if ok && old.size == f.Size && old.mtime == f.ModTime.UnixNano() && old.paper == f.Paper {
			continue
		}
		text, rerr := vault.ReadText(ctx, snap.Root, f.Path)
		errText := ""
		if rerr != nil {
			errText = rerr.Error()
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO files (path, paper_ref, size, mtime, text, error) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET paper_ref = excluded.paper_ref, size = excluded.size, mtime = excluded.mtime,
			text = excluded.text, error = excluded.error`, f.Path, f.Paper, f.Size, f.ModTime.UnixNano(), text, errText); err != nil {
			return fmt.Errorf("index %s: %w", f.Path, err)
		}
	}
	for _, r := range have {
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, r.id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// tidyFTS merges the full-text index's segments after a sync wrote pages:
// FTS5 leaves one segment per transaction, and searching many segments
// costs about twice as much CPU as searching one. A large sync is followed
// by a full optimize; a small one by a bounded merge.
func (db *DB) tidyFTS(ctx context.Context, extracted int) error {
	if extracted == 0 {
		return nil
	}
	for _, table := range []string{"pages_fts", "papers_fts", "textless_fts"} {
		stmt := `INSERT INTO ` + table + `(` + table + `, rank) VALUES('merge', 64)`
		if extracted >= 50 {
			stmt = `INSERT INTO ` + table + `(` + table + `) VALUES('optimize')`
		}
		if _, err := db.sql.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}
