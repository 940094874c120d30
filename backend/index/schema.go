package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Schema is what another package keeps in the index file: the owner its
// version is recorded under (Migrate's owner) and its migrations, the *.sql
// files at the root of Migrations applied in name order. Open trusts the
// objects the index's own migrations and the Schemas it is given make, and
// nothing else.
type Schema struct {
	Owner      string
	Migrations fs.FS
}

// ErrUntrusted is returned by a read-only Open of an index whose schema is
// not Agentero's (a read-write Open rebuilds it instead).
var ErrUntrusted = errors.New("the index holds tables, triggers, views or indexes Agentero did not make; open the vault in Agentero to rebuild it")

// schemaVersionsTable is the statement that makes the owners' version
// table; its text is kept as it always was, since SQLite stores it in
// every index made with it and the schema check compares that text.
const schemaVersionsTable = `CREATE TABLE IF NOT EXISTS schema_versions (
		owner TEXT PRIMARY KEY, version INTEGER NOT NULL)`

// stateFiles are the index file and the files SQLite keeps beside it.
func stateFiles(path string) []string {
	return []string{path, path + "-wal", path + "-shm", path + "-journal"}
}

// checkFiles reports why the files at path cannot be opened as they are: a
// folder that is a link (an error: the vault's state folder is refused
// as a whole, vault.StateFolder) or a link or special file in place of the
// index or its journal (a problem: SQLite would write through it).
func checkFiles(path string) (problems []string, err error) {
	if st, err := os.Lstat(filepath.Dir(path)); err == nil && (st.Mode()&fs.ModeSymlink != 0 || !st.IsDir()) {
		return nil, fmt.Errorf("the index's folder %s is a symbolic link or not a folder; Agentero keeps its index only in a real folder inside the vault", filepath.Dir(path))
	}
	for _, f := range stateFiles(path) {
		st, err := os.Lstat(f)
		if err != nil {
			continue
		}
		if !st.Mode().IsRegular() {
			problems = append(problems, fmt.Sprintf("%s is a %s, not a file", filepath.Base(f), kindOf(st.Mode())))
		}
	}
	return problems, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "folder"
	default:
		return "special file"
	}
}

// schemaObject is one row of sqlite_schema.
type schemaObject struct {
	Type, Name, Table string
	SQL               sql.NullString
}

func (o schemaObject) key() string { return o.Type + " " + o.Name }

// readSchema reads every object of the database.
func readSchema(ctx context.Context, q *sql.Conn) (map[string]schemaObject, error) {
	rows, err := q.QueryContext(ctx, `SELECT type, name, tbl_name, sql FROM sqlite_schema`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]schemaObject{}
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.Type, &o.Name, &o.Table, &o.SQL); err != nil {
			return nil, err
		}
		out[o.key()] = o
	}
	return out, rows.Err()
}

// versions reads which of each set of migrations the database says it has:
// the index's own (PRAGMA user_version) and each owner's (schema_versions,
// when that table is there).
func versions(ctx context.Context, q *sql.Conn, objs map[string]schemaObject) (own int, owners map[string]int, err error) {
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&own); err != nil {
		return 0, nil, err
	}
	if _, ok := objs["table schema_versions"]; !ok {
		return own, nil, nil
	}
	owners = map[string]int{}
	rows, err := q.QueryContext(ctx, `SELECT owner, version FROM schema_versions`)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return 0, nil, err
		}
		owners[name] = n
	}
	return own, owners, rows.Err()
}

// errNewer is a schema made by a newer Agentero: left alone, not rebuilt.
type errNewer struct{ msg string }

func (e errNewer) Error() string { return e.msg }

// checkSchema compares the database's objects with those the same
// migrations make on an empty database (built in memory), and lists every
// difference: an object none of them makes (a planted trigger or view), one
// whose statement differs, or one of the index's own missing (a dropped
// trigger would leave the search index stale). The index's own objects
// must be exactly those of its recorded version. An owner's object may be
// that of its recorded version or of its latest: indexes made before refs
// owned its tables hold them with no version recorded (the index's own
// migration made them then, with the same statements). The versions only
// choose how far each reference goes; one beyond this Agentero's
// migrations is an errNewer.
func checkSchema(ctx context.Context, db *sql.DB, schemas []Schema) ([]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	got, err := readSchema(ctx, conn)
	if err != nil {
		return nil, err
	}
	own, recorded, err := versions(ctx, conn, got)
	if err != nil {
		return nil, err
	}
	var problems []string
	if own < 0 {
		problems = append(problems, fmt.Sprintf("schema version %d", own))
		own = 0
	}
	atRecorded, latest := map[string]int{}, map[string]int{}
	for name, n := range recorded {
		if n < 0 {
			problems = append(problems, fmt.Sprintf("%s schema version %d", name, n))
			continue
		}
		if !knownOwner(schemas, name) {
			problems = append(problems, fmt.Sprintf("tables of an unknown owner %q", name))
			continue
		}
		atRecorded[name] = n
	}
	for _, s := range schemas {
		latest[s.Owner] = -1 // all of them
	}
	_, versioned := got["table schema_versions"]
	required, err := reference(ctx, own, nil, schemas, versioned)
	if err != nil {
		return nil, err
	}
	refs := []map[string]schemaObject{required}
	for _, owners := range []map[string]int{atRecorded, latest} {
		ref, err := reference(ctx, own, owners, schemas, versioned)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	for k, o := range got {
		known, same := false, false
		for _, ref := range refs {
			if r, ok := ref[k]; ok {
				known, same = true, same || r == o
			}
		}
		switch {
		case !known:
			problems = append(problems, fmt.Sprintf("an unknown %s %s", o.Type, o.Name))
		case !same:
			problems = append(problems, fmt.Sprintf("a changed %s %s", o.Type, o.Name))
		}
	}
	for k, r := range required {
		if _, ok := got[k]; !ok {
			problems = append(problems, fmt.Sprintf("no %s %s", r.Type, r.Name))
		}
	}
	sort.Strings(problems)
	return problems, nil
}

func knownOwner(schemas []Schema, name string) bool {
	for _, s := range schemas {
		if s.Owner == name {
			return true
		}
	}
	return false
}

// reference builds in memory what the index's first own migrations make,
// then the owners' (owners[name] of them; -1: all), and reads its objects;
// versioned adds the owners' version table.
func reference(ctx context.Context, own int, owners map[string]int, schemas []Schema, versioned bool) (map[string]schemaObject, error) {
	files, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	ref, err := sql.Open("sqlite3", "file:reference?mode=memory")
	if err != nil {
		return nil, err
	}
	defer ref.Close()
	conn, err := ref.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := applyFirst(ctx, conn, "index", files, own); err != nil {
		return nil, err
	}
	if versioned {
		if _, err := conn.ExecContext(ctx, schemaVersionsTable); err != nil {
			return nil, err
		}
	}
	for _, s := range schemas { // in the order given, which is the order they migrate in
		if n, ok := owners[s.Owner]; ok {
			if err := applyFirst(ctx, conn, s.Owner, s.Migrations, n); err != nil {
				return nil, err
			}
		}
	}
	return readSchema(ctx, conn)
}

// applyFirst runs the first n migrations of files on conn (-1: all).
func applyFirst(ctx context.Context, conn *sql.Conn, owner string, files fs.FS, n int) error {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if n < 0 {
		n = len(names)
	}
	if n > len(names) {
		return errNewer{fmt.Sprintf("%s schema %d is newer than this Agentero (%d)", owner, n, len(names))}
	}
	for _, name := range names[:n] {
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("reference schema, %s migration %s: %w", owner, name, err)
		}
	}
	return nil
}

// describe words what was wrong with an index for the user.
func describe(problems []string) string {
	const most = 4
	if len(problems) > most {
		problems = append(problems[:most:most], fmt.Sprintf("%d more", len(problems)-most))
	}
	return strings.Join(problems, ", ")
}
