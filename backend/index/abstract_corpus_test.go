package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

// minCorpusAbstracts is the floor of TestCorpusAbstracts: the corpus papers
// that print an abstract whose stored abstract is the printed one (37 of
// 37 when it was written).
const minCorpusAbstracts = 37

// TestCorpusAbstracts checks the abstracts the index stores for the corpus's
// papers, with no metadata.json, against testdata/abstracts.csv: the first
// and last words of each paper's printed abstract, read off its first pages
// (pdftotext -f 1 -l 2), or none for the papers that print none (a note
// says why). A stored abstract must start and end as the printed one does;
// a paper that prints none must have none.
func TestCorpusAbstracts(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	rows, err := corpustest.ReadCSV("testdata/abstracts.csv")
	if err != nil {
		t.Fatal(err)
	}
	printed, right := 0, 0
	for _, r := range rows {
		file, first, last := r["file"], r["first_words"], r["last_words"]
		p, err := db.Paper(context.Background(), refOf(file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if first == "" {
			if p.Abstract != "" {
				t.Errorf("%s prints no abstract (%s), got %q", file, r["note"], p.Abstract)
			}
			continue
		}
		printed++
		got := strings.Fields(p.Abstract)
		want1, want2 := strings.Fields(first), strings.Fields(last)
		if len(got) < max(len(want1), len(want2)) ||
			strings.Join(got[:len(want1)], " ") != first || strings.Join(got[len(got)-len(want2):], " ") != last {
			t.Logf("%s: got %q, want %q … %q", file, p.Abstract, first, last)
			continue
		}
		right++
	}
	t.Logf("abstracts: %d of %d papers that print one", right, printed)
	if right < minCorpusAbstracts {
		t.Errorf("abstracts: %d of %d papers that print one, want at least %d", right, printed, minCorpusAbstracts)
	}
}
