package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
)

// A text file follows its folder's paper: a PDF taken out of the folder
// leaves its notes to no paper, one put back makes them the paper's again,
// though the notes themselves did not change.
func TestFileFollowsItsPaper(t *testing.T) {
	manifest(t)
	root := makeVault(t, []string{"peercoin.pdf"})
	notes := filepath.Join(root, "papers/peercoin/NOTES.md")
	if err := os.WriteFile(notes, []byte("Proof-of-stake, read again.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, root)
	ex := sharedExtractor()
	paperOf := func() string {
		t.Helper()
		var ref string
		if err := db.SQL().QueryRowContext(t.Context(), `SELECT paper_ref FROM files WHERE path = 'papers/peercoin/NOTES.md'`).Scan(&ref); err != nil {
			t.Fatal(err)
		}
		return ref
	}

	syncVault(t, db, ex, root)
	if got := paperOf(); got != "papers/peercoin" {
		t.Fatalf("NOTES.md belongs to %q, want papers/peercoin", got)
	}
	pdf := filepath.Join(root, "papers/peercoin/peercoin.pdf")
	kept := filepath.Join(t.TempDir(), "peercoin.pdf")
	if err := os.Rename(pdf, kept); err != nil {
		t.Fatal(err)
	}
	syncVault(t, db, ex, root)
	if got := paperOf(); got != "" {
		t.Errorf("with the PDF taken out, NOTES.md belongs to %q, want no paper", got)
	}
	if err := os.Rename(kept, pdf); err != nil {
		t.Fatal(err)
	}
	syncVault(t, db, ex, root)
	if got := paperOf(); got != "papers/peercoin" {
		t.Errorf("with the PDF back, NOTES.md belongs to %q, want papers/peercoin", got)
	}
}

// movingExtractor is the real extractor, with the user moving a file away
// while its first reading starts: the reading fails, through no fault of
// the file's bytes.
type movingExtractor struct {
	inner index.Extractor
	move  func(path string) // called before the first reading only, with the file's path
	once  sync.Once
}

func (m *movingExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	var moved bool
	m.once.Do(func() { m.move(f.Name()); moved = true })
	if moved {
		// The file went away under its reader: the reading fails.
		return nil, fmt.Errorf("open pdf: %w", os.ErrNotExist)
	}
	return m.inner.ExtractFile(ctx, f)
}

// A reading that failed because the file went away is no verdict on its
// bytes: the same bytes under another folder (the folder moved) or under
// the same ref with a new mtime (the file put back) are read again, not
// given the failure.
func TestFailedReadingIsNotReused(t *testing.T) {
	manifest(t)
	tests := []struct {
		name string
		move func(t *testing.T, root, path string) // while the first reading starts
		then func(t *testing.T, root string)       // before the second sync
		want string                                // the ref that must end up read
	}{
		{
			name: "folder moved while read",
			move: func(t *testing.T, root, _ string) {
				if err := os.Rename(filepath.Join(root, "papers/peercoin"), filepath.Join(root, "papers/moved")); err != nil {
					t.Fatal(err)
				}
			},
			then: func(*testing.T, string) {},
			want: "papers/moved",
		},
		{
			name: "file away while read, then back",
			move: func(t *testing.T, root, path string) {
				if err := os.Rename(path, filepath.Join(root, "peercoin.pdf.away")); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, root string) {
				path := filepath.Join(root, "papers/peercoin/peercoin.pdf")
				if err := os.Rename(filepath.Join(root, "peercoin.pdf.away"), path); err != nil {
					t.Fatal(err)
				}
				later := time.Now().Add(time.Hour)
				if err := os.Chtimes(path, later, later); err != nil {
					t.Fatal(err)
				}
			},
			want: "papers/peercoin",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := makeVault(t, []string{"peercoin.pdf"})
			db := openDB(t, root)
			ex := &movingExtractor{inner: sharedExtractor(), move: func(path string) { tt.move(t, root, path) }}
			syncVault(t, db, ex, root)
			if p, err := db.Paper(t.Context(), "papers/peercoin"); err != nil || p.Status != index.StatusError {
				t.Fatalf("the reading the move interrupted left %+v, %v; want an error", p, err)
			}
			tt.then(t, root)
			syncVault(t, db, ex, root)
			p, err := db.Paper(t.Context(), tt.want)
			if err != nil || p.Status != index.StatusOK || p.Pages != 6 {
				t.Errorf("%s after the next sync = %+v, %v; want it read: ok, 6 pages", tt.want, p, err)
			}
		})
	}
}
