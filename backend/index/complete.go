package index

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/text"
)

// Completion is one @-mention candidate.
type Completion struct {
	Kind  string `json:"kind"` // paper, directory or file
	Path  string `json:"path"`
	Title string `json:"title,omitempty"`
}

// Complete lists the papers, folders and text files whose path or title
// contains every word of q (both folded: "altinbuken" finds "Altınbüken"),
// papers first, for @-mention completion.
func (db *DB) Complete(ctx context.Context, q string, limit int) ([]Completion, error) {
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	words := strings.Fields(text.Fold(q))
	match := func(s ...string) bool {
		hay := text.Fold(strings.Join(s, " "))
		for _, w := range words {
			if !strings.Contains(hay, w) {
				return false
			}
		}
		return true
	}
	out := []Completion{}
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, title FROM papers ORDER BY title`)
	if err != nil {
		return nil, err
	}
	dirs := map[string]bool{}
	for rows.Next() {
		var c Completion
		if err := rows.Scan(&c.Path, &c.Title); err != nil {
			rows.Close()
			return nil, err
		}
		for d := path.Dir(c.Path); d != "." && d != "/"; d = path.Dir(d) {
			dirs[d] = true
		}
		if match(c.Path, c.Title) && len(out) < limit {
			c.Kind = "paper"
			out = append(out, c)
		}
	}
	rows.Close()
	rows, err = db.sql.QueryContext(ctx, `SELECT path, paper_ref FROM files ORDER BY path`)
	if err != nil {
		return nil, err
	}
	var files []Completion
	for rows.Next() {
		var p, paper string
		if err := rows.Scan(&p, &paper); err != nil {
			rows.Close()
			return nil, err
		}
		if paper == "" {
			for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
				dirs[d] = true
			}
		}
		if match(p) {
			files = append(files, Completion{Kind: "file", Path: p})
		}
	}
	rows.Close()
	var dirList []string
	for d := range dirs {
		if match(d) {
			dirList = append(dirList, d)
		}
	}
	sort.Strings(dirList)
	for _, d := range dirList {
		if len(out) >= limit {
			break
		}
		out = append(out, Completion{Kind: "directory", Path: d})
	}
	for _, f := range files {
		if len(out) >= limit {
			break
		}
		out = append(out, f)
	}
	return out, nil
}
