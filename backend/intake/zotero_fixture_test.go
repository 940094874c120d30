package intake

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// zoteroSchema is the part of Zotero's database an import reads, as Zotero
// creates it: userdata.sql (schema 107) for the user's tables, and the
// system tables (item types, fields, creator types) Zotero fills from its
// schema.json. Tables an import does not read are left out.
const zoteroSchema = `
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL, custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL, filesEditable INT NOT NULL,
    version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
    UNIQUE (libraryID, key), FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (fieldID) REFERENCES fieldsCombined(fieldID),
    FOREIGN KEY (valueID) REFERENCES itemDataValues(valueID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, charsetID INT, path TEXT,
    syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (tagID) REFERENCES tags(tagID) ON DELETE CASCADE);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (creatorID) REFERENCES creators(creatorID) ON DELETE CASCADE,
    FOREIGN KEY (creatorTypeID) REFERENCES creatorTypes(creatorTypeID));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL,
    version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key),
    FOREIGN KEY (parentCollectionID) REFERENCES collections(collectionID) ON DELETE CASCADE);
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID),
    FOREIGN KEY (collectionID) REFERENCES collections(collectionID) ON DELETE CASCADE, FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE feedItems (itemID INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE, readTime TIMESTAMP, translatedTime TIMESTAMP);
INSERT INTO libraries VALUES (1, 'user', 1, 1, 0, 0, 0, 0);
`

// Zotero's ids for the types and fields the fixtures use (system-107.sql).
var (
	zItemTypes    = map[string]int{"note": 1, "book": 2, "journalArticle": 4, "attachment": 14, "conferencePaper": 33, "preprint": 37}
	zFields       = map[string]int{"url": 1, "publicationTitle": 12, "date": 14, "extra": 22, "DOI": 26, "abstractNote": 90, "title": 110, "archiveID": 124}
	zCreatorTypes = map[string]int{"author": 1, "contributor": 2, "editor": 3}
)

// zfix builds a Zotero data folder: zotero.sqlite and storage/.
type zfix struct {
	t   *testing.T
	dir string
	db  *sql.DB
}

type zcreator struct {
	first, last, typ string
	single           bool // fieldMode 1: one name (an institution)
	order            int
}

func newZotero(t *testing.T) *zfix {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Zotero")
	os.MkdirAll(filepath.Join(dir, "storage"), 0o755)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "zotero.sqlite")+"?_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	z := &zfix{t: t, dir: dir, db: db}
	z.exec(zoteroSchema)
	for name, id := range zItemTypes {
		z.exec(`INSERT INTO itemTypes VALUES (?, ?, NULL, 1); INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)`, id, name, id, name)
	}
	for name, id := range zFields {
		z.exec(`INSERT INTO fields VALUES (?, ?, NULL); INSERT INTO fieldsCombined VALUES (?, ?, NULL, NULL, 0)`, id, name, id, name)
	}
	for name, id := range zCreatorTypes {
		z.exec(`INSERT INTO creatorTypes VALUES (?, ?)`, id, name)
	}
	return z
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
