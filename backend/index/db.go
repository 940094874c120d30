// Package index keeps the vault's search index, .agentero/index.sqlite
// (SPEC §2): papers with their metadata and health, page texts, sections and
// text files, with FTS5 tables over them. The index is a cache of the vault.
// Packages further down the data flow may keep their own tables in the same
// file, tied to its papers (backend/refs keeps the reference lists there):
// the index gives them its handle (DB.SQL) and applies their migrations
// (DB.Migrate), and never reads their tables itself.
package index

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"

	_ "github.com/mattn/go-sqlite3" // registers "sqlite3"; build with -tags sqlite_fts5
)

//go:embed migrations/*.sql
var migrations embed.FS

// Path returns where a vault's index lives.
func Path(vaultRoot string) string {
	return filepath.Join(vaultRoot, ".agentero", "index.sqlite")
}

// DB is the index of one vault. It is safe for concurrent use; writes are
// made by one Indexer at a time.
type DB struct {
	sql     *sql.DB
	path    string
	schemas []Schema
	notice  string // why Open rebuilt the file; "" when it did not
	titles  bool   // papers_fts has the title and pages columns (an index opened read-only may predate them)
	// textless: the index has textless_fts (migration 007), the metadata
	// of the papers without readable text (an index opened read-only may
	// predate it: metahits.go then reads those papers' rows)
	textless bool
	// starts: sections have their start and source (migration 008); an
	// index opened read-only may predate them, its sections then start at
	// their pages' tops
	starts bool
	// figures: the index has the figures table (migration 009)
	figures bool
	// idfs are the words' weights of the index as it is now (query.go)
	idfs idfCache
	// fields: the index has fields_fts (migration 010), each paper's
	// abstract, section titles and captions (fields.go)
	fields bool
}

// fieldsVersion is the schema version (migration 010) from which the
// index holds each paper's fields.
const fieldsVersion = 10

// figuresVersion is the schema version (migration 009) from which the
// index holds figures' and tables' captions.
const figuresVersion = 9

// startsVersion is the schema version (migration 008) from which sections
// say where on their page they start.
const startsVersion = 8

// titlesVersion is the schema version (migration 004) from which papers_fts
// holds each paper's title, authors and number of pages.
const titlesVersion = 4

// idleConns is how many connections stay open between reads: searches,
// the indexer and the UI's reads run side by side.
const idleConns = 4

// Options tunes Open. The zero value opens read-write and creates the file.
type Options struct {
	ReadOnly bool // open an existing index without writing (for the MCP server)
	// Schemas are the other packages' tables the file may hold (refs'):
	// their objects are trusted like the index's own, and Migrate applies
	// only these. Objects of an owner not listed here are taken as planted.
	Schemas []Schema
}

// Open opens (creating when needed) the index at path and brings its schema
// up to date. Pragmas are in the DSN so that every pooled connection has
// them; every connection also distrusts the file's schema and is defensive
// (registerGuard).
//
// The file may have come with the vault, from someone else. Before anything
// runs on it, its schema is compared with what the migrations make
// (checkSchema): a trigger, view, table or index they do not make (say, a
// trigger copying every page inserted into one paper's pages), a changed
// or missing one, a link or special file in place of the file or its
// journal, or a file SQLite cannot read, and the index is not used. Opened
// read-write it is then deleted and made anew, empty (the index is a cache:
// the next sync fills it from the vault), and Notice says why; opened
// read-only, Open fails with ErrUntrusted.
func Open(path string, opts Options) (*DB, error) {
	if err := registerRank(); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := registerGuard(); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("open index: %w", err)
		}
	}
	problems, err := checkFiles(path)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	var db *DB
	if len(problems) == 0 {
		db, problems, err = openChecked(path, opts)
		if err != nil {
			return nil, fmt.Errorf("open index: %w", err)
		}
	}
	if len(problems) > 0 {
		if opts.ReadOnly {
			return nil, fmt.Errorf("open index: %w (%s)", ErrUntrusted, describe(problems))
		}
		if db != nil {
			db.sql.Close()
		}
		for _, f := range stateFiles(path) {
			if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("open index: remove the untrusted index: %w", err)
			}
		}
		if db, err = connect(path, opts); err != nil {
			return nil, fmt.Errorf("open index: %w", err)
		}
		db.notice = fmt.Sprintf("The index of this vault (%s) was not one Agentero made (%s): it was deleted and the vault is indexed again.",
			filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path)), describe(problems))
	}
	if !opts.ReadOnly {
		if err := db.migrate(context.Background()); err != nil {
			db.sql.Close()
			return nil, fmt.Errorf("open index: %w", err)
		}
	}
	var version int
	if err := db.sql.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		db.sql.Close()
		return nil, fmt.Errorf("open index: %w", err)
	}
	db.titles = version >= titlesVersion
	db.starts = version >= startsVersion
	db.figures = version >= figuresVersion
	db.fields = version >= fieldsVersion
	if err := db.sql.QueryRow(`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'textless_fts')`).Scan(&db.textless); err != nil {
		db.sql.Close()
		return nil, fmt.Errorf("open index: %w", err)
	}
	return db, nil
}

// openChecked connects to the index at path and checks its schema. A file
// SQLite cannot read is a problem like a planted trigger; a schema newer
// than this Agentero is an error.
func openChecked(path string, opts Options) (*DB, []string, error) {
	db, err := connect(path, opts)
	if err != nil {
		if _, serr := os.Lstat(path); serr != nil {
			return nil, nil, err // no file to blame
		}
		return nil, []string{fmt.Sprintf("unreadable: %v", err)}, nil
	}
	problems, err := checkSchema(context.Background(), db.sql, opts.Schemas)
	var newer errNewer
	switch {
	case errors.As(err, &newer):
		db.sql.Close()
		return nil, nil, fmt.Errorf("%w; delete %s to rebuild it", err, path)
	case err != nil:
		problems = append(problems, fmt.Sprintf("unreadable: %v", err))
	}
	return db, problems, nil
}

// connect opens the database handle (no connection is made yet for a
// read-write one; a read-only one is pinged, so a missing file fails here).
// createPrivate makes the index file readable by its owner only before
// SQLite opens it (SQLite would create it 0644, and gives its -wal and -shm
// files the mode of the database): the index holds the text of every paper
// and note in the vault. An index an older Agentero left readable to others
// is narrowed the same way.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create the index file: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(st.Mode().Perm() &^ 0o077); err != nil {
			return fmt.Errorf("make the index file private: %w", err)
		}
	}
	return nil
}

func connect(path string, opts Options) (*DB, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_cache_size", "-32000")
	if opts.ReadOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
		q.Set("_txlock", "immediate")
	}
	if !opts.ReadOnly {
		if err := createPrivate(path); err != nil {
			return nil, err
		}
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	sdb, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	// Keep connections open between reads (opening one costs the DSN's
	// pragmas).
	sdb.SetMaxIdleConns(idleConns)
	if err := sdb.Ping(); err != nil {
		sdb.Close()
		return nil, err
	}
	return &DB{sql: sdb, path: path, schemas: opts.Schemas}, nil
}

// Notice is why Open deleted and remade the index file (its schema was not
// Agentero's), for the user; "" when it did not.
func (db *DB) Notice() string { return db.notice }

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// SQL returns the database handle, for the packages that keep their own
// tables in the index file: backend/refs keeps the reference lists there,
// next to the papers they belong to, so that deleting a paper deletes its
// citations (foreign keys) and the index stays one cache file. It is the
// same handle the index uses: the pragmas are in the DSN, so every pooled
// connection has them, and Close closes it for everyone. Such a package
// creates its tables with Migrate, joins the index's papers table on id and
// ref, and never writes the index's own tables.
func (db *DB) SQL() *sql.DB { return db.sql }

// Migrate brings the tables another package keeps in the index file up to
// date: owner's migrations are the *.sql files at the root of files,
// applied in name order, each in its own transaction. Their version is kept
// in the table schema_versions, one row per owner, apart from the index's
// own (PRAGMA user_version), so that either numbering can grow without the
// other. Migrate needs an index opened read-write; it is cheap when nothing
// is to be applied (one read, no write lock).
func (db *DB) Migrate(ctx context.Context, owner string, files fs.FS) error {
	if !db.knows(owner) {
		return fmt.Errorf("migrate %s tables: %s is not among the index's Options.Schemas, so its tables would be taken for planted ones", owner, owner)
	}
	v := schemaVersion{
		name: owner,
		read: func(ctx context.Context, q querier) (int, error) {
			var n int
			err := q.QueryRowContext(ctx, `SELECT version FROM schema_versions WHERE owner = ?`, owner).Scan(&n)
			if errors.Is(err, sql.ErrNoRows) {
				return 0, nil
			}
			return n, err
		},
		write: func(ctx context.Context, tx *sql.Tx, n int) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_versions (owner, version) VALUES (?, ?)
				ON CONFLICT (owner) DO UPDATE SET version = excluded.version`, owner, n)
			return err
		},
	}
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return fmt.Errorf("migrate %s tables: %w", owner, err)
	}
	if n, err := v.read(ctx, db.sql); err == nil && n == len(names) {
		return nil
	}
	if _, err := db.sql.ExecContext(ctx, schemaVersionsTable); err != nil {
		return fmt.Errorf("migrate %s tables: %w", owner, err)
	}
	if err := db.apply(ctx, files, names, v); err != nil {
		return fmt.Errorf("migrate %s tables: %w", owner, err)
	}
	return nil
}

// knows reports whether owner's Schema was given to Open.
func (db *DB) knows(owner string) bool {
	for _, s := range db.schemas {
		if s.Owner == owner {
			return true
		}
	}
	return false
}

// migrate applies the index's own embedded migrations newer than PRAGMA
// user_version.
func (db *DB) migrate(ctx context.Context) error {
	files, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return err
	}
	v := schemaVersion{
		name: "index",
		read: func(ctx context.Context, q querier) (int, error) {
			var n int
			err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&n)
			return n, err
		},
		write: func(ctx context.Context, tx *sql.Tx, n int) error {
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", n))
			return err
		},
	}
	if n, err := v.read(ctx, db.sql); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	} else if n == len(names) {
		return nil
	}
	return db.apply(ctx, files, names, v)
}

// querier is what reads a schema version: the database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaVersion reads and records how many of one set of migrations a
// database has.
type schemaVersion struct {
	name  string // "index", or the owner of the tables
	read  func(context.Context, querier) (int, error)
	write func(context.Context, *sql.Tx, int) error
}

// apply applies the migrations names (of files, in order) that the
// database lacks, each in its own transaction. The version is read inside
// the transaction, which takes the write lock first (_txlock=immediate): two
// processes opening one index at once apply each migration once.
func (db *DB) apply(ctx context.Context, files fs.FS, names []string, v schemaVersion) error {
	sort.Strings(names)
	for {
		done, err := db.applyNext(ctx, files, names, v)
		if err != nil || done {
			return err
		}
	}
}

// applyNext applies the first migration the database lacks, and reports
// whether none is left.
func (db *DB) applyNext(ctx context.Context, files fs.FS, names []string, v schemaVersion) (done bool, err error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	n, err := v.read(ctx, tx)
	switch {
	case err != nil:
		return false, fmt.Errorf("read schema version: %w", err)
	case n > len(names):
		return false, fmt.Errorf("%s schema %d is newer than this Agentero (%d); delete %s to rebuild it", v.name, n, len(names), db.path)
	case n == len(names):
		return true, nil
	}
	body, err := fs.ReadFile(files, names[n])
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return false, fmt.Errorf("migration %s: %w", names[n], err)
	}
	if err := v.write(ctx, tx, n+1); err != nil {
		return false, err
	}
	return n+1 == len(names), tx.Commit()
}
