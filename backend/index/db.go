// Package index keeps the vault's search index, .agentero/index.sqlite
// (SPEC §2): papers with their metadata and health, page texts, sections and
// text files, with FTS5 tables over them. The index is a cache of the vault.
package index

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
	sql    *sql.DB
	path   string
	titles bool // papers_fts has the title and pages columns (an index opened read-only may predate them)
}

// titlesVersion is the schema version (migration 004) from which papers_fts
// holds each paper's title, authors and number of pages.
const titlesVersion = 4

// idleConns is how many connections stay open between reads: searches,
// the indexer and the UI's reads run side by side.
const idleConns = 4

// Options tunes Open. The zero value opens read-write and creates the file.
type Options struct {
	ReadOnly bool // open an existing index without writing (for the MCP server)
}

// Open opens (creating when needed) the index at path and brings its schema
// up to date. Pragmas are in the DSN so that every pooled connection has them.
func Open(path string, opts Options) (*DB, error) {
	if err := registerRank(); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_cache_size", "-32000")
	if opts.ReadOnly {
		q.Set("mode", "ro")
	} else {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("open index: %w", err)
		}
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", "NORMAL")
		q.Set("_txlock", "immediate")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	sdb, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	// Keep connections open between reads (opening one costs the DSN's
	// pragmas).
	sdb.SetMaxIdleConns(idleConns)
	db := &DB{sql: sdb, path: path}
	if !opts.ReadOnly {
		if err := db.migrate(context.Background()); err != nil {
			sdb.Close()
			return nil, fmt.Errorf("open index: %w", err)
		}
	}
	var version int
	if err := sdb.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open index: %w", err)
	}
	db.titles = version >= titlesVersion
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// migrate applies the embedded migrations newer than PRAGMA user_version, in
// order, each in its own transaction.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var version int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > len(names) {
		return fmt.Errorf("index schema %d is newer than this Agentero (%d); delete %s to rebuild it", version, len(names), db.path)
	}
	for i := version; i < len(names); i++ {
		body, err := migrations.ReadFile(names[i])
		if err != nil {
			return err
		}
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", strings.TrimPrefix(names[i], "migrations/"), err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}
