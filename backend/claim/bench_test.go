package claim_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/internal/proctest"
	"github.com/agentero/agentero/internal/synthvault"
)

// BenchmarkCheck20At10k checks an answer of 20 citations of 20 papers of
// a 10,000-paper vault — 10 quotes, 6 claims in the answer's own words, 4
// of them a page off; then 20 claims and no quote, which make every cited
// paper's pages be read for their words — and beside it, in the same
// process, the cost a turn already pays: one search of the whole library
// for the question. It prints both, wall clock and CPU time, p50 and p95.
func BenchmarkCheck20At10k(b *testing.B) {
	root, db := synthetic10k(b)
	b.Run("quotes-and-claims", func(b *testing.B) { benchCheck(b, root, db, answerOf20(b, db, 10)) })
	b.Run("claims-only", func(b *testing.B) { benchCheck(b, root, db, answerOf20(b, db, 0)) })
}

func benchCheck(b *testing.B, root string, db *index.DB, answer string) {
	ctx := context.Background()
	opts := claim.Options{Vault: root}
	if checks, err := claim.Check(ctx, answer, db, opts); err != nil || len(checks) != 20 {
		b.Fatalf("%d checks, %v:\n%s", len(checks), err, answer)
	}
	question := "how do replicas agree on a leader after a crash"
	var check, search, checkCPU, searchCPU []time.Duration
	timed := func(f func() error) (time.Duration, time.Duration) {
		c0, _ := proctest.CPUTime()
		start := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start)
		c1, _ := proctest.CPUTime()
		return wall, c1 - c0
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for range 5 {
			w, c := timed(func() error { _, err := claim.Check(ctx, answer, db, opts); return err })
			check, checkCPU = append(check, w), append(checkCPU, c)
			w, c = timed(func() error {
				_, err := db.Search(ctx, index.Query{Text: question, Scope: index.Scope{AllPapers: true}, Limit: 10})
				return err
			})
			search, searchCPU = append(search, w), append(searchCPU, c)
		}
	}
	b.StopTimer()
	p := func(ds []time.Duration, q int) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)*q/100].Round(100 * time.Microsecond)
	}
	b.ReportMetric(float64(p(check, 50).Microseconds())/1000, "check-p50-ms")
	b.ReportMetric(float64(p(search, 50).Microseconds())/1000, "search-p50-ms")
	papers, pages, _ := db.Counts(ctx)
	fmt.Printf("%s: claim check of 20 citations at %d papers / %d pages: p50 %v p95 %v (CPU p50 %v) | one library search: p50 %v p95 %v (CPU p50 %v) — %d runs each\n",
		b.Name(), papers, pages, p(check, 50), p(check, 95), p(checkCPU, 50), p(search, 50), p(search, 95), p(searchCPU, 50), len(check))
}

// answerOf20 writes an answer that cites 20 papers of the vault once
// each: a sentence of one of its pages quoted (the first quotes), or
// written as a claim, the last 4 cited a page off.
func answerOf20(b *testing.B, db *index.DB, quotes int) string {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(20))
	var out strings.Builder
	for n := 0; n < 20; {
		ref := synthvault.Ref(rng.Intn(synthvault.Papers))
		p, err := db.Paper(ctx, ref)
		if err != nil || p.Pages < 3 {
			continue
		}
		page := 2 + rng.Intn(p.Pages-2)
		pages, err := db.Pages(ctx, ref, page, page)
		if err != nil || len(pages) != 1 {
			continue
		}
		sents := sentencesOf(pages[0].Text)
		if len(sents) == 0 {
			continue
		}
		s := sents[rng.Intn(len(sents))]
		switch {
		case n < quotes:
			fmt.Fprintf(&out, "%d. “%s” [%s]\n\n", n+1, s, citation.New(p.PDFPath, page, "").String())
		case n < 16:
			fmt.Fprintf(&out, "%d. %s [%s]\n\n", n+1, strings.TrimSuffix(s, "."), citation.New(p.PDFPath, page, "").String())
		default:
			fmt.Fprintf(&out, "%d. %s [%s]\n\n", n+1, strings.TrimSuffix(s, "."), citation.New(p.PDFPath, page-1, "").String())
		}
		n++
	}
	return out.String()
}

// synthetic10k opens the index of the synthetic 10,000-paper vault
// (package synthvault), built on first use.
func synthetic10k(b *testing.B) (string, *index.DB) {
	b.Helper()
	root := synthvault.Build(b)
	db, err := index.Open(index.Path(root), index.Options{ReadOnly: true, Schemas: synthvault.Schemas()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return root, db
}
