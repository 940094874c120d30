package index_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/google/go-cmp/cmp"
)

// withRefs is how the app opens an index: refs' tables are known.
var withRefs = index.Options{Schemas: []index.Schema{refs.Schema()}}

// rawExec runs statements on the file with a plain connection, as whoever
// made a hostile index could.
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// anIndex leaves at path an index as Agentero makes it.
func anIndex(t *testing.T, path string) {
	t.Helper()
	db, err := index.Open(path, withRefs)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(context.Background(), "refs", refs.Schema().Migrations); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestPlantedIndex opens vaults that ship their own index: one whose schema
// is not exactly Agentero's is deleted and made anew (and the user told),
// and after a sync no paper holds pages that are not its own; the files a
// link in place of the index points to are never touched.
func TestPlantedIndex(t *testing.T) {
	manifest(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	cases := []struct {
		name  string
		plant func(t *testing.T, path string)
		want  string // in the notice; "" = kept as it is
	}{
		{"Agentero's own", anIndex, ""},
		{"a trigger copying every page into the other paper", func(t *testing.T, path string) {
			anIndex(t, path)
			// Whichever of the two papers is written last has its pages
			// copied into the one written first.
			rawExec(t, path, `CREATE TRIGGER pages_copy AFTER INSERT ON pages
				WHEN new.page < 100000 AND EXISTS (SELECT 1 FROM papers WHERE id = 3 - new.paper_id) BEGIN
				INSERT INTO pages (paper_id, page, label, text) VALUES (3 - new.paper_id, 100000 + new.id, '', new.text); END`)
		}, "an unknown trigger pages_copy"},
		{"a view", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `CREATE VIEW first_pages AS SELECT text FROM pages WHERE page = 1`)
		}, "an unknown view first_pages"},
		{"a table", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `CREATE TABLE notes (text TEXT)`)
		}, "an unknown table notes"},
		{"an index", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `CREATE INDEX pages_text ON pages(text)`)
		}, "an unknown index pages_text"},
		{"a trigger replaced", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `DROP TRIGGER pages_ad`, `CREATE TRIGGER pages_ad AFTER DELETE ON pages BEGIN SELECT 1; END`)
		}, "a changed trigger pages_ad"},
		{"a trigger dropped", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `DROP TRIGGER pages_ad`)
		}, "no trigger pages_ad"},
		{"tables of an unknown owner", func(t *testing.T, path string) {
			anIndex(t, path)
			rawExec(t, path, `INSERT INTO schema_versions (owner, version) VALUES ('plugin', 1)`)
		}, `unknown owner "plugin"`},
		{"not a database", func(t *testing.T, path string) {
			os.WriteFile(path, []byte("<html>not an index</html>"), 0o644)
		}, "unreadable"},
		{"a link to a file outside", func(t *testing.T, path string) {
			os.Symlink(outside, path)
		}, "index.sqlite is a symbolic link"},
		{"its journal a link to a file outside", func(t *testing.T, path string) {
			anIndex(t, path)
			os.Symlink(outside, path+"-wal")
		}, "index.sqlite-wal is a symbolic link"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(outside, []byte("not the index's\n"), 0o600)
			root := makeVault(t, []string{"peercoin.pdf", "bitcoin.pdf"})
			path := index.Path(root)
			os.MkdirAll(filepath.Dir(path), 0o700)
			c.plant(t, path)

			db, err := index.Open(path, withRefs)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := db.Notice(); c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("notice %q, want one saying %q", got, c.want)
			}
			if got, _ := os.ReadFile(outside); string(got) != "not the index's\n" {
				t.Errorf("the file outside now holds %q", got)
			}
			syncVault(t, db, sharedExtractor(), root)
			var strays int
			db.SQL().QueryRow(`SELECT count(*) FROM pages g JOIN papers p ON p.id = g.paper_id
				WHERE g.page > p.page_count`).Scan(&strays)
			if strays != 0 {
				t.Errorf("%d pages are in a paper they do not belong to", strays)
			}
			// What was kept or made opens read-only (the MCP server's way)
			// without complaint.
			ro, err := index.Open(path, index.Options{ReadOnly: true, Schemas: withRefs.Schemas})
			if err != nil {
				t.Fatalf("read-only: %v", err)
			}
			ro.Close()
		})
	}
}

// TestPlantedIndexReadOnly: the MCP server, which opens the index
// read-only, refuses one whose schema is not Agentero's.
func TestPlantedIndexReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.sqlite")
	anIndex(t, path)
	rawExec(t, path, `CREATE VIEW pages_all AS SELECT text FROM pages`)
	db, err := index.Open(path, index.Options{ReadOnly: true, Schemas: withRefs.Schemas})
	if !errors.Is(err, index.ErrUntrusted) {
		if db != nil {
			db.Close()
		}
		t.Fatalf("err %v, want ErrUntrusted", err)
	}
	// Without refs' schema, refs' tables are planted ones too.
	rawExec(t, path, `DROP VIEW pages_all`)
	if _, err := index.Open(path, index.Options{ReadOnly: true}); !errors.Is(err, index.ErrUntrusted) {
		t.Errorf("opened without refs' schema: %v, want ErrUntrusted", err)
	}
}

// TestConnectionsDistrustTheSchema: every connection runs with
// trusted_schema off, in defensive mode and without views.
func TestConnectionsDistrustTheSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.sqlite")
	db, err := index.Open(path, withRefs)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var trusted int
	conn.QueryRowContext(ctx, `PRAGMA trusted_schema`).Scan(&trusted)
	got := map[string]bool{"trusted_schema": trusted != 0}
	conn.ExecContext(ctx, `PRAGMA writable_schema = ON`)
	_, err = conn.ExecContext(ctx, `UPDATE sqlite_schema SET sql = sql WHERE name = 'pages'`)
	got["schema writable"] = err == nil
	_, err = conn.ExecContext(ctx, `INSERT INTO pages_fts_data (id, block) VALUES (999999, x'00')`)
	got["FTS shadow table writable"] = err == nil
	conn.ExecContext(ctx, `CREATE VIEW v AS SELECT 1 AS one`)
	var one int
	got["views usable"] = conn.QueryRowContext(ctx, `SELECT one FROM v`).Scan(&one) == nil
	want := map[string]bool{"trusted_schema": false, "schema writable": false, "FTS shadow table writable": false, "views usable": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("connection (-want +got):\n%s", diff)
	}
}

// The index holds the text of every paper and note: its file, and the
// -wal and -shm files SQLite gives the database's mode, are the owner's
// only, also when an older index was left readable to others.
func TestIndexFilesPrivate(t *testing.T) {
	old := t.TempDir()
	for _, tt := range []struct {
		name string
		path string
		prep func(path string)
	}{
		{"new", filepath.Join(t.TempDir(), ".agentero", "index.sqlite"), func(string) {}},
		{"left readable", filepath.Join(old, "index.sqlite"), func(path string) {
			anIndex(t, path)
			os.Chmod(path, 0o644)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.prep(tt.path)
			db, err := index.Open(tt.path, withRefs)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.SQL().Exec(`PRAGMA user_version`); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{tt.path, tt.path + "-wal", tt.path + "-shm"} {
				st, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				if st.Mode().Perm()&0o077 != 0 {
					t.Errorf("%s has mode %v, want the owner's only", filepath.Base(f), st.Mode().Perm())
				}
			}
		})
	}
}
