package intake

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver, as the index uses it

	"golang.org/x/text/unicode/norm"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/vault"
)

// ImportZotero imports the Zotero data folder dir (zotero.sqlite and
// storage/) into the vault at root. Zotero's files are only read: the
// database is copied to a temporary folder first (Zotero keeps it locked
// while it runs, and a copy also spares it any lock of ours), and the copy
// is what is opened. Each regular item with a PDF attachment (stored in
// storage/<key>/ or linked) becomes a paper; items in the trash are left
// out. Collections become folders under papers/ (an item in several
// collections goes in the first by path; metadata.json lists them all).
// Importing again finds papers by Zotero key and updates only the metadata
// fields Zotero owns and the user has not changed.
func ImportZotero(ctx context.Context, dir, root string, opts Options) (*Report, error) {
	opts.defaults()
	base := ""
	if opts.ZoteroBaseDir != "" {
		abs, err := filepath.Abs(opts.ZoteroBaseDir)
		if st, serr := os.Stat(abs); err != nil || serr != nil || !st.IsDir() {
			return nil, refuse("the base directory %s is not a folder: choose the folder Zotero names as its Linked Attachment Base Directory.", opts.ZoteroBaseDir)
		}
		base = abs
	}
	lib, err := readZotero(ctx, dir, base)
	if err != nil {
		return nil, err
	}
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	source := zoteroSource(dir)
	present := map[string]bool{}
	for i := range lib {
		lib[i].Source = source
		present[lib[i].Key] = true
	}
	rep := newReport()
	p.present = present
	if err := run(ctx, p, lib, opts, rep); err != nil {
		return rep, err
	}
	p.gone("zotero", source, present, rep)
	return rep, nil
}

// zoteroSource is the data folder dir names (dir, or the folder of the
// zotero.sqlite it is), absolute, as imports record it.
func zoteroSource(dir string) string {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
}

// zoteroDB is the database file in a Zotero data folder (or the file itself).
func zoteroDB(dir string) (string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return "", refuse("%s cannot be read: %v.", dir, unwrapPath(err))
	}
	if !st.IsDir() {
		return dir, sqliteFile(dir)
	}
	db := filepath.Join(dir, "zotero.sqlite")
	if _, err := os.Stat(db); err != nil && filepath.Base(dir) == "storage" {
		// The storage folder inside the data folder was chosen.
		if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "zotero.sqlite")); err == nil {
			db = filepath.Join(filepath.Dir(dir), "zotero.sqlite")
			return db, sqliteFile(db)
		}
	}
	if _, err := os.Stat(db); err != nil {
		return "", refuse("%s has no zotero.sqlite: choose Zotero's data folder (Zotero → Settings → Advanced → Files and Folders).", dir)
	}
	return db, sqliteFile(db)
}

// sqliteFile refuses a database path that is not a regular file (a pipe
// or a device would block the read or never end) or does not start as an
// SQLite database does, before the driver is handed it.
func sqliteFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return refuse("%s cannot be read: %v.", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return refuse("%s is not a file (a pipe, a device or a folder): it cannot be Zotero's database.", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return refuse("%s cannot be read: %v.", path, unwrapPath(err))
	}
	defer f.Close()
	head := make([]byte, 16)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "SQLite format 3\x00" {
		return refuse("%s cannot be read as a Zotero database (it is not an SQLite file): is it Zotero's zotero.sqlite, and whole?", path)
	}
	return nil
}

// copyDB copies the database (and its journal or WAL, so that the copy is
// the state Zotero last committed) into a new temporary folder.
func copyDB(db string) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "agentero-zotero-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(tmp) }
	to := filepath.Join(tmp, "zotero.sqlite")
	for _, suffix := range []string{"", "-wal", "-journal"} {
		err := copyPlain(db+suffix, to+suffix)
		if suffix != "" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			done()
			return "", nil, refuse("%s cannot be read: %v.", db+suffix, unwrapPath(err))
		}
	}
	return to, done, nil
}

func copyPlain(from, to string) error {
	// Stat before opening: opening a pipe for reading waits for a writer.
	if st, err := os.Stat(from); err != nil {
		return err
	} else if !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file")
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file")
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// uriPath escapes a path for an SQLite URI filename.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(p))
}

// readZotero reads the library's items as intake entries.
// base is the Linked Attachment Base Directory, "" to look it up in the
// Zotero profile.
func readZotero(ctx context.Context, dir, base string) ([]entry, error) {
	dbPath, err := zoteroDB(dir)
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Dir(dbPath)
	dsn := ""
	copyPath, done, err := copyDB(dbPath)
	if err == nil {
		defer done()
		dsn = "file:" + uriPath(copyPath) + "?_busy_timeout=5000"
	} else {
		// No room for a copy (a small /tmp, a large database): read the
		// database in place, as an immutable file, which takes no lock and
		// writes nothing (a write Zotero makes meanwhile may be missed).
		if _, serr := os.Stat(dbPath); serr != nil {
			return nil, err
		}
		dsn = "file:" + uriPath(dbPath) + "?mode=ro&immutable=1"
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	z := &zreader{db: db, dataDir: dataDir, base: base}
	entries, err := z.read(ctx)
	var ue *userError
	switch {
	case errors.As(err, &ue) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return nil, err
	case err != nil:
		return nil, refuse("%s cannot be read as a Zotero database (%v): is it Zotero's zotero.sqlite, and whole?", dbPath, err)
	}
	return entries, nil
}

type zreader struct {
	db         *sql.DB
	dataDir    string
	base       string // the Linked Attachment Base Directory, "" until known
	baseLooked bool   // the profile was searched for it
}

type zitem struct {
	id          int64
	key, typ    string
	library     string // "" for My Library, else the group's name
	groupID     int64  // the group's id, 0 for My Library
	fields      map[string]string
	authors     []string
	others      []string // editors and other creators, when there is no author
	tags        []string
	collections []string
	pdf         string   // absolute path of the PDF, "" when none
	why         string   // why there is no PDF
	missing     string   // the PDF's path when it is not there
	otherPDFs   []string // the item's other PDF attachments (not copied)
	standalone  bool     // an attachment without a parent item
	notes       []string // its child notes (Zotero's HTML), oldest first
}

func (z *zreader) has(ctx context.Context, table string) bool {
	var n int
	z.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, table).Scan(&n)
	return n > 0
}

// table is the newer Zotero's "…Combined" table when there is one.
func (z *zreader) table(ctx context.Context, name string) string {
	if z.has(ctx, name+"Combined") {
		return name + "Combined"
	}
	return name
}

// columns are the names of table's columns.
func (z *zreader) columns(ctx context.Context, table string) map[string]bool {
	out := map[string]bool{}
	rows, err := z.db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil {
			out[name] = true
		}
	}
	return out
}

// zoteroTooOld is why a Zotero 4 (or older) database is not read: its
// tables have other columns (itemAttachments.sourceItemID and mimeType,
// creators through creatorData), and Zotero upgrades it when it opens it.
const zoteroTooOld = "this zotero.sqlite is from Zotero 4 or older, whose database Agentero does not read: open it once in a current Zotero (which upgrades it), then import again."

// libraries are the Zotero libraries an import reads: My Library (id of
// the library whose type is "user") and the group libraries, by id, with
// the group's name and id. Feeds are not libraries of papers.
type zlibrary struct {
	name    string // "" for My Library
	groupID int64
}

func (z *zreader) libraries(ctx context.Context) (map[int64]zlibrary, error) {
	if !z.columns(ctx, "libraries")["type"] {
		return nil, nil // every item, whatever its library
	}
	out := map[int64]zlibrary{}
	groups := map[int64]zlibrary{}
	if cols := z.columns(ctx, "groups"); cols["libraryID"] && cols["name"] && cols["groupID"] {
		if err := z.each(ctx, `SELECT libraryID, name, groupID FROM groups`, func(id int64, s []sql.NullString) {
			var gid int64
			fmt.Sscan(s[1].String, &gid)
			groups[id] = zlibrary{name: s[0].String, groupID: gid}
		}, 2); err != nil {
			return nil, err
		}
	}
	err := z.each(ctx, `SELECT libraryID, type FROM libraries`, func(id int64, s []sql.NullString) {
		switch s[0].String {
		case "user":
			out[id] = zlibrary{}
		case "group":
			g, ok := groups[id]
			if !ok {
				g = zlibrary{name: fmt.Sprintf("group %d", id), groupID: id}
			}
			if strings.TrimSpace(g.name) == "" {
				g.name = fmt.Sprintf("group %d", g.groupID)
			}
			out[id] = g
		}
	}, 1)
	return out, err
}

func (z *zreader) read(ctx context.Context) ([]entry, error) {
	var n int
	if err := z.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return nil, err
	}
	for _, t := range []string{"items", "itemData", "itemDataValues", "itemAttachments", "creators", "itemCreators"} {
		if !z.has(ctx, t) {
			return nil, refuse("this is not a Zotero database: it has no %s table.", t)
		}
	}
	att, cr := z.columns(ctx, "itemAttachments"), z.columns(ctx, "creators")
	if !att["parentItemID"] || !att["contentType"] || !att["linkMode"] || !att["path"] || !cr["lastName"] || !cr["fieldMode"] {
		return nil, refuse(zoteroTooOld)
	}
	libs, err := z.libraries(ctx)
	if err != nil {
		return nil, err
	}
	notDeleted := "1"
	if z.has(ctx, "deletedItems") {
		notDeleted = "i.itemID NOT IN (SELECT itemID FROM deletedItems)"
	}
	if z.has(ctx, "feedItems") {
		notDeleted += " AND i.itemID NOT IN (SELECT itemID FROM feedItems)"
	}
	if libs != nil {
		ids := make([]string, 0, len(libs))
		for id := range libs {
			ids = append(ids, fmt.Sprint(id))
		}
		sort.Strings(ids)
		notDeleted += " AND i.libraryID IN (" + strings.Join(ids, ",") + ")"
	}
	types := z.table(ctx, "itemTypes")
	fields := z.table(ctx, "fields")
	items := map[int64]*zitem{}
	var order []*zitem
	rows, err := z.db.QueryContext(ctx, `SELECT i.itemID, i.key, t.typeName, coalesce(i.libraryID, 0) FROM items i JOIN `+types+` t ON t.itemTypeID = i.itemTypeID
		WHERE `+notDeleted+` AND t.typeName NOT IN ('note', 'annotation') ORDER BY i.itemID`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		it := &zitem{fields: map[string]string{}}
		var lib int64
		if err := rows.Scan(&it.id, &it.key, &it.typ, &lib); err != nil {
			rows.Close()
			return nil, err
		}
		l := libs[lib]
		it.library, it.groupID = l.name, l.groupID
		items[it.id] = it
		order = append(order, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := z.each(ctx, `SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN `+fields+` f ON f.fieldID = d.fieldID
		JOIN itemDataValues v ON v.valueID = d.valueID`, func(id int64, s []sql.NullString) {
		if it := items[id]; it != nil {
			it.fields[s[0].String] = s[1].String
		}
	}, 2); err != nil {
		return nil, err
	}
	creatorType := "'author'"
	if z.has(ctx, "creatorTypes") {
		creatorType = "(SELECT creatorType FROM creatorTypes ct WHERE ct.creatorTypeID = ic.creatorTypeID)"
	}
	if err := z.each(ctx, `SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, `+creatorType+`
		FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex`, func(id int64, s []sql.NullString) {
		it := items[id]
		if it == nil {
			return
		}
		name := strings.TrimSpace(s[1].String)
		if s[2].String != "1" && s[0].String != "" {
			name = strings.TrimSpace(s[0].String + " " + s[1].String)
		}
		if name == "" {
			return
		}
		if s[3].String == "author" {
			it.authors = append(it.authors, name)
		} else {
			it.others = append(it.others, name)
		}
	}, 4); err != nil {
		return nil, err
	}
	if z.has(ctx, "itemTags") && z.has(ctx, "tags") {
		if err := z.each(ctx, `SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID ORDER BY t.name`, func(id int64, s []sql.NullString) {
			if it := items[id]; it != nil {
				it.tags = append(it.tags, s[0].String)
			}
		}, 1); err != nil {
			return nil, err
		}
	}
	if err := z.collections(ctx, items); err != nil {
		return nil, err
	}
	if err := z.attachments(ctx, items, notDeleted); err != nil {
		return nil, err
	}
	if z.has(ctx, "itemNotes") {
		// Child notes (not in the trash) go with their item, to NOTES.md.
		if err := z.each(ctx, `SELECT n.parentItemID, n.note FROM itemNotes n JOIN items i ON i.itemID = n.itemID
			WHERE n.parentItemID IS NOT NULL AND `+notDeleted+` ORDER BY n.itemID`, func(id int64, s []sql.NullString) {
			if it := items[id]; it != nil && strings.TrimSpace(s[0].String) != "" {
				it.notes = append(it.notes, s[0].String)
			}
		}, 1); err != nil {
			return nil, err
		}
	}
	if z.has(ctx, "deletedItems") {
		// An item whose PDF is in the trash (while it is not) is told so.
		if err := z.each(ctx, `SELECT a.parentItemID FROM itemAttachments a JOIN deletedItems d ON d.itemID = a.itemID
			WHERE a.parentItemID IS NOT NULL AND (a.contentType = 'application/pdf' OR lower(a.path) LIKE '%.pdf')`, func(id int64, _ []sql.NullString) {
			if it := items[id]; it != nil && it.pdf == "" && it.why == "" {
				it.why = "its PDF attachment is in Zotero's trash."
			}
		}, 0); err != nil {
			return nil, err
		}
	}
	var out []entry
	for _, it := range order {
		// An attachment is read with its parent; a standalone PDF (one
		// without a parent item) is a paper of its own, titled as Zotero
		// shows it. Other standalone attachments are not papers.
		if it.typ == "attachment" && !it.standalone {
			continue
		}
		out = append(out, it.entry())
	}
	return out, nil
}

// each runs query and calls f with each row's itemID and n more columns.
func (z *zreader) each(ctx context.Context, query string, f func(int64, []sql.NullString), n int) error {
	rows, err := z.db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		vals := make([]sql.NullString, n)
		dest := []any{&id}
		for i := range vals {
			dest = append(dest, &vals[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		f(id, vals)
	}
	return rows.Err()
}

// collections gives each item the paths of its collections ("Reading/ML"),
// sorted.
func (z *zreader) collections(ctx context.Context, items map[int64]*zitem) error {
	if !z.has(ctx, "collections") || !z.has(ctx, "collectionItems") {
		return nil
	}
	type coll struct {
		name   string
		parent int64
	}
	colls := map[int64]coll{}
	query := `SELECT collectionID, collectionName, coalesce(parentCollectionID, 0) FROM collections`
	if z.has(ctx, "deletedCollections") { // Zotero 7: a collection in the trash is not a folder
		query += ` WHERE collectionID NOT IN (SELECT collectionID FROM deletedCollections)`
	}
	if err := z.each(ctx, query, func(id int64, s []sql.NullString) {
		var parent int64
		fmt.Sscan(s[1].String, &parent)
		colls[id] = coll{name: s[0].String, parent: parent}
	}, 2); err != nil {
		return err
	}
	pathOf := func(id int64) string {
		var parts []string
		for seen := 0; id != 0 && seen < 64; seen++ {
			c, ok := colls[id]
			if !ok {
				break
			}
			parts = append([]string{folderName(c.name)}, parts...)
			id = c.parent
		}
		return strings.Join(parts, "/")
	}
	if err := z.each(ctx, `SELECT itemID, collectionID FROM collectionItems`, func(id int64, s []sql.NullString) {
		var cid int64
		fmt.Sscan(s[0].String, &cid)
		if it := items[id]; it != nil {
			if p := pathOf(cid); p != "" {
				it.collections = append(it.collections, p)
			}
		}
	}, 1); err != nil {
		return err
	}
	for _, it := range items {
		sort.Strings(it.collections)
	}
	return nil
}

// Zotero's attachment link modes (Zotero.Attachments.LINK_MODE_*).
const (
	linkImportedFile = 0
	linkImportedURL  = 1
	linkLinkedFile   = 2
)

// attachments gives each item its PDF: the first of its PDF attachments
// (in Zotero's order, oldest first) whose file is on disk, the others
// listed in otherPDFs; and a standalone PDF (an attachment without a
// parent item) its own file. An attachment is a PDF by its content type
// or, when Zotero left that empty, by its file name.
func (z *zreader) attachments(ctx context.Context, items map[int64]*zitem, notDeleted string) error {
	rows, err := z.db.QueryContext(ctx, `SELECT a.itemID, coalesce(a.parentItemID, 0), coalesce(a.linkMode, -1), coalesce(a.contentType, ''),
		coalesce(a.path, ''), i.key FROM itemAttachments a JOIN items i ON i.itemID = a.itemID WHERE `+notDeleted+` ORDER BY a.itemID`)
	if err != nil {
		return err
	}
	defer rows.Close()
	type candidate struct{ file, why string }
	found := map[*zitem][]candidate{}
	var owners []*zitem
	for rows.Next() {
		var id, parent int64
		var mode int
		var ctype, p, key string
		if err := rows.Scan(&id, &parent, &mode, &ctype, &p, &key); err != nil {
			return err
		}
		owner := items[parent]
		if parent == 0 {
			owner = items[id] // a standalone attachment is its own item
		}
		if owner == nil {
			continue // the parent is in the trash, or is not a paper
		}
		ctype = strings.ToLower(strings.TrimSpace(ctype))
		if ctype != "application/pdf" && ctype != "application/x-pdf" && !strings.EqualFold(path.Ext(p), ".pdf") {
			continue
		}
		if parent == 0 {
			owner.standalone = true
		}
		file, why := z.resolve(mode, p, key)
		if file != "" {
			file, why = onDisk(file)
		}
		if found[owner] == nil {
			owners = append(owners, owner)
		}
		found[owner] = append(found[owner], candidate{file, why})
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, it := range owners {
		list := found[it]
		// The first that is a readable PDF, else the first on disk (which
		// the import then refuses, saying why).
		best := -1
		for i, c := range list {
			if c.why == "" && isPDFFile(c.file) {
				best = i
				break
			}
		}
		for i, c := range list {
			if best < 0 && c.why == "" {
				best = i
			}
		}
		if best < 0 {
			it.why, it.missing = list[0].why, list[0].file
			continue
		}
		it.pdf = list[best].file
		for i, c := range list {
			if i != best && c.why == "" {
				it.otherPDFs = append(it.otherPDFs, c.file)
			}
		}
	}
	return nil
}

// isPDFFile reports whether openPDF accepts file.
func isPDFFile(file string) bool {
	f, _, err := openPDF(file)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// onDisk is file when it is there; else, when only the Unicode form or
// the case of its name differ (a library copied from a Mac keeps names
// decomposed, NFD, while the database has them composed), the file that
// is; else why not.
func onDisk(file string) (string, string) {
	if _, err := os.Stat(file); err == nil {
		return file, ""
	}
	dir, name := filepath.Split(file)
	if entries, err := os.ReadDir(dir); err == nil {
		want := norm.NFC.String(name)
		var folded string
		for _, e := range entries {
			got := norm.NFC.String(e.Name())
			if got == want {
				return filepath.Join(dir, e.Name()), ""
			}
			if folded == "" && strings.EqualFold(got, want) {
				folded = filepath.Join(dir, e.Name())
			}
		}
		if folded != "" {
			return folded, ""
		}
	}
	return file, "its PDF is missing: " + file + " does not exist."
}

// zoteroKey is the form of Zotero's item keys (Zotero.Utilities.generateObjectKey:
// eight of 23456789ABCDEFGHIJKLMNPQRSTUVWXYZ); a key is a folder name in
// storage/, so nothing else is accepted.
var zoteroKey = regexp.MustCompile(`^[0-9A-Za-z]{1,32}$`)

// resolve is the file an attachment's path names: "storage:<name>" in
// storage/<key>/ for stored files, an absolute path for linked ones, or
// "attachments:<relative path>" under the Linked Attachment Base Directory.
func (z *zreader) resolve(mode int, p, key string) (string, string) {
	switch {
	case strings.HasPrefix(p, "storage:"):
		name := strings.TrimPrefix(p, "storage:")
		if name == "" || strings.Contains(name, "/") || strings.Contains(name, "\\") || name == ".." || name == "." || !zoteroKey.MatchString(key) {
			return "", "its attachment path " + p + " is not a file name."
		}
		return filepath.Join(z.dataDir, "storage", key, name), ""
	case strings.HasPrefix(p, basePlaceholder):
		return z.resolveBase(p)
	case mode == linkLinkedFile && filepath.IsAbs(p):
		return filepath.Clean(p), ""
	case mode == linkLinkedFile && isWindowsPath(p):
		return "", "its PDF is linked as " + p + ", a Windows path, which is not on this computer."
	case mode == linkImportedFile || mode == linkImportedURL || mode == linkLinkedFile:
		return "", "its attachment path " + p + " is not one Agentero can find."
	}
	return "", "its PDF attachment is a link to a web page, not a file."
}

// isWindowsPath reports a path such as C:\Users\… or \\server\share\….
func isWindowsPath(p string) bool {
	return len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') || strings.HasPrefix(p, `\\`)
}

var yearRe = regexp.MustCompile(`(?:^|[^0-9])(1[5-9]\d\d|20\d\d)(?:$|[^0-9])`)
var extraLine = regexp.MustCompile(`(?im)^\s*(doi|arxiv|arxiv id|citation key)\s*:\s*(\S+)\s*$`)

// zoteroYear is the year of a Zotero date field, stored as "YYYY-MM-DD
// as typed" ("2001-11-00 November 2001", "0000-00-00 Spring 2019" when
// Zotero could not parse it): the stored year, else a year in the text.
func zoteroYear(date string) int {
	year := 0
	if len(date) >= 10 && date[4] == '-' && date[7] == '-' {
		fmt.Sscan(date[:4], &year)
		if year > 0 {
			return year
		}
		date = date[10:]
	}
	return findYear(date)
}

// findYear is the first year (1500–2099) in s standing apart from other
// digits ("2019a", "c. 1998", "2019-05"), 0 when there is none.
func findYear(s string) int {
	year := 0
	if m := yearRe.FindStringSubmatch(s); m != nil {
		fmt.Sscan(m[1], &year)
	}
	return year
}

// genericTitles are the titles Zotero gives attachments (and users leave),
// which say nothing about the paper.
var genericTitles = map[string]bool{
	"full text pdf": true, "full text": true, "pdf": true, "preprint pdf": true, "fulltext": true, "attachment": true,
	"submitted version": true, "accepted version": true, "published version": true, "snapshot": true, "arxiv.org snapshot": true,
}

// genericTitle reports whether a standalone attachment's title is no title:
// empty, a generic one, or its file's name.
func genericTitle(title, file string) bool {
	t := strings.ToLower(strings.TrimSpace(title))
	base := strings.ToLower(filepath.Base(file))
	return t == "" || genericTitles[t] || strings.HasSuffix(t, ".pdf") || t == base || t == strings.TrimSuffix(base, path.Ext(base))
}

// entry maps a Zotero item to metadata.json (SPEC §1 keys plus Zotero's).
func (it *zitem) entry() entry {
	f := it.fields
	title := cslText(f["title"]) // Zotero's rich-text markup (<i>Drosophila</i>) is not part of the title
	authors := it.authors
	if len(authors) == 0 {
		authors = it.others
	}
	year := zoteroYear(f["date"])
	doi := ident.NormalizeDOI(f["DOI"])
	arxiv := ""
	citeKey := strings.TrimSpace(f["citationKey"]) // Zotero 7's field; Better BibTeX's "Citation Key:" in Extra before it
	for _, m := range extraLine.FindAllStringSubmatch(f["extra"], -1) {
		switch strings.ToLower(m[1]) {
		case "doi":
			if doi == "" {
				doi = ident.NormalizeDOI(m[2])
			}
		case "citation key":
			if citeKey == "" {
				citeKey = m[2]
			}
		default:
			arxiv = ident.NormalizeArxiv(m[2])
		}
	}
	for _, s := range []string{f["archiveID"], f["url"]} {
		if arxiv == "" && strings.Contains(strings.ToLower(s), "arxiv") {
			arxiv = ident.NormalizeArxiv(s)
		}
	}
	if arxiv == "" {
		arxiv = ident.ArxivFromDOI(doi)
	}
	// A group library's papers go in a folder named for the group, and are
	// known by the group and key (keys are unique within a library only).
	folder, key := vault.PapersDir, it.key
	if it.library != "" {
		folder = path.Join(folder, folderName(it.library))
		key = fmt.Sprintf("groups/%d/%s", it.groupID, it.key)
	}
	if len(it.collections) > 0 {
		folder = path.Join(folder, it.collections[0])
	}
	values := map[string]any{
		"title": title, "authors": authors, "year": year, "doi": doi, "arxiv_id": arxiv,
		"abstract": f["abstractNote"], "tags": it.tags, "collections": it.collections, "zotero_key": it.key,
		"zotero_library": it.library, "other_pdfs": it.otherPDFs, "citation_key": citeKey,
		"venue": firstOf(f["publicationTitle"], f["proceedingsTitle"], f["conferenceName"], f["bookTitle"]),
	}
	e := entry{From: "zotero", Key: key, File: it.pdf, Folder: folder, Title: title, Authors: authors, Year: year, Values: values,
		Notes: zoteroNotes(it.notes)}
	if it.standalone {
		// A PDF without a parent item has no metadata but its title: the
		// rest is read from the PDF, and so is the title when Zotero's is
		// only the file's name or "Full Text PDF".
		e.FromPDF = true
		if genericTitle(title, it.pdf) {
			delete(values, "title")
			e.Title = ""
		}
	}
	if n := len(it.otherPDFs); n > 0 {
		e.Note = fmt.Sprintf("%d more PDF attachment(s) of this item were not copied (paper.pdf is the first); metadata.json lists them in other_pdfs.", n)
	}
	e.Missing, e.MissingFile = it.why, it.missing
	return e
}

func firstOf(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}
