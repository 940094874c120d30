package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

var (
	fuzzOnce sync.Once
	fuzzRoot string
	fuzzDB   *index.DB
	fuzzErr  error
)

// fuzzIndex is a small index of synthetic pages, built once per process:
// three papers of three pages, and a text file.
func fuzzIndex(t testing.TB) *index.DB {
	fuzzOnce.Do(func() {
		root, err := os.MkdirTemp("", "agentero-fuzz-")
		if err != nil {
			fuzzErr = err
			return
		}
		fuzzRoot = root
		texts := []string{
			"Raft decomposes consensus into leader election, log replication and safety.",
			"The leader sends heartbeats; a follower that hears none starts an election after a crash.",
			"Paxos Made Simple: the synod algorithm chooses a single value. Naïve Straße ﬁnd x² ½.",
		}
		var docs []*pdf.Document
		for i := range 3 {
			doc := &pdf.Document{}
			for p := range 3 {
				doc.Pages = append(doc.Pages, pdf.Page{Number: p + 1, Text: texts[(i+p)%3]})
			}
			docs = append(docs, doc)
			dir := filepath.Join(root, "papers", fmt.Sprintf("p%d", i))
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.pdf", i)), []byte("%PDF-1.4"), 0o644)
		}
		os.MkdirAll(filepath.Join(root, "notes"), 0o755)
		os.WriteFile(filepath.Join(root, "notes", "n.md"), []byte(texts[1]), 0o644)
		fuzzDB, fuzzErr = index.Open(index.Path(root), index.Options{})
		if fuzzErr != nil {
			return
		}
		snap, err := vault.Scan(root)
		if err != nil {
			fuzzErr = err
			return
		}
		_, fuzzErr = index.NewIndexer(fuzzDB, docsExtractor{docs}, index.SyncOptions{Workers: 1}).Sync(context.Background(), snap)
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzDB
}

// FuzzSearch: whatever is typed, a search returns without an error (no
// query syntax reaches FTS5), within its limits, with balanced marks.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"raft leader", `"log replication" safety`, `NEAR(a b) OR "`, "the of a", "\u0301", "x² ½", "Straße naive", strings.Repeat("leader ", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		db := fuzzIndex(t)
		for _, sc := range []index.Scope{{AllPapers: true}, {Papers: []string{"papers/p1"}, Folders: []string{"notes"}}} {
			res, err := db.Search(context.Background(), index.Query{Text: q, Scope: sc, Limit: 5, PerPaper: 2})
			if err != nil {
				t.Fatalf("Search(%q): %v", q, err)
			}
			if len(res.Hits) > 5 {
				t.Fatalf("Search(%q): %d hits, limit 5", q, len(res.Hits))
			}
			for _, h := range res.Hits {
				if !utf8.ValidString(h.Snippet) && utf8.ValidString(q) || strings.Count(h.Snippet, index.MarkStart) != strings.Count(h.Snippet, index.MarkEnd) {
					t.Fatalf("Search(%q): snippet %q", q, h.Snippet)
				}
			}
		}
	})
}
