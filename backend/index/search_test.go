package index_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
)

// searchModes runs a test with each way Search ranks: every matching page
// (the corpus is a small library), and paper first (as at 10,000 papers).
func searchModes(t *testing.T, test func(t *testing.T)) {
	t.Run("all pages", test)
	t.Run("paper first", func(t *testing.T) {
		index.SetRankAll(t, 1)
		test(t)
	})
}

// librarySearch is the library's search box: the whole library, limit hits.
func librarySearch(db *index.DB, query string, limit int) ([]index.Hit, error) {
	res, err := db.Search(context.Background(), index.Query{Text: query, Scope: index.Scope{AllPapers: true}, Limit: limit})
	return res.Hits, err
}

func TestSearchFindsKnownPage(t *testing.T) {
	searchModes(t, testSearchFindsKnownPage)
}

func testSearchFindsKnownPage(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	// Each phrase is on one known page of one paper (checked with pdftotext).
	tests := []struct {
		query string
		ref   string
		page  int
	}{
		{"arbitrarily sophisticated reconfiguration algorithm", refOf("paxos-made-simple.pdf"), 14},
		{"Terms act as a logical clock in Raft", refOf("in-search-of-an-understandable-consensus-algorithm.pdf"), 5},
		{"informs a lock holder if another client has requested a conflicting lock", refOf("the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf"), 7},
		{"stale leaders", refOf("in-search-of-an-understandable-consensus-algorithm.pdf"), 5},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := librarySearch(db, tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			got := hits[0]
			if got.Ref != tt.ref || got.Page != tt.page {
				t.Errorf("first hit = %s p.%d, want %s p.%d", got.Ref, got.Page, tt.ref, tt.page)
			}
			if !strings.HasPrefix(got.CitationURI, tt.ref+"/") || !strings.HasSuffix(got.CitationURI, "#page="+strconv.Itoa(tt.page)) {
				t.Errorf("citationUri = %q", got.CitationURI)
			}
			if !strings.Contains(got.Snippet, index.MarkStart) {
				t.Errorf("snippet has no marked term: %q", got.Snippet)
			}
		})
	}
}

func TestSearchCapsHitsPerPaper(t *testing.T) {
	searchModes(t, testSearchCapsHitsPerPaper)
}

func testSearchCapsHitsPerPaper(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	hits, err := librarySearch(db, "consensus", 30)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, h := range hits {
		per[h.Ref]++
		if per[h.Ref] > index.MaxHitsPerPaper {
			t.Fatalf("%s has more than %d hits", h.Ref, index.MaxHitsPerPaper)
		}
	}
	if len(per) < 5 {
		t.Errorf("only %d papers for a common word: %v", len(per), per)
	}
}

func TestSearchHostileQueries(t *testing.T) {
	searchModes(t, testSearchHostileQueries)
}

func testSearchHostileQueries(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	for _, q := range []string{`"`, `AND OR NOT`, `col:value`, `a* NEAR(b c)`, `'; DROP TABLE papers; --`, `""""`, "\x00", strings.Repeat("x ", 500)} {
		if _, err := librarySearch(db, q, 5); err != nil {
			t.Errorf("Search(%q) = %v, want no error", q, err)
		}
	}
}

// TestPaperTextFollowsTheVault checks papers_fts, the paper-level index
// that broad queries are ranked with: an index that predates it (migration
// 003 leaves every paper to fill) is searched page by page until the next
// sync fills it, and a paper that leaves the vault leaves it too.
func TestPaperTextFollowsTheVault(t *testing.T) {
	raft := "in-search-of-an-understandable-consensus-algorithm.pdf"
	chubby := "the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf"
	root := makeVault(t, []string{raft, chubby, "paxos-made-simple.pdf"})
	db := openDB(t, root)
	syncVault(t, db, sharedExtractor(), root)
	ctx := context.Background()
	index.SetRankAll(t, 1)

	rows := func() int {
		t.Helper()
		n, err := db.PaperTextRows(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := func(query string) string {
		t.Helper()
		hits, err := librarySearch(db, query, 5)
		if err != nil {
			t.Fatalf("Search(%q): %v", query, err)
		}
		if len(hits) == 0 {
			return ""
		}
		return hits[0].Ref + "#" + strconv.Itoa(hits[0].Page)
	}
	const lockQuery = "informs a lock holder if another client has requested a conflicting lock"
	wantLock := refOf(chubby) + "#7"
	if got := rows(); got != 3 {
		t.Fatalf("papers_fts has %d rows after the first sync, want 3", got)
	}
	if got := first(lockQuery); got != wantLock {
		t.Fatalf("first hit %q, want %q", got, wantLock)
	}

	if err := db.ForgetPaperText(ctx); err != nil {
		t.Fatal(err)
	}
	if got := first(lockQuery); got != wantLock {
		t.Errorf("before papers_fts is filled: first hit %q, want %q", got, wantLock)
	}
	syncVault(t, db, sharedExtractor(), root)
	if got := rows(); got != 3 {
		t.Errorf("papers_fts has %d rows after the sync that fills it, want 3", got)
	}
	if got := first(lockQuery); got != wantLock {
		t.Errorf("after papers_fts is filled: first hit %q, want %q", got, wantLock)
	}

	if err := os.RemoveAll(filepath.Join(root, "papers", strings.TrimPrefix(refOf(chubby), "papers/"))); err != nil {
		t.Fatal(err)
	}
	syncVault(t, db, sharedExtractor(), root)
	if got := rows(); got != 2 {
		t.Errorf("papers_fts has %d rows after a paper left, want 2", got)
	}
	if got := first(lockQuery); strings.HasPrefix(got, refOf(chubby)) {
		t.Errorf("a paper that left the vault is still found: %q", got)
	}
	if got, want := first("Terms act as a logical clock in Raft"), refOf(raft)+"#5"; got != want {
		t.Errorf("first hit %q, want %q", got, want)
	}
}
