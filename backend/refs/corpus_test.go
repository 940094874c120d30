package refs_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
)

// The corpus's ground truth: cites.csv lists the citations between corpus
// papers, with how each was verified; "known" rows cannot be found in the
// text (a PDF without a usable text layer) and are left out.
func groundTruth(t *testing.T) map[[2]string]string {
	t.Helper()
	out := map[[2]string]string{}
	for _, r := range corpustest.CSV(t, "cites.csv") {
		if r["evidence"] == "known" {
			continue
		}
		out[[2]string{refOf(r["citing_file"]), refOf(r["cited_file"])}] = r["evidence"]
	}
	return out
}

// TestCorpusCitationEdges measures the in-library citations found against
// cites.csv. It fails below precision 0.95 or recall 0.90.
func TestCorpusCitationEdges(t *testing.T) {
	v := corpusVault(t)
	want := groundTruth(t)
	edges, err := refs.CitationEdges(context.Background(), v.db)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]string]string{}
	for _, e := range edges {
		got[[2]string{e.Citing, e.Cited}] = e.MatchBy
	}
	tp := 0
	var extra, missed []string
	for e, by := range got {
		if _, ok := want[e]; ok {
			tp++
		} else {
			extra = append(extra, e[0]+" → "+e[1]+" (by "+by+")")
		}
	}
	for e := range want {
		if _, ok := got[e]; !ok {
			missed = append(missed, e[0]+" → "+e[1])
		}
	}
	sort.Strings(extra)
	sort.Strings(missed)
	precision := float64(tp) / float64(max(len(got), 1))
	recall := float64(tp) / float64(len(want))
	t.Logf("citation edges: precision %.3f (%d of %d found are in cites.csv), recall %.3f (%d of %d in cites.csv found)",
		precision, tp, len(got), recall, tp, len(want))
	for _, e := range extra {
		t.Logf("  found, not in cites.csv: %s", e)
	}
	for _, e := range missed {
		t.Logf("  in cites.csv, not found: %s", e)
	}
	if precision < 0.95 || recall < 0.90 {
		t.Errorf("precision %.3f, recall %.3f: want at least 0.95 and 0.90", precision, recall)
	}
	for _, e := range edges {
		if e.Citing == e.Cited {
			t.Errorf("%s cites itself", e.Citing)
		}
	}
}

// Entries read from the corpus's hard cases: two-column lists, lists
// across pages, OCR text, author-year styles, DOIs and arXiv ids.
func TestCorpusEntries(t *testing.T) {
	v := corpusVault(t)
	ctx := context.Background()
	tests := []struct {
		paper string
		find  string // a words of the entry's title
		want  refs.Citation
	}{
		{"paxos-made-moderately-complex", "Chubby", refs.Citation{ID: "4", Title: "The Chubby Lock Service for loosely-coupled distributed systems",
			Year: 2006, MatchRef: "papers/the-chubby-lock-service-for-loosely-coupled-distributed-systems", MatchBy: "title"}},
		{"paxos-made-moderately-complex", "Revisiting", refs.Citation{ID: "20", Title: "Revisiting the Paxos algorithm", Year: 2000}},
		{"zab-high-performance-broadcast-for-primary-backup-systems", "ZooKeeper", refs.Citation{ID: "1",
			Title: "ZooKeeper: Wait-free coordination for Internet-scale systems", Year: 2010,
			MatchRef: "papers/zookeeper-wait-free-coordination-for-internet-scale-systems", MatchBy: "title"}},
		{"in-search-of-an-understandable-consensus-algorithm", "Zab", refs.Citation{ID: "11",
			Title: "Zab: Highperformance broadcast for primary-backup systems", Year: 2011,
			MatchRef: "papers/zab-high-performance-broadcast-for-primary-backup-systems", MatchBy: "title"}},
		{"consensus-in-presence-of-partial-synchrony", "Impossibility", refs.Citation{ID: "10",
			Title: "Impossibility of distributed consensus with one faulty process", Year: 1985,
			MatchRef: "papers/impossibility-of-consensus-with-one-faulty-process", MatchBy: "title"}},
		{"r-cran-sandwich_sandwich", "Improved Heteroskedasticity", refs.Citation{ID: "3",
			Title: "An Improved Heteroskedasticity and Autocorrelation Consistent Covariance Matrix Estimator", Year: 1992, DOI: "10.2307/2951574"}},
		{"r-cran-sandwich_sandwich-CL", "Neuroscience", refs.Citation{ID: "",
			Year: 2010, DOI: "10.1523/jneurosci.0362-10.2010"}},
		{"2204.02311", "Improving language models by retrieving", refs.Citation{
			Title: "Improving language models by retrieving from trillions of tokens", Year: 2021, ArxivID: "2112.04426",
			MatchRef: "papers/2112.04426", MatchBy: "arxiv"}},
		{"RWKV", "Primer", refs.Citation{Title: "Primer: Searching for efficient transformers for language modeling", Year: 2021,
			ArxivID: "2109.08668", MatchRef: "papers/2109.08668", MatchBy: "arxiv"}},
		{"primecoin", "Bitcoin", refs.Citation{Title: "Bitcoin: A peer-to-peer electronic cash system", Year: 2008,
			MatchRef: "papers/bitcoin", MatchBy: "title"}},
	}
	for _, tt := range tests {
		t.Run(tt.paper+" "+tt.find, func(t *testing.T) {
			l, err := refs.ReadList(ctx, v.db, refOf(tt.paper+".pdf"))
			if err != nil {
				t.Fatal(err)
			}
			var got *refs.Citation
			for i, c := range l.Citations {
				if strings.Contains(c.Raw, tt.find) {
					got = &l.Citations[i]
					break
				}
			}
			if got == nil {
				t.Fatalf("no entry of %s holds %q (of %d)", tt.paper, tt.find, len(l.Citations))
			}
			if tt.want.ID != "" && got.ID != tt.want.ID {
				t.Errorf("id = %q, want %q", got.ID, tt.want.ID)
			}
			if tt.want.Title != "" && got.Title != tt.want.Title {
				t.Errorf("title = %q, want %q", got.Title, tt.want.Title)
			}
			if got.Year != tt.want.Year || got.DOI != tt.want.DOI || got.ArxivID != tt.want.ArxivID ||
				got.MatchRef != tt.want.MatchRef || got.MatchBy != tt.want.MatchBy {
				t.Errorf("entry = year %d doi %q arxiv %q match %q by %q; want year %d doi %q arxiv %q match %q by %q\n%s",
					got.Year, got.DOI, got.ArxivID, got.MatchRef, got.MatchBy,
					tt.want.Year, tt.want.DOI, tt.want.ArxivID, tt.want.MatchRef, tt.want.MatchBy, got.Raw)
			}
		})
	}
}

// Every card keeps SPEC §4's promises: a paperPath only for a library
// paper, never the paper itself, and a citation URI only when it opens.
func TestCorpusRelationCards(t *testing.T) {
	v := corpusVault(t)
	ctx := context.Background()
	papers, err := v.db.Papers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pdfOf := map[string]string{}
	for _, p := range papers {
		pdfOf[p.Ref] = p.PDFPath
	}
	for _, p := range papers {
		for _, kind := range refs.Kinds {
			cards, err := refs.Relations(ctx, v.db, p.Ref, kind, refs.MaxLimit)
			if err != nil {
				t.Fatalf("%s %s: %v", p.Ref, kind, err)
			}
			for _, c := range cards {
				switch {
				case c.PaperPath == p.Ref:
					t.Errorf("%s %s: a card for the paper itself: %+v", p.Ref, kind, c)
				case c.PaperPath != "":
					if c.CitationURI != pdfOf[c.PaperPath] || c.MatchBy == "" {
						t.Errorf("%s %s: library card %+v, want citationUri %q and a matchBy", p.Ref, kind, c, pdfOf[c.PaperPath])
					}
				case c.DOI != "":
					if c.CitationURI != ident.DOIURL(c.DOI) {
						t.Errorf("%s %s: DOI card %+v", p.Ref, kind, c)
					}
				case c.ArxivID != "":
					if c.CitationURI != "https://arxiv.org/abs/"+c.ArxivID {
						t.Errorf("%s %s: arXiv card %+v", p.Ref, kind, c)
					}
				default:
					if c.CitationURI != "" || kind != refs.References {
						t.Errorf("%s %s: card %+v has nothing to open, want no citationUri", p.Ref, kind, c)
					}
				}
			}
		}
	}
	if _, err := refs.Relations(ctx, v.db, "papers/nope", refs.References, 5); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("relations of a missing paper: %v, want ErrNotFound", err)
	}
}

func TestCorpusRelations(t *testing.T) {
	v := corpusVault(t)
	ctx := context.Background()
	paths := func(cards []refs.Card) []string {
		var out []string
		for _, c := range cards {
			out = append(out, c.PaperPath)
		}
		return out
	}
	has := func(cards []refs.Card, ref string) bool {
		for _, c := range cards {
			if c.PaperPath == ref {
				return true
			}
		}
		return false
	}

	citedBy, err := refs.Relations(ctx, v.db, "papers/paxos-made-simple", refs.CitedBy, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"papers/in-search-of-an-understandable-consensus-algorithm", "papers/paxos-made-moderately-complex",
		"papers/the-chubby-lock-service-for-loosely-coupled-distributed-systems"} {
		if !has(citedBy, ref) {
			t.Errorf("paxos-made-simple cited by %v, want %s among them", paths(citedBy), ref)
		}
	}

	references, err := refs.Relations(ctx, v.db, "papers/2205.01068", refs.References, 200)
	if err != nil {
		t.Fatal(err)
	}
	if len(references) < 50 || references[0].PaperPath == "" {
		t.Errorf("OPT references: %d cards, library papers first; got %+v", len(references), references[:min(3, len(references))])
	}

	// Related: the papers of the same cluster, the paper itself excluded.
	for paper, want := range map[string][]string{
		"papers/r-cran-sandwich_sandwich": {"papers/r-cran-sandwich_sandwich-OOP", "papers/r-cran-sandwich_sandwich-CL"},
		"papers/paxos-made-simple":        {"papers/paxos-made-moderately-complex", "papers/in-search-of-an-understandable-consensus-algorithm"},
		"papers/1706.03762":               {"papers/2205.01068"},
		"papers/primecoin":                {"papers/bitcoin", "papers/peercoin"},
	} {
		related, err := refs.Relations(ctx, v.db, paper, refs.Related, 6)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range want {
			if !has(related, ref) {
				t.Errorf("related to %s: %v, want %s among the first 6", paper, paths(related), ref)
			}
		}
	}
}

// BenchmarkRelations measures one query of each kind, as the MCP server and
// the side panel make them.
func BenchmarkRelations(b *testing.B) {
	v := corpusVault(b)
	ctx := context.Background()
	for _, kind := range refs.Kinds {
		b.Run(string(kind), func(b *testing.B) {
			for b.Loop() {
				if _, err := refs.Relations(ctx, v.db, "papers/2204.02311", kind, refs.DefaultLimit); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSyncUnchanged measures a sync with nothing to read again: the
// cost every index sync adds.
func BenchmarkSyncUnchanged(b *testing.B) {
	v := corpusVault(b)
	for b.Loop() {
		v.sync(b, refs.Options{})
	}
}
