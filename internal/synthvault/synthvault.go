// Package synthvault builds the synthetic 10,000-paper vault the
// benchmarks measure at library scale: paper folders whose PDFs stand for
// the shared corpus's papers (each a few bytes, served by the corpus's
// extracted documents), indexed through the real sync path without
// reading 10,000 PDFs. It is built once per extractor version and kept in
// the temp folder, so that every benchmark of a machine measures the same
// vault.
package synthvault

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
)

// Papers is how many papers the vault holds.
const Papers = 10000

// Ref is the ref of paper i of the vault (0 ≤ i < Papers).
func Ref(i int) string { return fmt.Sprintf("papers/%02d/paper-%05d", i%100, i) }

// Schemas are the index schemas the vault's index is built with: the
// index's own and the reference lists'.
func Schemas() []index.Schema { return []index.Schema{refs.Schema()} }

// Build returns the root of the vault, building it and its index when
// the temp folder does not hold them yet. A missing corpus stops tb.
func Build(tb testing.TB) string {
	tb.Helper()
	root := filepath.Join(os.TempDir(), fmt.Sprintf("agentero-bench-10k-v%d", pdf.ExtractorVersion))
	if _, err := os.Stat(filepath.Join(root, ".agentero", "done")); err == nil {
		// A vault built by an older Agentero: its index is brought up to
		// date as a user's would be (the migrations fill what they add
		// from what the index holds), not built again.
		db, err := index.Open(index.Path(root), index.Options{Schemas: Schemas()})
		if err != nil {
			tb.Fatal(err)
		}
		if err := db.Close(); err != nil {
			tb.Fatal(err)
		}
		return root
	}
	rows := corpustest.Manifest(tb)
	os.RemoveAll(root)
	ex := pdf.NewExtractor(pdf.Options{Workers: 2})
	defer ex.Close()
	var docs []*pdf.Document
	for _, r := range rows {
		doc, err := ex.Extract(context.Background(), filepath.Join(corpustest.Dir(), r["file"]))
		if err != nil {
			tb.Fatal(err)
		}
		docs = append(docs, doc)
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < Papers; i++ {
		dir := filepath.Join(root, filepath.FromSlash(Ref(i)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		// The number in the name picks the document (see Extractor).
		name := fmt.Sprintf("p%d.pdf", rng.Intn(len(docs))+len(docs)*i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("%%PDF-1.4 synthetic %d", i)), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	db, err := index.Open(index.Path(root), index.Options{Schemas: Schemas()})
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	snap, err := vault.Scan(root)
	if err == nil {
		_, err = index.NewIndexer(db, Extractor{docs}, index.SyncOptions{Workers: 2}).Sync(context.Background(), snap)
	}
	if err != nil {
		db.Close()
		tb.Fatal(err)
	}
	papers, pages, _ := db.Counts(context.Background())
	fmt.Printf("built the synthetic vault: %d papers, %d pages in %v\n", papers, pages, time.Since(start).Round(time.Second))
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".agentero", "done"), nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

// Extractor serves documents for stand-in PDFs named p<N>.pdf: document
// N modulo their number, so that an index is built through the real sync
// path without extracting the files.
type Extractor struct{ Docs []*pdf.Document }

// ExtractFile is the document of f's name.
func (e Extractor) ExtractFile(_ context.Context, f *os.File) (*pdf.Document, error) {
	var n int
	fmt.Sscanf(filepath.Base(f.Name()), "p%d.pdf", &n)
	return e.Docs[n%len(e.Docs)], nil
}
