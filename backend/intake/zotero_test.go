package intake

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/internal/corpustest"
)

type zlib struct {
	z              *zfix
	paxos, attn    int64
	book, missing  int64
	linkedPDF      string
	reading, conse int64
}

// buildLibrary is a small Zotero library: a stored PDF in a nested
// collection and in a second one, a linked PDF with three authors stored
// out of order, a book without attachment, an item whose stored file is
// missing, a note, and an item in the trash.
func buildLibrary(t *testing.T) *zlib {
	corpus := corpustest.NeedCorpus(t)
	z := newZotero(t)
	l := &zlib{z: z}
	ds := z.collection("Distributed Systems", "COLL0001", 0)
	l.conse = z.collection("Consensus", "COLL0002", ds)
	l.reading = z.collection("Reading list", "COLL0003", 0)

	l.paxos = z.item("journalArticle", "PAXOS001", map[string]string{"title": "Paxos Made Simple", "date": "2001-11-00 November 2001",
		"publicationTitle": "ACM SIGACT News", "abstractNote": "The Paxos algorithm, when presented in plain English, is very simple."},
		zcreator{first: "Leslie", last: "Lamport"})
	z.stored(l.paxos, "STOR0001", "Lamport - 2001 - Paxos Made Simple.pdf", filepath.Join(corpus, "paxos-made-simple.pdf"))
	z.note(l.paxos, "NOTE0001", "<p>Read twice.</p>")
	z.file(l.conse, l.paxos)
	z.file(l.reading, l.paxos)
	z.tag(l.paxos, "consensus")
	z.tag(l.paxos, "classic")

	l.attn = z.item("conferencePaper", "ATTN0001", map[string]string{"title": "Attention Is All You Need", "date": "2017-06-12 2017-06-12",
		"url": "https://arxiv.org/abs/1706.03762v5", "extra": "Citation Key: vaswani2017"},
		zcreator{first: "Niki", last: "Parmar", order: 2}, zcreator{first: "Ashish", last: "Vaswani", order: 0},
		zcreator{first: "Noam", last: "Shazeer", order: 1}, zcreator{last: "Google Brain", single: true, typ: "contributor", order: 3})
	l.linkedPDF = filepath.Join(t.TempDir(), "elsewhere", "attention.pdf")
	os.MkdirAll(filepath.Dir(l.linkedPDF), 0o755)
	copyTestFile(t, filepath.Join(corpus, "1706.03762.pdf"), l.linkedPDF)
	z.linked(l.attn, "LINK0001", l.linkedPDF)
	z.file(l.reading, l.attn)

	l.book = z.item("book", "BOOK0001", map[string]string{"title": "Distributed Algorithms", "date": "1996"},
		zcreator{first: "Nancy", last: "Lynch"})
	l.missing = z.item("journalArticle", "MISS0001", map[string]string{"title": "A Paper Whose File Is Gone", "DOI": "10.1000/GONE.1"})
	z.stored(l.missing, "STOR0002", "gone.pdf", "")

	standalone := z.item("attachment", "ALONE001", map[string]string{"title": "Peercoin white paper"})
	z.exec(`INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, NULL, 0, 'application/pdf', 'storage:peercoin.pdf')`, standalone)
	os.MkdirAll(filepath.Join(z.dir, "storage", "ALONE001"), 0o755)
	copyTestFile(t, filepath.Join(corpus, "peercoin.pdf"), filepath.Join(z.dir, "storage", "ALONE001", "peercoin.pdf"))

	trashed := z.item("journalArticle", "TRSH0001", map[string]string{"title": "Bitcoin"}, zcreator{first: "Satoshi", last: "Nakamoto"})
	z.stored(trashed, "STOR0003", "bitcoin.pdf", filepath.Join(corpus, "bitcoin.pdf"))
	z.trash(trashed)
	return l
}

// treeHash is every file under dir with its content hash.
func treeHash(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			st, _ := os.Stat(p)
			out[strings.TrimPrefix(p, dir)] = hex.EncodeToString(sum[:]) + " " + st.ModTime().String()
		}
		return nil
	})
	return out
}

func keys(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Key)
	}
	return out
}

func TestImportZotero(t *testing.T) {
	ctx := context.Background()
	l := buildLibrary(t)
	root := t.TempDir()
	before := treeHash(t, l.z.dir)
	rep, err := ImportZotero(ctx, l.z.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"PAXOS001", "ATTN0001", "ALONE001"}, keys(rep.Added)); diff != "" {
		t.Fatalf("added (-want +got):\n%s\nreport %+v", diff, rep)
	}
	if diff := cmp.Diff([]string{"BOOK0001", "MISS0001"}, keys(rep.WithoutPDF)); diff != "" {
		t.Errorf("without PDF (-want +got):\n%s", diff)
	}
	if len(rep.Skipped)+len(rep.Errors)+len(rep.Updated)+len(rep.Unchanged) != 0 {
		t.Errorf("report %+v, want only added and without PDF (the trashed item left out)", rep)
	}
	if !strings.Contains(rep.WithoutPDF[1].Why, "missing") || !strings.Contains(rep.WithoutPDF[0].Why, "no PDF") {
		t.Errorf("why = %q / %q", rep.WithoutPDF[0].Why, rep.WithoutPDF[1].Why)
	}
	if got := treeHash(t, l.z.dir); !cmp.Equal(before, got) {
		t.Errorf("Zotero's folder changed:\n%s", cmp.Diff(before, got))
	}

	paxos, attn := rep.Added[0].Ref, rep.Added[1].Ref
	if got := readMeta(t, root, rep.Added[2].Ref).Title; got != "Peercoin white paper" || rep.Added[2].Ref != "papers/peercoin-white" {
		t.Errorf("the standalone PDF: %s titled %q", rep.Added[2].Ref, got)
	}
	if paxos != "papers/Distributed Systems/Consensus/lamport-2001-paxos-simple" {
		t.Errorf("paxos at %s, want in its nested collection's folder", paxos)
	}
	if attn != "papers/Reading list/vaswani-2017-attention-need" {
		t.Errorf("attention at %s", attn)
	}
	pm := readMeta(t, root, paxos)
	if pm.Title != "Paxos Made Simple" || pm.Year != 2001 || !cmp.Equal(pm.Authors, []string{"Leslie Lamport"}) ||
		!cmp.Equal(pm.Tags, []string{"classic", "consensus"}) || !strings.HasPrefix(pm.Abstract, "The Paxos algorithm") {
		t.Errorf("paxos metadata = %+v", pm)
	}
	if got := compact(pm.Extra["collections"]); got != `["Distributed Systems/Consensus","Reading list"]` {
		t.Errorf("collections = %s, want both", got)
	}
	if got := string(pm.Extra["zotero_key"]); got != `"PAXOS001"` {
		t.Errorf("zotero_key = %s", got)
	}
	am := readMeta(t, root, attn)
	if string(am.Extra["citation_key"]) != `"vaswani2017"` {
		t.Errorf("citation_key = %s, want Better BibTeX's from Extra", am.Extra["citation_key"])
	}
	if !cmp.Equal(am.Authors, []string{"Ashish Vaswani", "Noam Shazeer", "Niki Parmar"}) || am.ArxivID != "1706.03762" || am.Year != 2017 {
		t.Errorf("attention metadata = %+v, want the authors in Zotero's order and the arXiv id from the URL", am)
	}
	pdf, _ := os.ReadFile(filepath.Join(root, attn, "paper.pdf"))
	want, _ := os.ReadFile(l.linkedPDF)
	if string(pdf) != string(want) {
		t.Error("the linked PDF was not copied")
	}

	// The user writes notes and edits a field; a second import changes nothing.
	notes := filepath.Join(root, paxos, "NOTES.md")
	os.WriteFile(notes, []byte("# my notes\n"), 0o644)
	editMeta(t, filepath.Join(root, attn, "metadata.json"), "title", "Attention (my title)")
	vaultBefore := treeHash(t, root)
	rep2, err := ImportZotero(ctx, l.z.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep2.Added)+len(rep2.Updated) != 0 || len(rep2.Unchanged) != 3 {
		t.Fatalf("second import: %+v, want both unchanged", rep2)
	}
	if got := treeHash(t, root); !cmp.Equal(vaultBefore, got) {
		t.Errorf("the second import changed the vault:\n%s", cmp.Diff(vaultBefore, got))
	}

	// Titles change in Zotero: paxos's is updated, attention's edit is kept.
	l.z.set(l.paxos, "title", "Paxos Made Simple (revised)")
	l.z.set(l.attn, "title", "Attention Is All You Need (v7)")
	rep3, err := ImportZotero(ctx, l.z.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep3.Updated) != 1 || rep3.Updated[0].Ref != paxos || !cmp.Equal(rep3.Updated[0].Changed, []string{"title"}) {
		t.Fatalf("third import updated %+v, want only paxos's title", rep3.Updated)
	}
	if got := readMeta(t, root, paxos).Title; got != "Paxos Made Simple (revised)" {
		t.Errorf("paxos title = %q", got)
	}
	if got := readMeta(t, root, attn).Title; got != "Attention (my title)" {
		t.Errorf("attention title = %q, want the user's edit kept", got)
	}
	if got := string(readMeta(t, root, paxos).Extra["source"]); compact([]byte(got)) != `{"abstract":"zotero","authors":"zotero","collections":"zotero","tags":"zotero","title":"zotero","venue":"zotero","year":"zotero","zotero_key":"zotero"}` {
		t.Errorf("source = %s, want each imported field noted as Zotero's", got)
	}

	// A field the app's metadata editor marked as the user's ("edited") is
	// never rewritten, even when it still holds the imported value.
	editMeta(t, filepath.Join(root, paxos, "metadata.json"), "edited", []string{"title"})
	l.z.set(l.paxos, "title", "Paxos Made Simple (third)")
	rep4, err := ImportZotero(ctx, l.z.dir, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep4.Updated) != 0 || readMeta(t, root, paxos).Title != "Paxos Made Simple (revised)" {
		t.Errorf("an edited title was rewritten: %+v, %q", rep4.Updated, readMeta(t, root, paxos).Title)
	}
	if readFile(t, notes) != "# my notes\n" {
		t.Error("the user's notes changed")
	}
}

// editMeta sets one key of a metadata.json, as a user's editor would.
func editMeta(t *testing.T, p, key string, value any) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, p)), &m); err != nil {
		t.Fatal(err)
	}
	m[key] = value
	data, _ := json.MarshalIndent(m, "", "\t")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func compact(raw []byte) string {
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.String()
}

func readFile(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestImportZoteroLocked imports while another connection holds Zotero's
// exclusive lock on the database, as a running Zotero does.
func TestImportZoteroLocked(t *testing.T) {
	l := buildLibrary(t)
	l.z.lock() // and checks that the lock is real: another reader is refused
	rep, err := ImportZotero(context.Background(), l.z.dir, t.TempDir(), Options{})
	if err != nil {
		t.Fatalf("import while Zotero holds its lock: %v", err)
	}
	if len(rep.Added) != 3 {
		t.Errorf("added %+v, want 3", rep.Added)
	}
}

func TestImportZoteroNotZotero(t *testing.T) {
	_, err := ImportZotero(context.Background(), t.TempDir(), t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "has no zotero.sqlite") {
		t.Errorf("err = %v, want a sentence naming zotero.sqlite", err)
	}
}
