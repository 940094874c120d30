package intake

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"

	"github.com/agentero/agentero/backend/vault"
)

// Real Zotero libraries, as users have them: the cases a fixture built
// from the schema alone does not meet.

// fakePDF writes a small file that starts as a PDF does, different for
// each name (intake recognises a PDF it has by content).
func fakePDF(t *testing.T, p string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("%PDF-1.4\n% "+p+"\n%%EOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// attach adds an attachment item with any link mode, content type and
// path; parent 0 makes it standalone. file != "" writes a PDF there.
func (z *zfix) attach(parent int64, key string, mode int, ctype, p, file string) int64 {
	id := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, ?)`, zItemTypes["attachment"], key)
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, ?, ?, ?)`,
		id, nullID(parent), mode, ctype, nullString(p))
	if file != "" {
		fakePDF(z.t, file)
	}
	return id
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (z *zfix) storagePath(key, name string) string {
	return filepath.Join(z.dir, "storage", key, name)
}

func importZ(t *testing.T, dir, root string, opts Options) *Report {
	t.Helper()
	rep, err := ImportZotero(context.Background(), dir, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func byKey(items []Item) map[string]Item {
	out := map[string]Item{}
	for _, it := range items {
		out[it.Key] = it
	}
	return out
}

// TestZoteroGroupLibraries: a Zotero data folder holds My Library, the
// group libraries the user syncs, and feeds. Papers of every library are
// imported (a lab's papers are often only in its group), each group's in a
// folder named for it; keys are unique only within a library, so the same
// key in two libraries is two papers, each found again on a re-import;
// feed items are not papers.
func TestZoteroGroupLibraries(t *testing.T) {
	z := newZotero(t)
	z.exec(`INSERT INTO libraries VALUES (2, 'group', 1, 1, 0, 0, 0, 0, 0), (3, 'feed', 1, 1, 0, 0, 0, 0, NULL)`)
	z.exec(`INSERT INTO groups VALUES (4711, 2, 'Lab/Shared', '', 0)`)
	mine := z.item("journalArticle", "SAMEKEY1", map[string]string{"title": "Mine"})
	z.stored(mine, "STORMINE", "mine.pdf", "")
	fakePDF(t, z.storagePath("STORMINE", "mine.pdf"))

	lab := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 2, 'SAMEKEY1')`, zItemTypes["journalArticle"])
	z.set(lab, "title", "The Lab's")
	labColl := z.id(`INSERT INTO collections (collectionName, libraryID, key) VALUES ('Reading', 2, 'LABCOLL1')`)
	z.file(labColl, lab)
	att := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 2, 'STORLAB1')`, zItemTypes["attachment"])
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, 0, 'application/pdf', 'storage:lab.pdf')`, att, lab)
	fakePDF(t, z.storagePath("STORLAB1", "lab.pdf"))

	feed := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 3, 'FEEDITEM')`, zItemTypes["journalArticle"])
	z.set(feed, "title", "From a feed")
	z.exec(`INSERT INTO feedItems (itemID, guid) VALUES (?, 'g1')`, feed)

	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	got := map[string]string{}
	for _, it := range rep.Added {
		got[it.Key] = it.Ref
	}
	want := map[string]string{"SAMEKEY1": "papers/mine", "groups/4711/SAMEKEY1": "papers/Lab-Shared/Reading/the-lab-s"}
	if diff := cmp.Diff(want, got); diff != "" || rep.Total() != 2 {
		t.Fatalf("added (-want +got):\n%s\nreport %+v", diff, rep)
	}
	if m := readMeta(t, root, want["groups/4711/SAMEKEY1"]); string(m.Extra["zotero_library"]) != `"Lab/Shared"` || string(m.Extra["zotero_key"]) != `"SAMEKEY1"` {
		t.Errorf("the group's paper: library %s, key %s", m.Extra["zotero_library"], m.Extra["zotero_key"])
	}
	rep = importZ(t, z.dir, root, Options{})
	if len(rep.Unchanged) != 2 || len(rep.Added)+len(rep.Updated)+len(rep.Gone) != 0 {
		t.Errorf("re-import: %+v, want both unchanged", rep)
	}
	if readMeta(t, root, "papers/mine").Title != "Mine" {
		t.Error("the group's item overwrote My Library's item with the same key")
	}
}

// TestZoteroTooOld: a Zotero 4 database (itemAttachments.sourceItemID and
// mimeType, creators through creatorData) is refused with what to do.
func TestZoteroTooOld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Zotero")
	os.MkdirAll(dir, 0o755)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "zotero.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, libraryID INT, key TEXT NOT NULL)`,
		`CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE)`,
		`CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID))`,
		`CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, sourceItemID INT, linkMode INT, mimeType TEXT, charsetID INT, path TEXT, originalPath TEXT)`,
		`CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, creatorDataID INT NOT NULL, libraryID INT, key TEXT NOT NULL)`,
		`CREATE TABLE creatorData (creatorDataID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, shortName TEXT, fieldMode INT, birthYear INT)`,
		`CREATE TABLE itemCreators (itemID INT, creatorID INT, creatorTypeID INT DEFAULT 1, orderIndex INT DEFAULT 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	_, err = ImportZotero(context.Background(), dir, t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "Zotero 4 or older") || !strings.Contains(err.Error(), "open it once in a current Zotero") {
		t.Errorf("err = %v, want a sentence saying the database is too old and what to do", err)
	}
}

// TestZoteroAttachments: the attachments real libraries have.
func TestZoteroAttachments(t *testing.T) {
	z := newZotero(t)
	sp := z.storagePath
	linkedDir := t.TempDir()

	// A title with Zotero's rich-text markup.
	rich := z.item("journalArticle", "RICHTEXT", map[string]string{"title": `Wing Growth in <i>Drosophila</i> and H<sub>2</sub>O <span class="nocase">mRNA</span>`})
	z.attach(rich, "RICHATT1", linkImportedFile, "application/pdf", "storage:r.pdf", sp("RICHATT1", "r.pdf"))

	// Three PDFs under one item: the first is missing on disk, so the
	// second becomes paper.pdf and the third is listed, not lost.
	several := z.item("journalArticle", "SEVERAL1", map[string]string{"title": "Several PDFs"})
	z.attach(several, "SEVA0001", linkImportedFile, "application/pdf", "storage:gone.pdf", "")
	z.attach(several, "SEVB0001", linkImportedFile, "application/pdf", "storage:main.pdf", sp("SEVB0001", "main.pdf"))
	z.attach(several, "SEVC0001", linkImportedFile, "application/pdf", "storage:supplement.pdf", sp("SEVC0001", "supplement.pdf"))

	// A PDF saved from the web (linkMode 1) and an HTML snapshot beside it.
	web := z.item("journalArticle", "WEBPDF01", map[string]string{"title": "Saved From The Web"})
	z.attach(web, "WEBSNAP1", linkImportedURL, "text/html", "storage:page.html", "")
	webPDF := z.attach(web, "WEBPDFA1", linkImportedURL, "application/pdf", "storage:download.pdf", sp("WEBPDFA1", "download.pdf"))
	// A highlight on it (Zotero 7 keeps annotations as items): not a paper.
	ann := z.id(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, 'ANNOTAT1')`, zItemTypes["annotation"])
	z.exec(`INSERT INTO itemAnnotations VALUES (?, ?, 1, '', 'a highlight', '', '#ffd400', '1', '00000|000000|00000', '{}', 0)`, ann, webPDF)

	// Only a linked URL (linkMode 3, no file): without PDF, said so.
	url := z.item("journalArticle", "LINKURL1", map[string]string{"title": "Only A Link"})
	z.attach(url, "LINKURLA", 3, "application/pdf", "", "")

	// No content type, but the file is a PDF by its name.
	noType := z.item("journalArticle", "NOTYPE01", map[string]string{"title": "No Content Type"})
	z.attach(noType, "NOTYPEA1", linkImportedFile, "", "storage:Paper.PDF", sp("NOTYPEA1", "Paper.PDF"))

	// The database has the name composed (NFC), the disk decomposed (NFD),
	// as in a library copied from a Mac.
	nfc := norm.NFC.String("Gödel – Über formal unentscheidbare Sätze.pdf")
	nfd := z.item("journalArticle", "NFDNAME1", map[string]string{"title": "Über formal unentscheidbare Sätze"})
	z.attach(nfd, "NFDATT01", linkImportedFile, "application/pdf", "storage:"+nfc, sp("NFDATT01", norm.NFD.String(nfc)))

	// The attachment is in the trash, its parent is not.
	trashedAtt := z.item("journalArticle", "TRASHATT", map[string]string{"title": "Attachment Trashed"})
	z.trash(z.attach(trashedAtt, "TRASHAT1", linkImportedFile, "application/pdf", "storage:t.pdf", sp("TRASHAT1", "t.pdf")))

	// The parent is in the trash, its attachment is not.
	trashedParent := z.item("journalArticle", "TRASHPAR", map[string]string{"title": "Parent Trashed"})
	z.attach(trashedParent, "TRASHPA1", linkImportedFile, "application/pdf", "storage:p.pdf", sp("TRASHPA1", "p.pdf"))
	z.trash(trashedParent)

	// Linked by a Windows path (a library synced from Windows).
	win := z.item("journalArticle", "WINPATH1", map[string]string{"title": "Windows Path"})
	z.attach(win, "WINPATHA", linkLinkedFile, "application/pdf", `C:\Users\me\Papers\x.pdf`, "")

	// Linked by an absolute path that exists.
	linked := z.item("journalArticle", "LINKED01", map[string]string{"title": "Linked File"})
	z.attach(linked, "LINKEDA1", linkLinkedFile, "application/pdf", filepath.Join(linkedDir, "l.pdf"), filepath.Join(linkedDir, "l.pdf"))

	// A hostile key: a storage folder outside storage/.
	evil := z.item("journalArticle", "EVILKEY1", map[string]string{"title": "Evil Key"})
	z.exec(`INSERT INTO items (itemTypeID, libraryID, key) VALUES (?, 1, '../../x')`, zItemTypes["attachment"])
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (last_insert_rowid(), ?, 0, 'application/pdf', 'storage:e.pdf')`, evil)
	fakePDF(t, filepath.Join(z.dir, "..", "x", "e.pdf"))

	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	added, without := byKey(rep.Added), byKey(rep.WithoutPDF)
	wantAdded := []string{"LINKED01", "NFDNAME1", "NOTYPE01", "RICHTEXT", "SEVERAL1", "WEBPDF01"}
	wantWithout := []string{"EVILKEY1", "LINKURL1", "TRASHATT", "WINPATH1"}
	if diff := cmp.Diff(wantAdded, sortedKeys(added)); diff != "" {
		t.Errorf("added (-want +got):\n%s\n%+v", diff, rep)
	}
	if diff := cmp.Diff(wantWithout, sortedKeys(without)); diff != "" {
		t.Errorf("without PDF (-want +got):\n%s\n%+v", diff, rep)
	}
	if rep.Total() != len(wantAdded)+len(wantWithout) {
		t.Errorf("report %+v, want the trashed parent left out", rep)
	}
	pdfIs := func(key, src string) {
		t.Helper()
		if got, want := readFile(t, filepath.Join(root, added[key].Ref, "paper.pdf")), readFile(t, src); got != want {
			t.Errorf("%s: paper.pdf is not %s", key, src)
		}
	}
	pdfIs("SEVERAL1", sp("SEVB0001", "main.pdf"))
	if got := readMeta(t, root, added["RICHTEXT"].Ref).Title; got != "Wing Growth in Drosophila and H2O mRNA" {
		t.Errorf("title %q, want the markup stripped", got)
	}
	pdfIs("WEBPDF01", sp("WEBPDFA1", "download.pdf"))
	pdfIs("NFDNAME1", sp("NFDATT01", norm.NFD.String(nfc)))
	m := readMeta(t, root, added["SEVERAL1"].Ref)
	var others []string
	json.Unmarshal(m.Extra["other_pdfs"], &others)
	if !cmp.Equal(others, []string{sp("SEVC0001", "supplement.pdf")}) || !strings.Contains(added["SEVERAL1"].Note, "1 more PDF") {
		t.Errorf("other PDFs %q, note %q: want the supplement listed, not lost", others, added["SEVERAL1"].Note)
	}
	for key, want := range map[string]string{"LINKURL1": "link to a web page", "WINPATH1": "a Windows path", "EVILKEY1": "is not a file name", "TRASHATT": "its PDF attachment is in Zotero's trash"} {
		if !strings.Contains(without[key].Why, want) {
			t.Errorf("%s: why %q, want %q", key, without[key].Why, want)
		}
	}
}

// TestZoteroCollectionNames: Zotero allows any name; every folder made
// for one stays under papers/, visible and valid.
func TestZoteroCollectionNames(t *testing.T) {
	z := newZotero(t)
	names := []string{"../../escape", "a/b\\c", ".hidden", "..", ".", "   ", strings.Repeat("Ω", 200), "ML", "ml", "papers", "x.pdf", "con\x00trol\n"}
	parent := int64(0)
	for i, n := range names {
		c := z.collection(n, fmt.Sprintf("COLL%04d", i), 0)
		if i == 0 {
			parent = c
		}
		it := z.item("journalArticle", fmt.Sprintf("ITEM%04d", i), map[string]string{"title": fmt.Sprintf("Paper %d", i)})
		z.attach(it, fmt.Sprintf("ATTA%04d", i), linkImportedFile, "application/pdf", "storage:p.pdf", z.storagePath(fmt.Sprintf("ATTA%04d", i), "p.pdf"))
		z.file(c, it)
	}
	// A collection nested 70 deep, and one that is its own grandparent.
	deep := parent
	for i := 0; i < 70; i++ {
		deep = z.collection(fmt.Sprintf("level %d", i), fmt.Sprintf("DEEP%04d", i), deep)
	}
	it := z.item("journalArticle", "DEEPITEM", map[string]string{"title": "Deep"})
	z.attach(it, "DEEPATT1", linkImportedFile, "application/pdf", "storage:p.pdf", z.storagePath("DEEPATT1", "p.pdf"))
	z.file(deep, it)
	a := z.collection("loop a", "LOOPAAAA", 0)
	b := z.collection("loop b", "LOOPBBBB", a)
	z.exec(`UPDATE collections SET parentCollectionID = ? WHERE collectionID = ?`, b, a)
	it = z.item("journalArticle", "LOOPITEM", map[string]string{"title": "Loop"})
	z.attach(it, "LOOPATT1", linkImportedFile, "application/pdf", "storage:p.pdf", z.storagePath("LOOPATT1", "p.pdf"))
	z.file(b, it)

	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	if len(rep.Added) != len(names)+2 {
		t.Fatalf("added %d, want %d: %+v", len(rep.Added), len(names)+2, rep)
	}
	folders := map[string]bool{}
	for _, it := range rep.Added {
		if !vault.ValidRel(it.Ref) || !strings.HasPrefix(it.Ref, "papers/") || strings.Contains(it.Ref, "/.") {
			t.Errorf("%s: folder %q", it.Key, it.Ref)
		}
		for _, part := range strings.Split(it.Ref, "/") {
			if len(part) > 255 {
				t.Errorf("%s: a name of %d bytes", it.Key, len(part))
			}
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(it.Ref), "paper.pdf")); err != nil {
			t.Errorf("%s: %v", it.Key, err)
		}
		folders[it.Ref] = true
	}
	if len(folders) != len(rep.Added) {
		t.Errorf("papers share a folder: %v", folders)
	}
	snap, err := vault.Scan(root)
	if err != nil || len(snap.Papers) != len(rep.Added) {
		t.Errorf("the vault shows %d papers, want %d (%v)", len(snap.Papers), len(rep.Added), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(root))
	for _, e := range entries {
		if e.Name() == "escape" {
			t.Error("a collection name escaped the vault")
		}
	}
}

// TestZoteroTrashedCollection: Zotero 7 moves collections to the trash
// (deletedCollections); an item in one is filed as if it were in none.
func TestZoteroTrashedCollection(t *testing.T) {
	z := newZotero(t)
	c := z.collection("Old project", "OLDPROJ1", 0)
	z.exec(`INSERT INTO deletedCollections (collectionID) VALUES (?)`, c)
	it := z.item("journalArticle", "INOLDPRJ", map[string]string{"title": "Filed Away"})
	z.attach(it, "INOLDATT", linkImportedFile, "application/pdf", "storage:f.pdf", z.storagePath("INOLDATT", "f.pdf"))
	z.file(c, it)
	rep := importZ(t, z.dir, t.TempDir(), Options{})
	if len(rep.Added) != 1 || rep.Added[0].Ref != "papers/filed-away" {
		t.Errorf("added %+v, want papers/filed-away", rep.Added)
	}
}

func TestZoteroYear(t *testing.T) {
	cases := map[string]int{
		"2001-11-00 November 2001": 2001,
		"0000-00-00 2019":          2019,
		"0000-00-00 Spring 2019":   2019,
		"1066-00-00 1066":          1066,
		"2019-00-00 2019a":         2019,
		"0000-00-00 2019a":         2019,
		"":                         0,
		"0000-00-00 in press":      0,
		"2017":                     2017,
	}
	for in, want := range cases {
		if got := zoteroYear(in); got != want {
			t.Errorf("zoteroYear(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestZoteroGone: an item deleted from Zotero (or moved to its trash) is
// reported on the next import, and its paper stays in the vault untouched.
func TestZoteroGone(t *testing.T) {
	z := newZotero(t)
	keep := z.item("journalArticle", "KEEPKEEP", map[string]string{"title": "Kept"})
	z.attach(keep, "KEEPATT1", linkImportedFile, "application/pdf", "storage:k.pdf", z.storagePath("KEEPATT1", "k.pdf"))
	del := z.item("journalArticle", "DELETED1", map[string]string{"title": "Deleted Later"})
	z.attach(del, "DELATT01", linkImportedFile, "application/pdf", "storage:d.pdf", z.storagePath("DELATT01", "d.pdf"))
	trash := z.item("journalArticle", "TRASHED1", map[string]string{"title": "Trashed Later"})
	z.attach(trash, "TRSATT01", linkImportedFile, "application/pdf", "storage:t.pdf", z.storagePath("TRSATT01", "t.pdf"))
	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	if len(rep.Added) != 3 || len(rep.Gone) != 0 {
		t.Fatalf("first import %+v", rep)
	}
	z.exec(`DELETE FROM items WHERE itemID = ?`, del)
	z.trash(trash)
	before := treeHash(t, root)
	rep = importZ(t, z.dir, root, Options{})
	var gone []string
	for _, it := range rep.Gone {
		gone = append(gone, it.Key+" "+it.Ref+" "+it.Title)
		if !strings.Contains(it.Why, "no longer in the Zotero library") {
			t.Errorf("why %q", it.Why)
		}
	}
	sort.Strings(gone)
	if want := []string{"DELETED1 papers/deleted-later Deleted Later", "TRASHED1 papers/trashed-later Trashed Later"}; !cmp.Equal(gone, want) {
		t.Errorf("gone %q, want %q", gone, want)
	}
	if after := treeHash(t, root); !cmp.Equal(before, after) {
		t.Errorf("the vault changed:\n%s", cmp.Diff(before, after))
	}
	// Another Zotero library imported into the same vault does not call
	// the first one's papers gone.
	other := newZotero(t)
	o := other.item("journalArticle", "OTHERLIB", map[string]string{"title": "Other"})
	other.attach(o, "OTHERATT", linkImportedFile, "application/pdf", "storage:o.pdf", other.storagePath("OTHERATT", "o.pdf"))
	if rep := importZ(t, other.dir, root, Options{}); len(rep.Gone) != 0 || len(rep.Added) != 1 {
		t.Errorf("importing another library: %+v", rep)
	}
}

// TestZoteroStandalonePDF: a PDF dropped into Zotero on its own has only a
// title, often its file's name or "Full Text PDF"; the rest (and then the
// title) is read from the PDF, and a re-import keeps what was read.
func TestZoteroStandalonePDF(t *testing.T) {
	z := newZotero(t)
	named := z.item("attachment", "ALONENAM", map[string]string{"title": "Lamport - 2001 - Paxos Made Simple.pdf"})
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, NULL, 0, 'application/pdf', 'storage:Lamport - 2001 - Paxos Made Simple.pdf')`, named)
	fakePDF(t, z.storagePath("ALONENAM", "Lamport - 2001 - Paxos Made Simple.pdf"))
	titled := z.item("attachment", "ALONETIT", map[string]string{"title": "My reading copy of Raft"})
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, NULL, 1, 'application/pdf', 'storage:raft.pdf')`, titled)
	fakePDF(t, z.storagePath("ALONETIT", "raft.pdf"))
	html := z.item("attachment", "ALONEHTM", map[string]string{"title": "A web page"})
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, NULL, 1, 'text/html', 'storage:index.html')`, html)

	described := map[string]Described{
		"Lamport - 2001 - Paxos Made Simple.pdf": {Title: "Paxos Made Simple", Authors: []string{"Leslie Lamport"}, Year: 2001},
		"raft.pdf":                               {Title: "In Search of an Understandable Consensus Algorithm", Authors: []string{"Diego Ongaro", "John Ousterhout"}, Year: 2014, DOI: "10.5555/2643634.2643666"},
	}
	calls := 0
	opts := Options{Describe: func(ctx context.Context, p string) (Described, error) {
		calls++
		return described[filepath.Base(p)], nil
	}}
	root := t.TempDir()
	rep := importZ(t, z.dir, root, opts)
	added := byKey(rep.Added)
	if len(rep.Added) != 2 || rep.Total() != 2 {
		t.Fatalf("report %+v, want the two standalone PDFs (the web page is not a paper)", rep)
	}
	pm := readMeta(t, root, added["ALONENAM"].Ref)
	if added["ALONENAM"].Ref != "papers/lamport-2001-paxos-simple" || pm.Title != "Paxos Made Simple" || !cmp.Equal(pm.Authors, []string{"Leslie Lamport"}) || pm.Year != 2001 {
		t.Errorf("a PDF titled by its file name: %s %+v", added["ALONENAM"].Ref, pm)
	}
	rm := readMeta(t, root, added["ALONETIT"].Ref)
	if rm.Title != "My reading copy of Raft" || rm.Year != 2014 || rm.DOI != "10.5555/2643634.2643666" || len(rm.Authors) != 2 {
		t.Errorf("a PDF the user titled: %+v, want the user's title and the rest from the PDF", rm)
	}
	before := treeHash(t, root)
	rep = importZ(t, z.dir, root, opts)
	if len(rep.Unchanged) != 2 || calls != 2 {
		t.Errorf("re-import: %+v, %d reads of PDFs, want both unchanged and no PDF read again", rep, calls)
	}
	if after := treeHash(t, root); !cmp.Equal(before, after) {
		t.Errorf("a re-import dropped what was read from the PDF:\n%s", cmp.Diff(before, after))
	}
}

// TestZoteroHostileAttachments: linked files that are not papers (a FIFO,
// a device, a system file, a folder, a link into /proc) are refused with
// why, without blocking; among an item's PDFs the first real one is taken.
func TestZoteroHostileAttachments(t *testing.T) {
	z := newZotero(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.pdf")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	proc := filepath.Join(dir, "environ.pdf")
	os.Symlink("/proc/self/environ", proc)
	folder := filepath.Join(dir, "folder.pdf")
	os.MkdirAll(folder, 0o755)
	notPDF := filepath.Join(dir, "html.pdf")
	os.WriteFile(notPDF, []byte("<html>a login page saved as .pdf</html>"), 0o644)
	cases := map[string]struct{ path, why string }{
		"FIFOPDF1": {fifo, "not a regular file"},
		"DEVZERO1": {"/dev/zero", "system file"},
		"PASSWD01": {"/etc/passwd", "is not a PDF"},
		"FOLDER01": {folder, "is a folder"},
		"PROCLNK1": {proc, "system file"},
	}
	for key, c := range cases {
		it := z.item("journalArticle", key, map[string]string{"title": key})
		z.attach(it, "A"+key[1:], linkLinkedFile, "application/pdf", c.path, "")
	}
	// A login page saved as a PDF, then the real PDF.
	both := z.item("journalArticle", "REALAFTR", map[string]string{"title": "Real After Fake"})
	z.attach(both, "FAKEFRST", linkLinkedFile, "application/pdf", notPDF, "")
	real := fakePDF(t, filepath.Join(dir, "real.pdf"))
	z.attach(both, "REALSCND", linkLinkedFile, "application/pdf", real, "")

	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	if len(rep.Added) != 1 || rep.Added[0].Key != "REALAFTR" || readFile(t, filepath.Join(root, rep.Added[0].Ref, "paper.pdf")) != readFile(t, real) {
		t.Errorf("added %+v, want the real PDF of REALAFTR", rep.Added)
	}
	skipped := byKey(rep.Skipped)
	for key, c := range cases {
		if !strings.Contains(skipped[key].Why, c.why) {
			t.Errorf("%s (%s): why %q, want %q", key, c.path, skipped[key].Why, c.why)
		}
	}
}

// TestZoteroDuplicates: two Zotero items with the same PDF (duplicates are
// common) make one paper; the other is reported, and re-imports are stable
// instead of handing the paper from one item to the other.
func TestZoteroDuplicates(t *testing.T) {
	z := newZotero(t)
	pdf := fakePDF(t, filepath.Join(t.TempDir(), "same.pdf"))
	a := z.item("journalArticle", "DUPFIRST", map[string]string{"title": "Duplicate One"})
	z.attach(a, "DUPATT01", linkImportedFile, "application/pdf", "storage:same.pdf", "")
	os.MkdirAll(filepath.Dir(z.storagePath("DUPATT01", "same.pdf")), 0o755)
	copyTestFile(t, pdf, z.storagePath("DUPATT01", "same.pdf"))
	b := z.item("journalArticle", "DUPSECND", map[string]string{"title": "Duplicate Two"})
	z.attach(b, "DUPATT02", linkImportedFile, "application/pdf", "storage:same.pdf", "")
	os.MkdirAll(filepath.Dir(z.storagePath("DUPATT02", "same.pdf")), 0o755)
	copyTestFile(t, pdf, z.storagePath("DUPATT02", "same.pdf"))
	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	if len(rep.Added) != 1 || rep.Added[0].Key != "DUPFIRST" || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Why, "imported from zotero DUPFIRST") {
		t.Fatalf("first import %+v", rep)
	}
	ref := rep.Added[0].Ref
	for i := 0; i < 2; i++ {
		before := treeHash(t, root)
		rep = importZ(t, z.dir, root, Options{})
		if len(rep.Unchanged) != 1 || len(rep.Skipped) != 1 || len(rep.Updated) != 0 {
			t.Errorf("import %d: %+v, want one unchanged, one skipped", i+2, rep)
		}
		if after := treeHash(t, root); !cmp.Equal(before, after) {
			t.Errorf("import %d changed the vault:\n%s", i+2, cmp.Diff(before, after))
		}
	}
	if got := readMeta(t, root, ref).Title; got != "Duplicate One" {
		t.Errorf("title %q", got)
	}
}

// TestZoteroNotADatabase: a damaged zotero.sqlite is a sentence, not a
// driver's error; choosing the storage folder finds the data folder.
func TestZoteroNotADatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Zotero")
	os.MkdirAll(filepath.Join(dir, "storage"), 0o755)
	os.WriteFile(filepath.Join(dir, "zotero.sqlite"), []byte("this is not SQLite at all, but long enough to be read as a header by the driver....."), 0o644)
	_, err := ImportZotero(context.Background(), dir, t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot be read as a Zotero database") || !errors.Is(err, ErrRefused) {
		t.Errorf("err = %v, want a sentence", err)
	}
	// A pipe in its place is refused at once, not waited on; so is a pipe
	// beside a real database as its journal.
	piped := filepath.Join(t.TempDir(), "Zotero")
	os.MkdirAll(piped, 0o755)
	if err := syscall.Mkfifo(filepath.Join(piped, "zotero.sqlite"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := ImportZotero(ctx, piped, t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "is not a file") || !errors.Is(err, ErrRefused) {
		t.Errorf("a pipe as zotero.sqlite: err = %v, want it refused in a sentence", err)
	}
	z := newZotero(t)
	if err := syscall.Mkfifo(filepath.Join(z.dir, "zotero.sqlite-wal"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportZotero(ctx, z.dir, t.TempDir(), Options{}); ctx.Err() != nil {
		t.Fatalf("a pipe as the database's WAL was waited on: %v", err)
	}
	os.Remove(filepath.Join(z.dir, "zotero.sqlite-wal"))
	it := z.item("journalArticle", "INSTORAG", map[string]string{"title": "Chosen Through Storage"})
	z.attach(it, "INSTORA1", linkImportedFile, "application/pdf", "storage:s.pdf", z.storagePath("INSTORA1", "s.pdf"))
	if rep := importZ(t, filepath.Join(z.dir, "storage"), t.TempDir(), Options{}); len(rep.Added) != 1 {
		t.Errorf("the storage folder chosen: %+v", rep)
	}
}

// TestZoteroPDFReplaced: the PDF is replaced in Zotero (a published version
// over the preprint): the next import replaces the vault's copy and says
// so, unless the user changed that copy, which is kept with a note.
func TestZoteroPDFReplaced(t *testing.T) {
	z := newZotero(t)
	it := z.item("journalArticle", "REPLACED", map[string]string{"title": "Replaced Later"})
	stored := z.storagePath("REPLATT1", "paper.pdf")
	z.attach(it, "REPLATT1", linkImportedFile, "application/pdf", "storage:paper.pdf", stored)
	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	ref := rep.Added[0].Ref
	vaultPDF := filepath.Join(root, ref, "paper.pdf")
	notes := filepath.Join(root, ref, "notes.md")
	os.WriteFile(notes, []byte("mine"), 0o644)

	os.WriteFile(stored, []byte("%PDF-1.7\n% the published version, longer than the preprint\n%%EOF\n"), 0o644)
	rep = importZ(t, z.dir, root, Options{})
	if len(rep.Updated) != 1 || !cmp.Equal(rep.Updated[0].Changed, []string{"paper.pdf"}) || readFile(t, vaultPDF) != readFile(t, stored) {
		t.Fatalf("after Zotero's PDF was replaced: %+v", rep)
	}
	if rep := importZ(t, z.dir, root, Options{}); len(rep.Unchanged) != 1 {
		t.Errorf("the import after: %+v, want unchanged", rep)
	}

	// Replaced by a file of the same size, written later: found by its time.
	same := strings.Replace(readFile(t, stored), "published", "corrected", 1)
	os.WriteFile(stored, []byte(same), 0o644)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(stored, later, later)
	rep = importZ(t, z.dir, root, Options{})
	if len(rep.Updated) != 1 || readFile(t, vaultPDF) != same {
		t.Fatalf("after Zotero's PDF was replaced by one of the same size: %+v", rep)
	}
	if rep := importZ(t, z.dir, root, Options{}); len(rep.Unchanged) != 1 {
		t.Errorf("the import after the same-size replacement: %+v, want unchanged", rep)
	}

	// The user annotates the vault's copy; Zotero's changes again.
	os.WriteFile(vaultPDF, []byte(readFile(t, vaultPDF)+"% my annotations, appended\n"), 0o644)
	annotated := readFile(t, vaultPDF)
	os.WriteFile(stored, []byte("%PDF-1.7\n% a third version\n%%EOF\n"), 0o644)
	rep = importZ(t, z.dir, root, Options{})
	if len(rep.Unchanged) != 1 || !strings.Contains(rep.Unchanged[0].Note, "vault's copy was changed too") || readFile(t, vaultPDF) != annotated {
		t.Errorf("a copy the user changed: %+v", rep)
	}
	if readFile(t, notes) != "mine" {
		t.Error("the user's notes changed")
	}
}

// TestZoteroNoRoomForCopy: when the database cannot be copied (no
// temporary folder, or no room in it), it is read in place as an immutable
// file, even while Zotero holds its lock, and it is not written; a folder
// name with URI characters (# ? %) is no obstacle.
func TestZoteroNoRoomForCopy(t *testing.T) {
	z := newZotero(t)
	it := z.item("journalArticle", "NOROOM01", map[string]string{"title": "No Room"})
	z.attach(it, "NOROOMA1", linkImportedFile, "application/pdf", "storage:n.pdf", z.storagePath("NOROOMA1", "n.pdf"))
	z.db.Close()
	odd := filepath.Join(t.TempDir(), "Zotero #1 ?50%")
	if err := os.Rename(z.dir, odd); err != nil {
		t.Fatal(err)
	}
	z.dir = odd
	z.lock()
	before := treeHash(t, odd)
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "no-such-folder"))
	rep := importZ(t, odd, t.TempDir(), Options{})
	if len(rep.Added) != 1 {
		t.Errorf("report %+v", rep)
	}
	if after := treeHash(t, odd); !cmp.Equal(before, after) {
		t.Errorf("Zotero's folder changed:\n%s", cmp.Diff(before, after))
	}
}

// TestZoteroCollectionNamedLikeAPaper: a collection whose folder name is
// an existing paper's folder does not put papers inside that paper.
func TestZoteroCollectionNamedLikeAPaper(t *testing.T) {
	z := newZotero(t)
	loose := z.item("journalArticle", "LOOSE001", map[string]string{"title": "Reading"})
	z.attach(loose, "LOOSEAT1", linkImportedFile, "application/pdf", "storage:r.pdf", z.storagePath("LOOSEAT1", "r.pdf"))
	c := z.collection("reading", "COLLREAD", 0)
	filed := z.item("journalArticle", "FILED001", map[string]string{"title": "Filed"})
	z.attach(filed, "FILEDAT1", linkImportedFile, "application/pdf", "storage:f.pdf", z.storagePath("FILEDAT1", "f.pdf"))
	z.file(c, filed)
	root := t.TempDir()
	rep := importZ(t, z.dir, root, Options{})
	got := map[string]string{}
	for _, it := range rep.Added {
		got[it.Key] = it.Ref
	}
	want := map[string]string{"LOOSE001": "papers/reading", "FILED001": "papers/reading (collection)/filed"}
	if !cmp.Equal(got, want) {
		t.Errorf("added %v, want %v", got, want)
	}
	snap, _ := vault.Scan(root)
	if len(snap.Papers) != 2 {
		t.Errorf("the vault shows %d papers, want 2", len(snap.Papers))
	}
}
