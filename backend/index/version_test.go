package index

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

// fixedExtractor returns a one-page document and counts its calls.
type fixedExtractor struct{ calls atomic.Int32 }

func (f *fixedExtractor) Extract(context.Context, string) (*pdf.Document, error) {
	f.calls.Add(1)
	return &pdf.Document{Pages: []pdf.Page{{Number: 1, Text: "words on a page"}}}, nil
}

func TestExtractorVersionBumpReextracts(t *testing.T) {
	root := t.TempDir()
	for _, ref := range []string{"papers/a", "papers/b"} {
		os.MkdirAll(filepath.Join(root, ref), 0o755)
		os.WriteFile(filepath.Join(root, ref, "paper.pdf"), []byte("%PDF-1.4 "+ref), 0o644)
	}
	db, err := Open(Path(root), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ex := &fixedExtractor{}
	ix := NewIndexer(db, ex, SyncOptions{})
	sync := func() {
		snap, err := vault.Scan(root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Sync(context.Background(), snap); err != nil {
			t.Fatal(err)
		}
	}
	sync()
	sync()
	if got := ex.calls.Load(); got != 2 {
		t.Fatalf("two syncs of an unchanged vault extracted %d times, want 2 (the first sync only)", got)
	}
	// As if the index had been written by an older extractor.
	if _, err := db.sql.Exec(`UPDATE papers SET extractor_version = ?`, pdf.ExtractorVersion-1); err != nil {
		t.Fatal(err)
	}
	sync()
	if got := ex.calls.Load(); got != 4 {
		t.Errorf("after a version bump: %d extractions in all, want 4", got)
	}
}

func TestMigrationsAreIdempotentAndRefuseNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.sqlite")
	for range 2 {
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	db, _ := Open(path, Options{})
	db.sql.Exec(`PRAGMA user_version = 999`)
	db.Close()
	if _, err := Open(path, Options{}); err == nil {
		t.Error("opening an index from a newer Agentero succeeded, want an error")
	}
}
