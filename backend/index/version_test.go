package index

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/sync/errgroup"
)

// fixedExtractor returns a one-page document and counts its calls.
type fixedExtractor struct{ calls atomic.Int32 }

func (f *fixedExtractor) ExtractFile(context.Context, *os.File) (*pdf.Document, error) {
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

// Another package's tables (backend/refs) migrate with their own version:
// applied once each, in order, also by two handles at once, and never
// touching the index's own schema version.
func TestOwnerMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.sqlite")
	files := fstest.MapFS{
		"001_log.sql":  {Data: []byte(`CREATE TABLE owned_log (step INTEGER NOT NULL); INSERT INTO owned_log VALUES (1);`)},
		"002_more.sql": {Data: []byte(`INSERT INTO owned_log VALUES (2);`)},
	}
	opts := Options{Schemas: []Schema{{Owner: "owner", Migrations: files}}}
	db, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	steps := func() []int {
		t.Helper()
		rows, err := db.sql.Query(`SELECT step FROM owned_log ORDER BY rowid`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []int
		for rows.Next() {
			var n int
			rows.Scan(&n)
			out = append(out, n)
		}
		return out
	}
	var g errgroup.Group
	for _, h := range []*DB{db, other} {
		g.Go(func() error { return h.Migrate(ctx, "owner", files) })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{1, 2}, steps()); d != "" {
		t.Errorf("two handles migrating at once (-want +got):\n%s", d)
	}

	files["003_last.sql"] = &fstest.MapFile{Data: []byte(`INSERT INTO owned_log VALUES (3);`)}
	for range 2 {
		if err := db.Migrate(ctx, "owner", files); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff([]int{1, 2, 3}, steps()); d != "" {
		t.Errorf("after a new migration, twice (-want +got):\n%s", d)
	}
	var indexVersion, ownerVersion int
	db.sql.QueryRow(`PRAGMA user_version`).Scan(&indexVersion)
	db.sql.QueryRow(`SELECT version FROM schema_versions WHERE owner = 'owner'`).Scan(&ownerVersion)
	if indexVersion != ownMigrations(t) || ownerVersion != 3 {
		t.Errorf("versions: index %d, owner %d; want %d (the index's own migrations) and 3", indexVersion, ownerVersion, ownMigrations(t))
	}

	another := fstest.MapFS{"001_another.sql": {Data: []byte(`CREATE TABLE another_log (step INTEGER NOT NULL);`)}}
	ro, err := Open(path, Options{ReadOnly: true, Schemas: append(opts.Schemas, Schema{Owner: "another", Migrations: another})})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Migrate(ctx, "another", another); err == nil {
		t.Error("migrating a read-only index succeeded, want an error")
	}

	delete(files, "003_last.sql")
	if err := db.Migrate(ctx, "owner", files); err == nil {
		t.Error("migrating tables a newer Agentero made succeeded, want an error")
	}
}

// ownMigrations is the number of the index's own migrations: the version a
// migrated index records in user_version.
func ownMigrations(t *testing.T) int {
	t.Helper()
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("the index's migrations: %v %v", names, err)
	}
	return len(names)
}
