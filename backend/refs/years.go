package refs

import (
	"context"
	"fmt"

	"github.com/agentero/agentero/backend/index"
)

// citedYears reads the year the library's papers give for each paper they
// cite: the year most citing papers print, the earliest of a tie (a paper
// is cited by the year it appeared, later by a reprint's). A paper citing
// itself does not count.
func citedYears(ctx context.Context, db *index.DB) (map[string]int, error) {
	rows, err := db.SQL().QueryContext(ctx, `SELECT m.ref, c.year, count(DISTINCT c.paper_id) AS n
		FROM citations c JOIN papers m ON m.id = c.match_id
		WHERE c.year > 0 AND c.paper_id != c.match_id
		GROUP BY m.id, c.year ORDER BY m.ref, n DESC, c.year`)
	if noTables(err) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read cited years: %w", err)
	}
	defer rows.Close()
	years := map[string]int{}
	for rows.Next() {
		var ref string
		var year, n int
		if err := rows.Scan(&ref, &year, &n); err != nil {
			return nil, fmt.Errorf("read cited years: %w", err)
		}
		if _, ok := years[ref]; !ok {
			years[ref] = year
		}
	}
	return years, rows.Err()
}

// setCitedYears records the years the library cites its papers by in the
// index, and returns the papers whose shown year changed.
func setCitedYears(ctx context.Context, db *index.DB) ([]string, error) {
	years, err := citedYears(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("sync references: %w", err)
	}
	redated, err := db.SetCitedYears(ctx, years)
	if err != nil {
		return nil, fmt.Errorf("sync references: %w", err)
	}
	return redated, nil
}
