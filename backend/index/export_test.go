package index

import (
	"context"
	"testing"
)

// SetRankAll sets the number of papers beyond which Search ranks paper
// first, for the rest of the test.
func SetRankAll(t testing.TB, n int) {
	old := rankAll
	rankAll = n
	t.Cleanup(func() { rankAll = old })
}

// ForgetPaperText leaves the index as migration 003 leaves an older one:
// no papers_fts rows, every paper on paper_text_todo.
func (db *DB) ForgetPaperText(ctx context.Context) error {
	_, err := db.sql.ExecContext(ctx, `DELETE FROM papers_fts; INSERT OR IGNORE INTO paper_text_todo SELECT id FROM papers`)
	return err
}

// PaperTextRows counts the rows of papers_fts.
func (db *DB) PaperTextRows(ctx context.Context) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM papers_fts`).Scan(&n)
	return n, err
}

// Weights returns the ranking's weights.
func CurrentWeights() Weights { return weights }

// SetWeights sets the ranking's weights for the rest of the test.
func SetWeights(t testing.TB, w Weights) {
	old := weights
	weights = w
	t.Cleanup(func() { weights = old })
}

// SetMaxPaperWords sets how many words papers are ranked by as wholes,
// for the rest of the test.
func SetMaxPaperWords(t testing.TB, n int) {
	old := maxPaperWords
	maxPaperWords = n
	t.Cleanup(func() { maxPaperWords = old })
}

// SetMaxFieldWords sets how many words papers' fields are weighed by, for
// the rest of the test.
func SetMaxFieldWords(t testing.TB, n int) {
	old := maxFieldWords
	maxFieldWords = n
	t.Cleanup(func() { maxFieldWords = old })
}
