package index_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/text"
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
	for _, q := range []string{`"`, `AND OR NOT`, `col:value`, `a* NEAR(b c)`, `'; DROP TABLE papers; --`, `""""`, "\x00", strings.Repeat("x ", 500),
		"\u0301", "a \u0301 b", `"\u0301 \u0301" raft`, "x² ½ ⅷ", "\uE000 private", "Ǆ ǅ ǆ", "🙂 raft"} {
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

// TestSearchFindsAPaperByName: a query that names a paper (its title or
// its author) finds that paper's pages among the first hits, even when
// other papers use the word more often ("paxos" is on more pages of Raft
// and of Paxos Made Moderately Complex than of Paxos Made Simple).
func TestSearchFindsAPaperByName(t *testing.T) {
	searchModes(t, testSearchFindsAPaperByName)
}

func testSearchFindsAPaperByName(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	tests := []struct {
		query string
		ref   string
		first int // the paper must have a hit among the first this many
	}{
		{"paxos", refOf("paxos-made-simple.pdf"), 8},
		{"paxos made simple", refOf("paxos-made-simple.pdf"), 3},
		{"lamport", refOf("paxos-made-simple.pdf"), 3},
		{"chubby", refOf("the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf"), 1},
		{"zab", refOf("zab-high-performance-broadcast-for-primary-backup-systems.pdf"), 1},
		{"Ongaro raft", refOf("in-search-of-an-understandable-consensus-algorithm.pdf"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := librarySearch(db, tt.query, 8)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits[:min(tt.first, len(hits))] {
				if h.Ref == tt.ref {
					return
				}
			}
			t.Errorf("no hit of %s among the first %d: %v", tt.ref, tt.first, where(hits))
		})
	}
}

// TestSearchFindsPlainQuestions: questions typed in plain words find the
// pages that hold most of their words, though no page holds every one
// (the library search before the one query path found nothing for seven
// of these eight). What each must find was read in the papers' text: the
// Omega paper's page 3 on the leader after a crash, Bitcoin's page 2 on
// double-spending a coin, ResNet's abstract on deeper networks' training
// error, and so on.
func TestSearchFindsPlainQuestions(t *testing.T) {
	searchModes(t, testSearchFindsPlainQuestions)
}

func testSearchFindsPlainQuestions(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	consensus := []string{"implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf",
		"in-search-of-an-understandable-consensus-algorithm.pdf", "paxos-made-simple.pdf", "paxos-made-moderately-complex.pdf",
		"zab-high-performance-broadcast-for-primary-backup-systems.pdf", "zookeeper-wait-free-coordination-for-internet-scale-systems.pdf"}
	econometrics := []string{"r-cran-sandwich_sandwich.pdf", "r-cran-sandwich_sandwich-CL.pdf", "r-cran-sandwich_sandwich-OOP.pdf", "r-cran-lmtest_lmtest-intro.pdf"}
	tests := []struct {
		question string
		papers   []string // the first hit is a page of one of these
	}{
		{"how do nodes agree on a leader after a crash", consensus},
		{"what stops someone from spending the same coin twice", []string{"bitcoin.pdf", "peercoin.pdf"}},
		{"why does a deeper network get a higher training error", []string{"resnet.pdf"}},
		{"how can the attention model look at every position of the sequence", []string{"1706.03762.pdf"}},
		{"how are standard errors corrected when the variance of the errors is not constant", econometrics},
		{"what does a client do when the lock holder fails", []string{"the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf"}},
		{"how is the log kept the same on every server", []string{"in-search-of-an-understandable-consensus-algorithm.pdf", "zookeeper-wait-free-coordination-for-internet-scale-systems.pdf"}},
		{"how much memory does training a model with a trillion parameters need", []string{"1910.02054.pdf"}},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			hits, err := librarySearch(db, tt.question, 8)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			first := hits[0]
			if !slices.ContainsFunc(tt.papers, func(f string) bool { return refOf(f) == first.Ref }) {
				t.Errorf("first hit %s#%d, want a page of %v; hits %v", first.Ref, first.Page, tt.papers, where(hits))
			}
			pages, err := db.Pages(ctx, first.Ref, first.Page, first.Page)
			if err != nil || len(pages) != 1 {
				t.Fatalf("page of the first hit: %v %v", err, pages)
			}
			var held []string
			for _, w := range contentWords(tt.question) {
				if holds(pages[0].Text, w) {
					held = append(held, w)
				}
			}
			if len(held) < 2 {
				t.Errorf("first hit %s#%d holds %v of the question's words, want two or more", first.Ref, first.Page, held)
			}
		})
	}
}

// contentWords are the words of a query that are not stop words.
func contentWords(q string) []string {
	var out []string
	for _, w := range text.Words(q) {
		if !text.Stop(w) {
			out = append(out, w)
		}
	}
	return out
}

// holds reports whether a page's text holds a word or a word of its stem
// (its first letters: "deeper" for "deep", "nodes" for "node").
func holds(page, word string) bool {
	stem := word[:min(len(word), max(4, len(word)-2))]
	for _, w := range text.Words(page) {
		if strings.HasPrefix(w, stem) || strings.HasPrefix(word, w) && len(w) >= 4 {
			return true
		}
	}
	return false
}

func where(hits []index.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Ref+"#"+strconv.Itoa(h.Page))
	}
	return out
}

// TestSearchQueryForms: quoted phrases match exactly, queries of stop words
// alone still find pages, a repeated word counts once, and a long pasted
// passage finds the page it was copied from.
func TestSearchQueryForms(t *testing.T) {
	searchModes(t, testSearchQueryForms)
}

func testSearchQueryForms(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	ctx := context.Background()
	t.Run("a quoted phrase matches as written", func(t *testing.T) {
		hits, err := librarySearch(db, `"log replication"`, 20)
		if err != nil || len(hits) == 0 {
			t.Fatalf("%v %v", err, hits)
		}
		for _, h := range hits {
			pages, err := db.Pages(ctx, h.Ref, h.Page, h.Page)
			if err != nil || len(pages) != 1 || !strings.Contains(strings.Join(text.Words(pages[0].Text), " "), "log replication") {
				t.Errorf("%s#%d does not hold the phrase", h.Ref, h.Page)
			}
		}
	})
	t.Run("stop words alone", func(t *testing.T) {
		for _, q := range []string{"the", "of the", "what is it"} {
			if hits, err := librarySearch(db, q, 5); err != nil || len(hits) == 0 {
				t.Errorf("%q: %v, %d hits", q, err, len(hits))
			}
		}
	})
	t.Run("a repeated word counts once", func(t *testing.T) {
		once, err := librarySearch(db, "leader election", 10)
		if err != nil {
			t.Fatal(err)
		}
		again, err := librarySearch(db, "Leader leader election ELECTION leader", 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(where(once), where(again)); diff != "" {
			t.Errorf("repeated words change the hits (-once +repeated):\n%s", diff)
		}
	})
	t.Run("a pasted page finds itself", func(t *testing.T) {
		ref := refOf("in-search-of-an-understandable-consensus-algorithm.pdf")
		pages, err := db.Pages(ctx, ref, 6, 6)
		if err != nil || len(pages) != 1 {
			t.Fatal(err)
		}
		words := strings.Fields(pages[0].Text)
		if len(words) < 500 {
			t.Fatalf("page 6 has %d words, want 500 or more", len(words))
		}
		hits, err := librarySearch(db, strings.Join(words[:500], " "), 5)
		if err != nil || len(hits) == 0 || hits[0].Ref != ref || hits[0].Page != 6 {
			t.Errorf("500 words of %s#6 found %v, %v", ref, where(hits), err)
		}
	})
}

// TestSearchPaging follows Next through every hit of a query: no hit
// twice, the per-paper cap in every result, and every page that holds a
// word of the query in the end (a query of two words pages from the pages
// that hold both to those that hold one).
func TestSearchPaging(t *testing.T) {
	t.Run("all pages", func(t *testing.T) { testSearchPaging(t, false) })
	t.Run("paper first", func(t *testing.T) {
		index.SetRankAll(t, 1)
		testSearchPaging(t, true)
	})
	_, db, _ := indexedCorpus(t)
	for _, mode := range []string{"all pages", "paper first"} {
		t.Run("two words, "+mode, func(t *testing.T) {
			if mode == "paper first" {
				index.SetRankAll(t, 1)
			}
			q := index.Query{Text: "heartbeat quorum", Scope: index.Scope{AllPapers: true}}
			all, err := db.Search(context.Background(), index.Query{Text: q.Text, Scope: q.Scope, Limit: index.MaxLimit, PerPaper: 1000})
			if err != nil || all.Next != 0 || len(all.Hits) < 40 {
				t.Fatalf("one call: %d hits, next %d, %v: want every hit at once, 40 or more", len(all.Hits), all.Next, err)
			}
			q.Limit, q.PerPaper = 3, 1
			var paged []string
			for calls := 0; ; calls++ {
				res, err := db.Search(context.Background(), q)
				if err != nil || calls > 100 {
					t.Fatalf("call %d: %v", calls, err)
				}
				paged = append(paged, where(res.Hits)...)
				if res.Next == 0 {
					break
				}
				q.Offset = res.Next
			}
			want := where(all.Hits)
			slices.Sort(want)
			slices.Sort(paged)
			if diff := cmp.Diff(want, paged); diff != "" {
				t.Errorf("paged hits (-one call +paged):\n%s", diff)
			}
		})
	}
}

// testSearchPaging pages through a query; paper first, the first call has
// ranked only the best papers, so its Found counts the hits found so far.
func testSearchPaging(t *testing.T, paperFirst bool) {
	_, db, _ := indexedCorpus(t)
	q := index.Query{Text: "consensus", Scope: index.Scope{AllPapers: true}, Limit: 7, PerPaper: 2}
	seen := map[string]bool{}
	found := -1
	for calls := 0; ; calls++ {
		res, err := db.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 {
			found = res.Found
		}
		per := map[string]int{}
		for i, h := range res.Hits {
			k := h.Ref + "#" + strconv.Itoa(h.Page)
			if seen[k] {
				t.Errorf("call %d: %s again", calls, k)
			}
			seen[k] = true
			if per[h.Ref]++; per[h.Ref] > q.PerPaper {
				t.Errorf("call %d: more than %d hits of %s", calls, q.PerPaper, h.Ref)
			}
			if h.Rank != q.Offset+i {
				t.Errorf("call %d: hit %d has rank %d, want %d", calls, i, h.Rank, q.Offset+i)
			}
		}
		if len(res.Hits) > q.Limit {
			t.Errorf("call %d: %d hits, limit %d", calls, len(res.Hits), q.Limit)
		}
		if res.Next == 0 {
			break
		}
		if calls > 200 || res.Next <= q.Offset {
			t.Fatalf("paging does not end: next %d after offset %d", res.Next, q.Offset)
		}
		q.Offset = res.Next
	}
	if len(seen) < 100 || len(seen) < found || !paperFirst && len(seen) != found {
		t.Errorf("paged through %d hits; the first call found %d (want over 100, and all of them when every page of a one-word query is ranked)", len(seen), found)
	}
}

// TestSearchEveryPaperIsTheLibrary: a scope that lists every paper (a
// grant of the whole vault) ranks as the whole library does, page for
// page, whichever way the library is ranked.
func TestSearchEveryPaperIsTheLibrary(t *testing.T) {
	searchModes(t, testSearchEveryPaperIsTheLibrary)
}

func testSearchEveryPaperIsTheLibrary(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	ctx := context.Background()
	papers, err := db.Papers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, p := range papers {
		refs = append(refs, p.Ref)
	}
	for _, q := range []string{"paxos", "leader election", "how do nodes agree on a leader after a crash", `"log replication"`, "the"} {
		for _, offset := range []int{0, 8} {
			lib, err := db.Search(ctx, index.Query{Text: q, Scope: index.Scope{AllPapers: true}, Limit: 8, Offset: offset})
			if err != nil {
				t.Fatal(err)
			}
			listed, err := db.Search(ctx, index.Query{Text: q, Scope: index.Scope{Papers: refs}, Limit: 8, Offset: offset})
			if err != nil {
				t.Fatal(err)
			}
			if offset == 0 && len(lib.Hits) == 0 {
				t.Errorf("%q: no hits", q)
			}
			if diff := cmp.Diff(where(lib.Hits), where(listed.Hits)); diff != "" {
				t.Errorf("%q from %d (-library +every paper listed):\n%s", q, offset, diff)
			}
		}
	}
}
