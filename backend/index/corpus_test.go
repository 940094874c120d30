package index_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
)

const corpusDir = "../../../shared/corpus"

// manifestRow is one row of the corpus manifest.
type manifestRow struct {
	File, Title, OwnArxiv, OwnDOI, Layout, TextExtracts string
	Pages                                               int
}

func manifest(t testing.TB) []manifestRow {
	t.Helper()
	var out []manifestRow
	for _, r := range corpustest.Manifest(t) {
		out = append(out, manifestRow{File: r["file"], Title: r["title"], OwnArxiv: r["own_arxiv_id"],
			OwnDOI: r["own_doi_first_page"], Layout: r["layout"], TextExtracts: r["text_extracts"], Pages: r.Int("pages")})
	}
	return out
}

// refOf is the paper ref a corpus file gets in a test vault.
func refOf(file string) string { return corpustest.Ref(file) }

// makeVault lays the corpus files out as a vault in a new temp dir, copied
// so that tests may change them.
func makeVault(t testing.TB, files []string) string {
	t.Helper()
	return corpustest.Vault(t, files...)
}

var (
	extractorOnce sync.Once
	extractor     *pdf.Extractor
)

// sharedExtractor starts one wasm pool for the whole test binary.
func sharedExtractor() *pdf.Extractor {
	extractorOnce.Do(func() { extractor = pdf.NewExtractor(pdf.Options{Workers: 2}) })
	return extractor
}

// countingExtractor counts the PDFs it is asked to read.
type countingExtractor struct {
	mu    sync.Mutex
	paths []string
	inner index.Extractor
}

func (c *countingExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	c.mu.Lock()
	c.paths = append(c.paths, filepath.Base(f.Name()))
	c.mu.Unlock()
	return c.inner.ExtractFile(ctx, f)
}

func (c *countingExtractor) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.paths
	c.paths = nil
	return p
}

// syncVault scans root and syncs it into its index with ex.
func syncVault(t testing.TB, db *index.DB, ex index.Extractor, root string) index.Stats {
	t.Helper()
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	st, err := index.NewIndexer(db, ex, index.SyncOptions{Workers: 2}).Sync(ctx, snap)
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return st
}

func openDB(t testing.TB, root string) *index.DB {
	t.Helper()
	db, err := index.Open(index.Path(root), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var (
	corpusOnce  sync.Once
	corpusRoot  string
	corpusStats index.Stats
	corpusDB    *index.DB
)

// indexedCorpus indexes the whole corpus once per test binary.
func indexedCorpus(t *testing.T) (string, *index.DB, index.Stats) {
	rows := manifest(t)
	corpusOnce.Do(func() {
		var files []string
		for _, r := range rows {
			files = append(files, r.File)
		}
		dir, err := os.MkdirTemp("", "agentero-corpus-")
		if err != nil {
			t.Fatal(err)
		}
		corpusRoot = dir
		corpustest.LayOut(t, dir, files...)
		db, err := index.Open(index.Path(dir), index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		corpusDB = db
		corpusStats = syncVault(t, db, sharedExtractor(), dir)
	})
	if corpusDB == nil {
		t.Fatal("corpus index failed to build")
	}
	return corpusRoot, corpusDB, corpusStats
}

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	code := m.Run()
	if corpusDB != nil {
		corpusDB.Close()
	}
	if corpusRoot != "" {
		os.RemoveAll(corpusRoot)
	}
	if extractor != nil {
		extractor.Close()
	}
	if fuzzDB != nil {
		fuzzDB.Close()
	}
	if fuzzRoot != "" {
		os.RemoveAll(fuzzRoot)
	}
	os.Exit(code)
}
