package index

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentero/agentero/backend/metadata"
)

// SetCitedYears records, for every paper, the year the library's papers
// give when they cite it (years maps a paper's ref to it; a paper missing
// from years is cited with no year, or not at all), and derives again the
// year of each paper whose cited year changed (derive: it stands in for a
// year that only dates the copy). It returns the refs whose shown year
// changed. refs.Sync calls it once its matches are made.
func (db *DB) SetCitedYears(ctx context.Context, years map[string]int) ([]string, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("set cited years: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, ref, cited_year, year, metadata, extracted FROM papers`)
	if err != nil {
		return nil, fmt.Errorf("set cited years: %w", err)
	}
	type change struct {
		id                 int64
		ref                string
		cited, year, shown int // shown: the year before
	}
	var changes []change
	for rows.Next() {
		var c change
		var old int
		var metaJSON, extractedJSON string
		if err := rows.Scan(&c.id, &c.ref, &old, &c.shown, &metaJSON, &extractedJSON); err != nil {
			rows.Close()
			return nil, fmt.Errorf("set cited years: %w", err)
		}
		c.cited = years[c.ref]
		if c.cited == old {
			continue
		}
		var m metadata.File
		var x extracted
		_ = json.Unmarshal([]byte(metaJSON), &m)
		_ = json.Unmarshal([]byte(extractedJSON), &x)
		c.year = metadata.Derive(c.ref, m, x.Extracted, c.cited).Year
		changes = append(changes, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("set cited years: %w", err)
	}
	var changed []string
	for _, c := range changes {
		if _, err := tx.ExecContext(ctx, `UPDATE papers SET cited_year = ?, year = ? WHERE id = ?`, c.cited, c.year, c.id); err != nil {
			return nil, fmt.Errorf("set cited years: %w", err)
		}
		if c.year != c.shown {
			changed = append(changed, c.ref)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("set cited years: %w", err)
	}
	return changed, nil
}
