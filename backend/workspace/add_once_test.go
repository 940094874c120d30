package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestAddReadsEachPDFOnce: the PDFs an add reads to name their folders are
// not extracted again by the index, and are searchable by their text when
// Add returns; a PDF added again (the same content) is skipped unread.
func TestAddReadsEachPDFOnce(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	dir := t.TempDir()
	files := []string{"bitcoin.pdf", "peercoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf"}
	for _, f := range files {
		corpustest.CopyFile(t, filepath.Join(corpus, f), filepath.Join(dir, f))
	}
	px := pdf.NewExtractor(pdf.Options{Workers: 2, CacheDir: filepath.Join(os.TempDir(), "agentero-bench-wazero")})
	defer px.Close()
	tx := &timedExtractor{ex: px}
	root := t.TempDir()
	f := open(t, root, workspace.Options{PoolSize: -1, Extractor: tx})
	defer f.ws.Close()
	rep, err := f.ws.Add(background(), []string{dir})
	if err != nil || len(rep.Added) != len(files) {
		t.Fatalf("add: %+v, %v", rep, err)
	}
	if n := f.rec.count(events.IntakeProgress); n == 0 {
		t.Fatal("no intake:progress events")
	}
	tx.mu.Lock()
	calls := tx.calls[0] + tx.calls[1]
	tx.mu.Unlock()
	if calls != len(files) {
		t.Errorf("%d extractions for %d PDFs added, want one each", calls, len(files))
	}
	hits, err := f.ws.Search(background(), "randomized election timeouts", 5)
	if err != nil || len(hits) == 0 || !strings.Contains(hits[0].CitationURI, "/paper.pdf#page=") || !strings.Contains(hits[0].Ref, "consensus") {
		t.Fatalf("search after the add: %+v, %v", hits, err)
	}
	papers, err := f.ws.Papers(background())
	if err != nil || len(papers) != len(files) {
		t.Fatalf("papers: %d, %v", len(papers), err)
	}
	for _, p := range papers {
		if p.Pages == 0 || p.Status == index.StatusPending || p.Status == index.StatusError {
			t.Errorf("%s: %d pages, status %q", p.Ref, p.Pages, p.Status)
		}
	}

	// Added again: skipped by its hash, nothing read.
	rep, err = f.ws.Add(background(), []string{filepath.Join(dir, "bitcoin.pdf")})
	if err != nil || len(rep.Skipped) != 1 {
		t.Fatalf("added again: %+v, %v", rep, err)
	}
	tx.mu.Lock()
	again := tx.calls[0] + tx.calls[1]
	tx.mu.Unlock()
	if again != calls {
		t.Errorf("adding a PDF already in the vault made %d extractions", again-calls)
	}
}
