package index

import (
	"context"
	"fmt"
	"slices"
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

// ListedPaper is a paper as ListPapers lists it: Paper has its tags.
type ListedPaper = Paper

// ListPapers returns the papers the filter selects, ordered by ref, from
// its Offset, and how many it selects in all.
func (db *DB) ListPapers(ctx context.Context, f PaperFilter) ([]ListedPaper, int, error) {
	var where []string
	var args []any
	if cond, a, all := refScope("ref", Scope{Folders: []string{f.Folder}}); !all {
		where = append(where, cond)
		args = append(args, a...)
	}
	if f.YearFrom > 0 {
		where = append(where, `year >= ?`)
		args = append(args, f.YearFrom)
	}
	if f.YearTo > 0 {
		where = append(where, `year > 0 AND year <= ?`)
		args = append(args, f.YearTo)
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	limit, offset := f.Limit, max(f.Offset, 0)
	if limit <= 0 {
		limit = 20
	}
	// An author is matched in Go, folded as every search folds
	// (text.Fold), and a tag as the library reads tags (a list
	// or one comma-separated string), so their count and page are counted
	// here; without them, SQLite counts and pages.
	author := text.Fold(strings.TrimSpace(f.Author))
	tag := strings.TrimSpace(f.Tag)
	inGo := author != "" || tag != ""
	total, skip := 0, offset
	page := ""
	if !inGo {
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
		p, err := scanPaper(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list papers: %w", err)
		}
		if author != "" && !strings.Contains(text.Fold(strings.Join(p.Authors, "\n")), author) {
			continue
		}
		if tag != "" && !slices.ContainsFunc(p.Tags, func(t string) bool { return strings.EqualFold(strings.TrimSpace(t), tag) }) {
			continue
		}
		if p.Tags == nil {
			p.Tags = []string{}
		}
		if seen >= skip && len(out) < limit {
			out = append(out, p)
		}
		seen++
	}
	if inGo {
		total = seen
	}
	return out, total, rows.Err()
}
