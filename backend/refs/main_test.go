package refs_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
)

const corpusDir = "../../../shared/corpus"

var (
	extractorOnce sync.Once
	extractor     *pdf.Extractor
)

// sharedExtractor starts one extractor for the whole test binary.
func sharedExtractor() *pdf.Extractor {
	extractorOnce.Do(func() { extractor = pdf.NewExtractor(pdf.Options{Workers: 2}) })
	return extractor
}

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	code := m.Run()
	if corpus.root != "" {
		corpus.db.Close()
		os.RemoveAll(corpus.root)
	}
	if extractor != nil {
		extractor.Close()
	}
	os.Exit(code)
}

// refOf is the paper ref a corpus file gets in a test vault.
func refOf(file string) string { return "papers/" + strings.TrimSuffix(file, ".pdf") }

// addPapers copies corpus files into root as paper folders.
func addPapers(t testing.TB, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		src, err := os.Open(filepath.Join(corpusDir, f))
		if err != nil {
			corpustest.Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
		}
		dir := filepath.Join(root, filepath.FromSlash(refOf(f)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(dst, src)
		src.Close()
		if cerr := dst.Close(); err != nil || cerr != nil {
			t.Fatal(err, cerr)
		}
	}
}

// testVault is a vault of corpus papers with an up-to-date index.
type testVault struct {
	root string
	db   *index.DB
}

func newVault(t *testing.T, files ...string) *testVault {
	t.Helper()
	root := t.TempDir()
	addPapers(t, root, files...)
	db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	v := &testVault{root, db}
	v.index(t)
	return v
}

// index brings the index in line with the folder, as the library does.
func (v *testVault) index(t testing.TB) {
	t.Helper()
	snap, err := vault.Scan(v.root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := index.NewIndexer(v.db, sharedExtractor(), index.SyncOptions{Workers: 2}).Sync(ctx, snap); err != nil {
		t.Fatalf("index: %v", err)
	}
}

// sync runs refs.Sync.
func (v *testVault) sync(t testing.TB, opts refs.Options) refs.Stats {
	t.Helper()
	st, err := refs.Sync(context.Background(), v.db, v.root, opts)
	if err != nil {
		t.Fatalf("refs.Sync: %v", err)
	}
	return st
}

func (v *testVault) sidecarPath(ref string) string {
	return filepath.Join(v.root, filepath.FromSlash(ref), filepath.FromSlash(refs.SidecarName))
}

var corpus struct {
	once  sync.Once
	root  string
	db    *index.DB
	stats refs.Stats
}

// corpusVault indexes the whole corpus and syncs its references, once per
// test binary.
func corpusVault(t testing.TB) *testVault {
	t.Helper()
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		corpustest.Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
	}
	corpus.once.Do(func() {
		root, err := os.MkdirTemp("", "agentero-refs-corpus-")
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".pdf") {
				files = append(files, e.Name())
			}
		}
		addPapers(t, root, files...)
		db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
		if err != nil {
			t.Fatal(err)
		}
		corpus.root, corpus.db = root, db
		v := &testVault{root, db}
		v.index(t)
		corpus.stats = v.sync(t, refs.Options{})
	})
	if corpus.db == nil {
		t.Fatal("corpus vault failed to build")
	}
	return &testVault{corpus.root, corpus.db}
}
