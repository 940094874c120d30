package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
)

// IsPaperPDF reports whether rel (vault-relative, slash separated) is the
// PDF of a paper in the index: the only files the app's viewer is served.
func (db *DB) IsPaperPDF(ctx context.Context, rel string) (bool, error) {
	var one int
	err := db.sql.QueryRowContext(ctx, `SELECT 1 FROM papers WHERE pdf_path = ?`, rel).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up pdf: %w", err)
	}
	return true, nil
}

// PaperByPDF returns the paper whose PDF is rel (vault-relative, slash
// separated); ErrNotFound when no paper's PDF is. A paper's ref is the
// folder of its PDF, so the lookup goes by the indexed ref.
func (db *DB) PaperByPDF(ctx context.Context, rel string) (Paper, error) {
	p, err := scanPaper(db.sql.QueryRowContext(ctx, `SELECT `+paperColumns+` FROM papers WHERE ref = ? AND pdf_path = ?`, path.Dir(rel), rel))
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("look up pdf: %w", err)
	}
	return p, nil
}
