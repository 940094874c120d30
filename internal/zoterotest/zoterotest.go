// Package zoterotest builds Zotero data folders for tests: zotero.sqlite
// with the tables of Zotero's real schema an import reads (userdata.sql,
// schema 107 to Zotero 7's, and the system tables Zotero fills from its
// schema.json), and storage/. It is used by tests only.
package zoterotest

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver
)

// Schema is the part of Zotero's database an import reads, as Zotero
// creates it. Tables an import does not read are left out.
const Schema = `
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL, custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL, filesEditable INT NOT NULL,
    version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0,
    isAdmin INT);
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
    syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT, lastProcessedModificationTime INT, lastRead INT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE itemAnnotations (itemID INTEGER PRIMARY KEY, parentItemID INT NOT NULL, type INTEGER NOT NULL, authorName TEXT, text TEXT, comment TEXT,
    color TEXT, pageLabel TEXT, sortIndex TEXT NOT NULL, position TEXT NOT NULL, isExternal INT NOT NULL,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (parentItemID) REFERENCES itemAttachments(itemID));
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
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL,
    FOREIGN KEY (collectionID) REFERENCES collections(collectionID) ON DELETE CASCADE);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL, description TEXT NOT NULL, version INT NOT NULL,
    FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE settings (setting TEXT, key TEXT, value, PRIMARY KEY (setting, key));
INSERT INTO version VALUES ('userdata', 120), ('system', 32);
CREATE TABLE feedItems (itemID INTEGER PRIMARY KEY, guid TEXT NOT NULL UNIQUE, readTime TIMESTAMP, translatedTime TIMESTAMP);
INSERT INTO libraries VALUES (1, 'user', 1, 1, 0, 0, 0, 0, NULL);
`

// Zotero's ids for the types, fields and creator types the fixtures use:
// item types as Zotero 7 numbers them (alphabetically, from its
// schema.json), fields as system-107.sql did. Agentero reads names, not ids.
var (
	ItemTypes    = map[string]int{"annotation": 1, "attachment": 3, "book": 7, "conferencePaper": 11, "journalArticle": 22, "note": 28, "preprint": 31}
	Fields       = map[string]int{"url": 1, "publicationTitle": 12, "date": 14, "extra": 22, "DOI": 26, "abstractNote": 90, "title": 110, "archiveID": 124}
	CreatorTypes = map[string]int{"author": 1, "contributor": 2, "editor": 3}
)

// Lib is a Zotero data folder being built: Dir holds zotero.sqlite and storage/.
type Lib struct {
	t   testing.TB
	Dir string
	DB  *sql.DB
}

// New makes an empty Zotero data folder (My Library only).
func New(t testing.TB) *Lib {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Zotero")
	os.MkdirAll(filepath.Join(dir, "storage"), 0o755)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "zotero.sqlite")+"?_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	l := &Lib{t: t, Dir: dir, DB: db}
	l.Exec(Schema)
	for name, id := range ItemTypes {
		l.Exec(`INSERT INTO itemTypes VALUES (?, ?, NULL, 1); INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)`, id, name, id, name)
	}
	for name, id := range Fields {
		l.Exec(`INSERT INTO fields VALUES (?, ?, NULL); INSERT INTO fieldsCombined VALUES (?, ?, NULL, NULL, 0)`, id, name, id, name)
	}
	for name, id := range CreatorTypes {
		l.Exec(`INSERT INTO creatorTypes VALUES (?, ?)`, id, name)
	}
	return l
}

// Exec runs SQL on the database, failing the test on an error.
func (l *Lib) Exec(q string, args ...any) int64 {
	l.t.Helper()
	res, err := l.DB.Exec(q, args...)
	if err != nil {
		l.t.Fatalf("%s: %v", q, err)
	}
	id, _ := res.LastInsertId()
	return id
}

// Item adds a regular item with fields and authors ("Given Family" split
// at the last space) in order, and returns its id.
func (l *Lib) Item(typ, key string, fields map[string]string, authors ...[2]string) int64 {
	id := l.Exec(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, ItemTypes[typ], key)
	for f, v := range fields {
		l.Exec(`INSERT OR IGNORE INTO itemDataValues (value) VALUES (?)`, v)
		l.Exec(`INSERT OR REPLACE INTO itemData VALUES (?, ?, (SELECT valueID FROM itemDataValues WHERE value = ?))`, id, Fields[f], v)
	}
	for i, a := range authors {
		l.Exec(`INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, 0)`, a[0], a[1])
		l.Exec(`INSERT INTO itemCreators VALUES (?, (SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = 0), 1, ?)`, id, a[0], a[1], i)
	}
	return id
}

// Stored attaches the file at from (a PDF) to parent as Zotero stores it,
// in storage/<key>/<name>; parent 0 makes a standalone attachment, from ""
// leaves the file missing. It returns the attachment's id.
func (l *Lib) Stored(parent int64, key, name, from string) int64 {
	l.t.Helper()
	id := l.Exec(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, ItemTypes["attachment"], key)
	var p any
	if parent != 0 {
		p = parent
	}
	l.Exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, 0, 'application/pdf', ?)`, id, p, "storage:"+name)
	if from != "" {
		data, err := os.ReadFile(from)
		if err != nil {
			l.t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(l.Dir, "storage", key), 0o755)
		if err := os.WriteFile(filepath.Join(l.Dir, "storage", key, name), data, 0o644); err != nil {
			l.t.Fatal(err)
		}
	}
	return id
}

// Note adds a note (Zotero's HTML) as a child of parent (0: a standalone
// note) and returns its id.
func (l *Lib) Note(parent int64, key, html string) int64 {
	id := l.Exec(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, ItemTypes["note"], key)
	var p any
	if parent != 0 {
		p = parent
	}
	l.Exec(`INSERT INTO itemNotes (itemID, parentItemID, note, title) VALUES (?, ?, ?, '')`, id, p, html)
	return id
}

// Collection adds a collection under parent (0: at the top).
func (l *Lib) Collection(name, key string, parent int64) int64 {
	var p any
	if parent != 0 {
		p = parent
	}
	return l.Exec(`INSERT INTO collections (collectionName, parentCollectionID, libraryID, key) VALUES (?, ?, 1, ?)`, name, p, key)
}

// File puts an item in a collection.
func (l *Lib) File(coll, item int64) {
	l.Exec(`INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)`, coll, item)
}

// Trash moves an item to Zotero's trash.
func (l *Lib) Trash(item int64) { l.Exec(`INSERT INTO deletedItems (itemID) VALUES (?)`, item) }

// Lock holds the database as a running Zotero does: an exclusive lock, so
// that no other connection can read it, until the test ends. It closes
// the builder's own connection first. Dir may hold SQLite URI characters
// (# ? %).
func (l *Lib) Lock() {
	l.t.Helper()
	l.DB.Close()
	lock, err := sql.Open("sqlite3", "file:"+uriPath(filepath.Join(l.Dir, "zotero.sqlite"))+"?_locking_mode=EXCLUSIVE")
	if err != nil {
		l.t.Fatal(err)
	}
	conn, err := lock.Conn(context.Background())
	if err != nil {
		l.t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() {
		conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		lock.Close()
	})
	other, _ := sql.Open("sqlite3", "file:"+uriPath(filepath.Join(l.Dir, "zotero.sqlite"))+"?_busy_timeout=0")
	defer other.Close()
	var n int
	if err := other.QueryRow("SELECT count(*) FROM items").Scan(&n); err == nil {
		l.t.Fatal("the database is not locked; the test would prove nothing")
	}
}

// uriPath escapes a path for an SQLite URI filename.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(p))
}
