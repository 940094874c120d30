package claim_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
)

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	code := m.Run()
	if corpus.root != "" {
		corpus.db.Close()
		os.RemoveAll(corpus.root)
	}
	os.Exit(code)
}

// corpus is the whole shared corpus laid out as a vault and indexed for
// real (PDFium), once per test binary.
var corpus struct {
	once sync.Once
	root string
	db   *index.DB
	err  error
}

// corpusVault returns the indexed corpus vault; a missing corpus stops the
// test (corpustest.Unavailable).
func corpusVault(t testing.TB) (string, *index.DB) {
	t.Helper()
	dir := corpustest.NeedCorpus(t)
	corpus.once.Do(func() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			corpus.err = err
			return
		}
		var files []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".pdf") {
				files = append(files, e.Name())
			}
		}
		root, err := os.MkdirTemp("", "agentero-claim-corpus-")
		if err != nil {
			corpus.err = err
			return
		}
		corpus.root = root
		corpustest.LayOut(t, root, files...)
		corpus.db, corpus.err = indexVault(root)
	})
	if corpus.err != nil {
		t.Fatalf("index the corpus: %v", corpus.err)
	}
	return corpus.root, corpus.db
}

// indexVault indexes the vault at root in its own .agentero/index.sqlite.
func indexVault(root string) (*index.DB, error) {
	db, err := index.Open(index.Path(root), index.Options{})
	if err != nil {
		return nil, err
	}
	snap, err := vault.Scan(root)
	if err != nil {
		db.Close()
		return nil, err
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 2})
	defer ex.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := index.NewIndexer(db, ex, index.SyncOptions{Workers: 2}).Sync(ctx, snap); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// pdfPath is the vault path of a corpus file's PDF.
func pdfPath(file string) string { return filepath.ToSlash(filepath.Join(corpustest.Ref(file), file)) }
