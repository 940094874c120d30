package index_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/google/go-cmp/cmp"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// small corpus papers keep these tests quick.
var smallPapers = []string{"peercoin.pdf", "primecoin.pdf", "bitcoin.pdf"}

func TestIncrementalSync(t *testing.T) {
	manifest(t)
	root := makeVault(t, smallPapers)
	db := openDB(t, root)
	ex := &countingExtractor{inner: sharedExtractor()}

	st := syncVault(t, db, ex, root)
	if got := len(ex.take()); got != 3 || st.Extracted != 3 {
		t.Fatalf("cold index read %d PDFs (stats %d), want 3", got, st.Extracted)
	}

	syncVault(t, db, ex, root)
	if got := ex.take(); len(got) != 0 {
		t.Errorf("unchanged vault re-read %v", got)
	}

	// A new mtime with the same bytes: the hash says unchanged.
	peer := filepath.Join(root, "papers/peercoin/peercoin.pdf")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(peer, later, later); err != nil {
		t.Fatal(err)
	}
	syncVault(t, db, ex, root)
	if got := ex.take(); len(got) != 0 {
		t.Errorf("touched but unchanged PDF re-read: %v", got)
	}

	// Changed bytes (an incremental update appended): exactly that one is re-read.
	f, err := os.OpenFile(peer, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n% appended by a PDF editor\n")
	f.Close()
	syncVault(t, db, ex, root)
	if diff := cmp.Diff([]string{"peercoin.pdf"}, ex.take()); diff != "" {
		t.Errorf("changed PDF: re-read (-want +got):\n%s", diff)
	}

	// A renamed folder keeps its pages without re-reading the PDF.
	if err := os.Rename(filepath.Join(root, "papers/bitcoin"), filepath.Join(root, "papers/nakamoto-2008")); err != nil {
		t.Fatal(err)
	}
	syncVault(t, db, ex, root)
	if got := ex.take(); len(got) != 0 {
		t.Errorf("renamed folder re-read %v", got)
	}
	if _, err := db.Paper(context.Background(), "papers/bitcoin"); err != index.ErrNotFound {
		t.Errorf("old ref still indexed: %v", err)
	}
	p, err := db.Paper(context.Background(), "papers/nakamoto-2008")
	if err != nil || p.Pages != 9 || p.PDFPath != "papers/nakamoto-2008/bitcoin.pdf" {
		t.Errorf("moved paper = %+v, %v; want 9 pages at the new path", p, err)
	}
	hits, err := librarySearch(db, "purely peer-to-peer version of electronic cash", 3)
	if err != nil || len(hits) == 0 || hits[0].Ref != "papers/nakamoto-2008" {
		t.Errorf("search after move = %+v, %v", hits, err)
	}

	// A deleted folder leaves the index, pages and all.
	if err := os.RemoveAll(filepath.Join(root, "papers/primecoin")); err != nil {
		t.Fatal(err)
	}
	st = syncVault(t, db, ex, root)
	if st.Papers != 2 || st.Removed != 1 {
		t.Errorf("after delete: %d papers, %d removed; want 2 and 1", st.Papers, st.Removed)
	}
	if hits, _ := librarySearch(db, "primecoin", 5); len(hits) != 0 {
		t.Errorf("deleted paper still found: %+v", hits)
	}
}

func TestMetadataJSONWinsAndUpdatesWithoutExtraction(t *testing.T) {
	manifest(t)
	root := makeVault(t, []string{"peercoin.pdf"})
	meta := filepath.Join(root, "papers/peercoin/metadata.json")
	os.WriteFile(meta, []byte(`{"title": "PPCoin", "authors": ["Sunny King", "Scott Nadal"], "year": 2012, "doi": "https://doi.org/10.1000/XYZ", "zotero_key": "ABCD"}`), 0o644)
	db := openDB(t, root)
	ex := &countingExtractor{inner: sharedExtractor()}
	syncVault(t, db, ex, root)
	ex.take()
	p, _ := db.Paper(context.Background(), "papers/peercoin")
	if p.Title != "PPCoin" || p.TitleSource != "metadata.json" || p.Year != 2012 || p.DOI != "10.1000/xyz" || len(p.Authors) != 2 {
		t.Errorf("paper = %+v", p)
	}
	os.WriteFile(meta, []byte(`{"title": "PPCoin: Peer-to-Peer Crypto-Currency with Proof-of-Stake"}`), 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(meta, later, later)
	syncVault(t, db, ex, root)
	if got := ex.take(); len(got) != 0 {
		t.Errorf("metadata edit re-read the PDF: %v", got)
	}
	p, _ = db.Paper(context.Background(), "papers/peercoin")
	if p.Title != "PPCoin: Peer-to-Peer Crypto-Currency with Proof-of-Stake" {
		t.Errorf("title after edit = %q", p.Title)
	}
	os.WriteFile(meta, []byte(`{"title": `), 0o644)
	os.Chtimes(meta, later.Add(time.Minute), later.Add(time.Minute))
	syncVault(t, db, ex, root)
	p, _ = db.Paper(context.Background(), "papers/peercoin")
	if !strings.Contains(p.Error, "metadata.json") || p.Status != index.StatusOK {
		t.Errorf("broken metadata.json: status %q error %q, want ok with a warning", p.Status, p.Error)
	}
}

func TestBadPDFs(t *testing.T) {
	manifest(t)
	root := makeVault(t, []string{"peercoin.pdf", "1985-Flajolet-Probabilistic-counting.pdf"})
	real, err := os.ReadFile(filepath.Join(corpusDir, "bitcoin.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(ref string, data []byte) {
		dir := filepath.Join(root, ref)
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, "paper.pdf"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(i*7919 + i/13)
	}
	write("papers/zero", nil)
	write("papers/truncated", real[:len(real)/2])
	write("papers/random", random)
	write("papers/html", []byte("<html><body>404 Not Found</body></html>"))
	encrypt(t, filepath.Join(corpusDir, "peercoin.pdf"), filepath.Join(root, "papers/encrypted/paper.pdf"))
	os.WriteFile(filepath.Join(root, "papers/zero/NOTES.md"), []byte("my notes"), 0o644)

	before := hashTree(t, root)
	db := openDB(t, root)
	st := syncVault(t, db, sharedExtractor(), root)

	errs := map[string]string{}
	for _, e := range st.Errors {
		errs[e.Ref] = e.Error
	}
	for ref, want := range map[string]string{
		"papers/zero": "empty file", "papers/random": "damaged", "papers/html": "damaged", "papers/encrypted": "encrypted",
	} {
		if !strings.Contains(errs[ref], want) {
			t.Errorf("%s: error %q, want it to say %q", ref, errs[ref], want)
		}
	}
	// A truncated file is either readable in part or damaged, never fatal.
	if tp, err := db.Paper(context.Background(), "papers/truncated"); err != nil || (tp.Status != index.StatusError && tp.Pages == 0) {
		t.Errorf("truncated: %+v %v", tp, err)
	}
	if p, _ := db.Paper(context.Background(), "papers/peercoin"); p.Status != index.StatusOK || p.Pages != 6 {
		t.Errorf("good paper beside bad ones: %+v", p)
	}
	if !slices.Contains(st.NoTextPapers, "papers/1985-Flajolet-Probabilistic-counting") {
		t.Errorf("scan not reported as without text: %v", st.NoTextPapers)
	}
	if diff := cmp.Diff(before, hashTree(t, root)); diff != "" {
		t.Errorf("indexing changed the vault outside .agentero (-before +after):\n%s", diff)
	}
}

func TestTimeLimitStopsOneFile(t *testing.T) {
	manifest(t)
	root := makeVault(t, []string{"2204.02311.pdf"})
	ex := pdf.NewExtractor(pdf.Options{Workers: 1, Timeout: time.Millisecond})
	defer ex.Close()
	db := openDB(t, root)
	st := syncVault(t, db, ex, root)
	if len(st.Errors) != 1 || !strings.Contains(st.Errors[0].Error, "too long") {
		t.Errorf("errors = %+v, want one time-limit error", st.Errors)
	}
}

// encrypt writes a copy of the PDF at from, encrypted with a user password.
func encrypt(t *testing.T, from, to string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(to), 0o755)
	in, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(in), &out, model.NewAESConfiguration("secret", "owner", 256)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hashTree hashes every file of a vault outside .agentero.
func hashTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel == ".agentero" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			out[rel+"/"] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(h[:])
		return nil
	})
	return out
}

// A PDF reader that cannot start is no paper's failure: the run stops with
// that error, and no paper is recorded as unreadable, so that the next run
// reads them all. (pdf's tests check that a worker that cannot start is
// ErrUnavailable.)
func TestReaderThatCannotStartFailsTheRunNotThePapers(t *testing.T) {
	manifest(t)
	root := makeVault(t, smallPapers)
	db := openDB(t, root)
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = index.NewIndexer(db, unavailable{}, index.SyncOptions{Workers: 2}).Sync(context.Background(), snap)
	if !errors.Is(err, pdf.ErrUnavailable) {
		t.Fatalf("sync with a reader that cannot start: %v, want ErrUnavailable", err)
	}
	papers, err := db.Papers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		if p.Status == index.StatusError {
			t.Errorf("%s recorded as unreadable (%s) for the reader's failure", p.Ref, p.Error)
		}
	}
	st := syncVault(t, db, sharedExtractor(), root)
	if st.Extracted != len(smallPapers) {
		t.Errorf("the next run read %d papers, want all %d", st.Extracted, len(smallPapers))
	}
}

// unavailable is an extractor whose workers cannot start.
type unavailable struct{}

func (unavailable) ExtractFile(context.Context, *os.File) (*pdf.Document, error) {
	return nil, fmt.Errorf("%w: no hello from worker", pdf.ErrUnavailable)
}
