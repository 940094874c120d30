package index

import (
	"context"
	"fmt"
)

// PaperRefsUnder lists the refs of the papers inside folder (a clean vault
// path) at any depth, in ref order: what a folder grant covers as papers.
// Folders are compared by whole path components: "papers/a" never holds
// "papers/a-b".
func (db *DB) PaperRefsUnder(ctx context.Context, folder string) ([]string, error) {
	prefix := folder + "/"
	rows, err := db.sql.QueryContext(ctx, `SELECT ref FROM papers WHERE substr(ref, 1, ?) = ? ORDER BY ref`, len(prefix), prefix)
	if err != nil {
		return nil, fmt.Errorf("list the papers in %s: %w", folder, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var ref string
		if err := rows.Scan(&ref); err != nil {
			return nil, err
		}
		out = append(out, ref)
	}
	return out, rows.Err()
}
