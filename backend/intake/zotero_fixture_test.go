package intake

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/internal/zoterotest"
)

// zoteroSchema is the part of Zotero's database an import reads, as Zotero
// creates it: userdata.sql (schema 107) for the user's tables, and the
// system tables (item types, fields, creator types) Zotero fills from its
// schema.json. Tables an import does not read are left out.
var zoteroSchema = zoterotest.Schema

// Zotero's ids for the types and fields the fixtures use (system-107.sql).
var (
	zItemTypes    = zoterotest.ItemTypes
	zFields       = zoterotest.Fields
	zCreatorTypes = zoterotest.CreatorTypes
)

// zfix builds a Zotero data folder: zotero.sqlite and storage/.
type zfix struct {
	t   *testing.T
	dir string
	db  *sql.DB
	lib *zoterotest.Lib
}

// lock holds the database at z.dir as a running Zotero does (zoterotest's
// Lock) until the test ends.
func (z *zfix) lock() {
	z.t.Helper()
	z.lib.Dir = z.dir
	z.lib.Lock()
}

type zcreator struct {
	first, last, typ string
	single           bool // fieldMode 1: one name (an institution)
	order            int
}

func newZotero(t *testing.T) *zfix {
	t.Helper()
	l := zoterotest.New(t)
	return &zfix{t: t, dir: l.Dir, db: l.DB, lib: l}
}

func (z *zfix) exec(q string, args ...any) {
	z.t.Helper()
	if _, err := z.db.Exec(q, args...); err != nil {
		z.t.Fatalf("%s: %v", q, err)
	}
}

func (z *zfix) id(q string, args ...any) int64 {
	z.t.Helper()
	res, err := z.db.Exec(q, args...)
	if err != nil {
		z.t.Fatalf("%s: %v", q, err)
	}
	id, _ := res.LastInsertId()
	return id
}

// item adds a regular item with its fields and creators.
func (z *zfix) item(typ, key string, fields map[string]string, creators ...zcreator) int64 {
	id := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, zItemTypes[typ], key)
	for f, v := range fields {
		z.set(id, f, v)
	}
	for _, c := range creators {
		mode := 0
		if c.single {
			mode = 1
		}
		z.exec(`INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)`, c.first, c.last, mode)
		var cid int64
		z.db.QueryRow(`SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = ?`, c.first, c.last, mode).Scan(&cid)
		typ := c.typ
		if typ == "" {
			typ = "author"
		}
		z.exec(`INSERT INTO itemCreators VALUES (?, ?, ?, ?)`, id, cid, zCreatorTypes[typ], c.order)
	}
	return id
}

// set sets one field, as Zotero does: the value interned in itemDataValues.
func (z *zfix) set(item int64, field, value string) {
	z.exec(`INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)`, value)
	z.exec(`INSERT OR REPLACE INTO itemData VALUES (?, ?, (SELECT valueID FROM itemDataValues WHERE value = ?))`, item, zFields[field], value)
}

// stored attaches a PDF stored in storage/<key>/<name>; from "" leaves the file missing.
func (z *zfix) stored(parent int64, key, name, from string) int64 {
	id := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, zItemTypes["attachment"], key)
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, 0, 'application/pdf', ?)`,
		id, nullID(parent), "storage:"+name)
	if from != "" {
		dir := filepath.Join(z.dir, "storage", key)
		os.MkdirAll(dir, 0o755)
		copyTestFile(z.t, from, filepath.Join(dir, name))
	}
	return id
}

// linked attaches a PDF linked by its absolute path.
func (z *zfix) linked(parent int64, key, path string) int64 {
	id := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, zItemTypes["attachment"], key)
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, 2, 'application/pdf', ?)`, id, parent, path)
	return id
}

func (z *zfix) note(parent int64, key, html string) {
	id := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, zItemTypes["note"], key)
	z.exec(`INSERT INTO itemNotes VALUES (?, ?, ?, '')`, id, parent, html)
}

func (z *zfix) collection(name, key string, parent int64) int64 {
	return z.id(`INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) VALUES (?, ?, 1, ?)`, name, nullID(parent), key)
}

func (z *zfix) file(coll, item int64) {
	z.exec(`INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)`, coll, item)
}

func (z *zfix) tag(item int64, name string) {
	z.exec(`INSERT OR IGNORE INTO tags (name) VALUES (?)`, name)
	z.exec(`INSERT INTO itemTags VALUES (?, (SELECT tagID FROM tags WHERE name = ?), 0)`, item, name)
}

func (z *zfix) trash(item int64) { z.exec(`INSERT INTO deletedItems (itemID) VALUES (?)`, item) }

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func copyTestFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
