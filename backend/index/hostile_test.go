//go:build unix

package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/google/go-cmp/cmp"
)

// cutExtractor returns pages the extractor cut at its caps.
type cutExtractor struct{}

func (cutExtractor) ExtractFile(context.Context, *os.File) (*pdf.Document, error) {
	return &pdf.Document{Pages: []pdf.Page{
		{Number: 1, Text: "a normal page"},
		{Number: 2, Text: strings.Repeat("x", 100), Cut: true},
		{Number: 3, Text: "", Cut: true},
		{Number: 4, Text: "", Cut: true},
	}}, nil
}

func syncVault(t *testing.T, root string, ex Extractor) (*DB, Stats) {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewIndexer(db, ex, SyncOptions{}).Sync(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	return db, st
}

func put(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSyncReportsHostileFiles plants metadata.json past its cap, a FIFO and
// links where the index reads: the sync ends, indexes the good papers, and
// says what it left out and why, per file.
func TestSyncReportsHostileFiles(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	put(t, outside, "secret.md", "SENTINEL outside")
	put(t, root, "papers/good/paper.pdf", "%PDF good")
	put(t, root, "papers/good/metadata.json", `{"title":"A Good Paper"}`)
	put(t, root, "papers/big/paper.pdf", "%PDF big")
	big, err := os.Create(filepath.Join(root, "papers/big/metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(100 << 20) // sparse
	big.Close()
	put(t, root, "papers/linked/paper.pdf", "%PDF linked")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "papers/linked/NOTES.md"))
	os.Symlink("/dev/zero", filepath.Join(root, "papers/linked/zero.pdf"))
	if err := syscall.Mkfifo(filepath.Join(root, "notes.md"), 0o644); err != nil {
		t.Fatal(err)
	}

	db, st := syncVault(t, root, readingExtractor{})
	if st.Papers != 3 || len(st.Errors) != 0 {
		t.Errorf("papers = %d, errors = %+v; want 3 papers indexed", st.Papers, st.Errors)
	}
	if d := cmp.Diff([]PaperError{{Ref: "papers/big", Error: "metadata.json ignored: larger than the 1 MB limit for a metadata.json"}}, st.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	want := []vault.Skipped{
		{Path: "notes.md", Problem: "not a regular file (a FIFO, socket or device): not read"},
		{Path: "papers/linked/NOTES.md", Problem: "a symlink: links are not indexed"},
		{Path: "papers/linked/zero.pdf", Problem: "a symlink: links are not indexed"},
	}
	if d := cmp.Diff(want, st.Skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	var n int
	if err := db.sql.QueryRow(`SELECT count(*) FROM pages WHERE text LIKE '%SENTINEL%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("pages holding the outside file: %d, %v", n, err)
	}
	if err := db.sql.QueryRow(`SELECT count(*) FROM files WHERE text LIKE '%SENTINEL%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("files holding the outside file: %d, %v", n, err)
	}
}

// TestSyncReadsThePDFItScanned swaps a scanned PDF for a link to another
// paper's PDF before it is read: the index refuses it rather than put the
// other paper's text under this paper (where its grant would read it).
func TestSyncReadsThePDFItScanned(t *testing.T) {
	root := t.TempDir()
	put(t, root, "papers/a/paper.pdf", "%PDF text of a")
	put(t, root, "papers/private/paper.pdf", "%PDF PRIVATE text")
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	pdfA := filepath.Join(root, "papers/a/paper.pdf")
	os.Remove(pdfA)
	if err := os.Symlink("../private/paper.pdf", pdfA); err != nil {
		t.Fatal(err)
	}
	db, err := Open(filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := NewIndexer(db, readingExtractor{}, SyncOptions{}).Sync(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := db.PageText(t.Context(), "papers/a", 1)
	if strings.Contains(text, "PRIVATE") {
		t.Errorf("papers/a holds the private paper's text: %q", text)
	}
	if len(st.Errors) != 1 || st.Errors[0].Ref != "papers/a" || !strings.Contains(st.Errors[0].Error, "became a symlink") {
		t.Errorf("errors = %+v, want papers/a's PDF refused", st.Errors)
	}
}

// TestCutPagesAreRecorded checks that pages the extractor cut at its caps
// are in the paper's health, and are not counted as pages without text.
func TestCutPagesAreRecorded(t *testing.T) {
	root := t.TempDir()
	put(t, root, "papers/dense/paper.pdf", "%PDF dense")
	db, st := syncVault(t, root, cutExtractor{})
	p, err := db.Paper(t.Context(), "papers/dense")
	if err != nil {
		t.Fatal(err)
	}
	want := "text cut at 100000 bytes on page 2; pages 3–4 not indexed: the document passed 10000000 bytes of text"
	if p.Status != StatusOK || p.NoTextPages != 0 || p.Error != want {
		t.Errorf("health = %s, %d pages without text, %q; want ok, 0, %q", p.Status, p.NoTextPages, p.Error, want)
	}
	if d := cmp.Diff([]PaperError{{Ref: "papers/dense", Error: want}}, st.Warnings); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	// A metadata.json edit re-derives the metadata and keeps the note.
	put(t, root, "papers/dense/metadata.json", `{"title":"Dense"}`)
	snap, _ := vault.Scan(root)
	if _, err := NewIndexer(db, cutExtractor{}, SyncOptions{}).Sync(t.Context(), snap); err != nil {
		t.Fatal(err)
	}
	if p, _ := db.Paper(t.Context(), "papers/dense"); p.Title != "Dense" || p.Error != want {
		t.Errorf("after a metadata edit: %q, %q; want the note kept", p.Title, p.Error)
	}
}
