package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/text"
)

// PaperFilter selects papers of the library by where they are and what
// their metadata says. Zero values select everything.
type PaperFilter struct {
	Folder   string // papers whose folder is this vault path or lies under it
	YearFrom int    // papers from this year on (papers without a year are left out)
	YearTo   int    // papers up to this year (papers without a year are left out)
	Author   string // an author whose name holds this text, case and diacritics ignored
	Tag      string // a tag of metadata.json equal to this, case ignored
	Limit    int    // papers to return; 0: 20
	Offset   int    // papers to skip
}

// ListedPaper is a paper with its tags (from metadata.json).
type ListedPaper struct {
	Paper
	Tags []string `json:"tags"`
}

// ListPapers returns the papers the filter selects, ordered by ref, from
// its Offset, and how many it selects in all.
func (db *DB) ListPapers(ctx context.Context, f PaperFilter) ([]ListedPaper, int, error) {
	var where []string
	var args []any
	if f.Folder != "" && f.Folder != "." {
		where = append(where, `(ref = ? OR substr(ref, 1, length(?) + 1) = ? || '/')`)
		args = append(args, f.Folder, f.Folder, f.Folder)
	}
	if f.YearFrom > 0 {
		where = append(where, `year >= ?`)
		args = append(args, f.YearFrom)
	}
	if f.YearTo > 0 {
		where = append(where, `year > 0 AND year <= ?`)
		args = append(args, f.YearTo)
	}
	if f.Tag != "" {
		where = append(where, `EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(metadata) THEN metadata ELSE '{}' END, '$.tags')
			WHERE lower(value) = lower(?))`)
		args = append(args, f.Tag)
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	limit, offset := f.Limit, max(f.Offset, 0)
	if limit <= 0 {
		limit = 20
	}
	// An author is matched in Go, folded as every search folds (case,
	// diacritics, ligatures), so its count and page are counted here;
	// without one, SQLite counts and pages.
	author := text.Fold(strings.TrimSpace(f.Author))
	total, skip := 0, offset
	page := ""
	if author == "" {
		if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM papers`+cond, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("list papers: %w", err)
		}
		page = ` LIMIT ? OFFSET ?`
		args = append(args, limit, offset)
		skip = 0
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+paperColumns+` FROM papers`+cond+` ORDER BY ref`+page, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list papers: %w", err)
	}
	defer rows.Close()
	out, seen := []ListedPaper{}, 0
	for rows.Next() {
		pp, err := scanPaper(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list papers: %w", err)
		}
		p := ListedPaper{Paper: pp, Tags: pp.Tags}
		if author != "" && !strings.Contains(text.Fold(strings.Join(p.Authors, "\n")), author) {
			continue
		}
		if seen >= skip && len(out) < limit {
			out = append(out, p)
		}
		seen++
	}
	if author != "" {
		total = seen
	}
	return out, total, rows.Err()
}
