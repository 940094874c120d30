package pdf

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/agentero/agentero/backend/text"
	"github.com/agentero/agentero/internal/corpustest"
)

// corpusDir holds the shared test papers; it is never copied into the repo.
const corpusDir = "../../../shared/corpus"

func TestMain(m *testing.M) {
	ServeWorkerIfRequested()
	// Keep pdfcpu from writing its config.yml into the user config dir.
	api.DisableConfigDir()
	os.Exit(m.Run())
}

// corpusFile returns the path of a corpus paper, skipping the test when the
// corpus is absent.
func corpusFile(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(corpusDir, name)
	if _, err := os.Stat(path); err != nil {
		corpustest.Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
	}
	return path
}

// manifestRow is one paper of corpus/manifest.csv.
type manifestRow struct {
	file   string
	pages  int
	layout string
}

func readManifest(t testing.TB) []manifestRow {
	t.Helper()
	var rows []manifestRow
	for _, r := range corpustest.Manifest(t) {
		pages, err := strconv.Atoi(r["pages"])
		if err != nil {
			t.Fatalf("manifest pages of %s: %v", r["file"], err)
		}
		rows = append(rows, manifestRow{file: r["file"], pages: pages, layout: r["layout"]})
	}
	return rows
}

// newTestExtractor returns an extractor that is closed when the test ends.
// It uses the default on-disk compilation cache, so only the very first run
// on a machine pays for compiling PDFium.
func newTestExtractor(t testing.TB, opts Options) *Extractor {
	t.Helper()
	e := NewExtractor(opts)
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return e
}

// oneLine collapses all white space so phrases match across line breaks.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func TestExtractCorpusPages(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts the whole corpus")
	}
	rows := readManifest(t)
	e := newTestExtractor(t, Options{})
	for _, row := range rows {
		t.Run(row.file, func(t *testing.T) {
			doc, err := e.Extract(t.Context(), filepath.Join(corpusDir, row.file))
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if got := len(doc.Pages); got != row.pages {
				t.Errorf("got %d pages, want %d (manifest)", got, row.pages)
			}
			withText := 0
			for i, p := range doc.Pages {
				if p.Number != i+1 {
					t.Errorf("page %d has Number %d", i+1, p.Number)
				}
				if p.Text != "" {
					withText++
				}
			}
			switch {
			case row.layout == "image-only" && withText != 0:
				t.Errorf("image-only scan: %d pages have text, want 0", withText)
			case row.layout != "image-only" && withText < len(doc.Pages)*9/10:
				t.Errorf("only %d of %d pages have text", withText, len(doc.Pages))
			}
		})
	}
}

func TestExtractImageOnlyScan(t *testing.T) {
	path := corpusFile(t, "1985-Flajolet-Probabilistic-counting.pdf")
	e := newTestExtractor(t, Options{})
	doc, err := e.Extract(t.Context(), path)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	var want []Page
	for i := range 28 {
		want = append(want, Page{Number: i + 1})
	}
	if diff := cmp.Diff(want, doc.Pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
}

func TestExtractPhraseOnPage(t *testing.T) {
	tests := []struct {
		file   string
		phrase string
		page   int
	}{
		{"in-search-of-an-understandable-consensus-algorithm.pdf", "Leader Append-Only: a leader never overwrites or deletes entries in its log", 5},
		{"impossibility-of-consensus-with-one-faulty-process.pdf", "transaction commit problem", 2}, // OCR scan
		// The ﬁ ligature in the PDF must come out as "fi".
		{"implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf", "all messages broadcast by eventually down processes", 5},
		{"1706.03762.pdf", "Maximum path lengths, per-layer complexity and minimum number of sequential operations", 6},
	}
	e := newTestExtractor(t, Options{})
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			doc, err := e.Extract(t.Context(), corpusFile(t, tt.file))
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			var got []int
			for _, p := range doc.Pages {
				if strings.Contains(oneLine(p.Text), tt.phrase) {
					got = append(got, p.Number)
				}
			}
			if diff := cmp.Diff([]int{tt.page}, got); diff != "" {
				t.Errorf("pages holding %q (-want +got):\n%s", tt.phrase, diff)
			}
		})
	}
}

// TestExtractTwoColumnOrder checks that the columns of a two-column page come
// one after the other: sentences that run over many lines of one column are
// whole, and the headings come in reading order.
func TestExtractTwoColumnOrder(t *testing.T) {
	path := corpusFile(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	e := newTestExtractor(t, Options{})
	doc, err := e.Extract(t.Context(), path)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	text := oneLine(doc.Pages[0].Text)
	sentences := []string{
		// Left column, seven lines.
		"Raft is a consensus algorithm for managing a replicated log. It produces a result equivalent to (multi-)Paxos, and it is as efficient as Paxos, but its structure is different from Paxos;",
		// Right column, five lines, two of them hyphenated.
		"Raft is similar in many ways to existing consensus algorithms (most notably, Oki and Liskov’s Viewstamped Replication [28, 21]), but it has several novel features:",
	}
	for _, s := range sentences {
		if !strings.Contains(text, s) {
			t.Errorf("page 1 does not hold the sentence %q", s)
		}
	}
	headings := []string{"Abstract", "1 Introduction", "Raft is similar in many ways", "2 Achieving fault-tolerance with replicated state machines"}
	last := -1
	for _, h := range headings {
		i := strings.Index(text, h)
		if i <= last {
			t.Errorf("%q at %d, want after %d (previous heading)", h, i, last)
		}
		last = i
	}
}

func TestExtractStructure(t *testing.T) {
	e := newTestExtractor(t, Options{})

	t.Run("labels and info", func(t *testing.T) {
		doc, err := e.Extract(t.Context(), corpusFile(t, "implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf"))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		var labels []string
		for _, p := range doc.Pages {
			labels = append(labels, p.Label)
		}
		want := []string{"178", "179", "180", "181", "182", "183", "184", "185", "186", "187", "188", "189"}
		if diff := cmp.Diff(want, labels); diff != "" {
			t.Errorf("labels (-want +got):\n%s", diff)
		}
		if got, want := doc.Info.DOI, "10.1016/j.jcss.2008.10.002"; got != want {
			t.Errorf("DOI = %q, want %q", got, want)
		}
		if got, want := doc.Info.Title, "Implementing the Omega failure detector in the crash-recovery failure model"; got != want {
			t.Errorf("Title = %q, want %q", got, want)
		}
		if got, want := doc.Info.CreationYear, 2009; got != want {
			t.Errorf("CreationYear = %d, want %d", got, want)
		}
	})

	t.Run("no labels", func(t *testing.T) {
		doc, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf"))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		for _, p := range doc.Pages {
			if p.Label != "" {
				t.Errorf("page %d has label %q, want none", p.Number, p.Label)
			}
		}
	})

	t.Run("outline through GoTo actions", func(t *testing.T) {
		doc, err := e.Extract(t.Context(), corpusFile(t, "1706.03762.pdf"))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		want := []Section{
			{Title: "1 Introduction", Level: 1, Page: 1},
			{Title: "2 Background", Level: 1, Page: 2},
			{Title: "3 Model Architecture", Level: 1, Page: 2},
			{Title: "3.1 Encoder and Decoder Stacks", Level: 2, Page: 3},
			{Title: "3.2 Attention", Level: 2, Page: 3},
			{Title: "3.2.1 Scaled Dot-Product Attention", Level: 3, Page: 4},
		}
		if len(doc.Outline) < len(want) {
			t.Fatalf("outline has %d entries, want at least %d", len(doc.Outline), len(want))
		}
		if diff := cmp.Diff(want, doc.Outline[:len(want)]); diff != "" {
			t.Errorf("outline (-want +got):\n%s", diff)
		}
	})

	t.Run("first page lines", func(t *testing.T) {
		tests := []struct{ file, title string }{
			{"1706.03762.pdf", "Attention Is All You Need"}, // the larger arXiv margin stamp is vertical
			{"in-search-of-an-understandable-consensus-algorithm.pdf", "In Search of an Understandable Consensus Algorithm"},
			{"paxos-made-simple.pdf", "Paxos Made Simple"},
		}
		for _, tt := range tests {
			doc, err := e.Extract(t.Context(), corpusFile(t, tt.file))
			if err != nil {
				t.Fatalf("Extract %s: %v", tt.file, err)
			}
			var largest Line
			for _, l := range doc.FirstPageLines {
				if l.Size > largest.Size {
					largest = l
				}
			}
			if largest.Text != tt.title {
				t.Errorf("%s: largest first-page line = %+v, want text %q", tt.file, largest, tt.title)
			}
		}
	})
}

func TestExtractExpandsLigatures(t *testing.T) {
	path := corpusFile(t, "implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf")
	e := newTestExtractor(t, Options{})
	doc, err := e.Extract(t.Context(), path)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	for _, p := range doc.Pages {
		if i := strings.IndexFunc(p.Text, func(r rune) bool { return text.Ligature(r) != "" }); i >= 0 {
			t.Errorf("page %d holds a ligature: %q", p.Number, p.Text[max(0, i-20):min(len(p.Text), i+20)])
		}
	}
	// The PDF spells it with the ﬁ ligature.
	if !strings.Contains(oneLine(doc.Pages[4].Text), "broadcast for the first time") {
		t.Errorf("page 5 does not hold %q", "broadcast for the first time")
	}
}

// TestExtractConcurrent runs more callers than workers and checks that every
// caller gets the same result as a lone caller.
func TestExtractConcurrent(t *testing.T) {
	files := []string{
		corpusFile(t, "paxos-made-simple.pdf"),
		corpusFile(t, "bitcoin.pdf"),
		corpusFile(t, "peercoin.pdf"),
	}
	e := newTestExtractor(t, Options{Workers: 2})
	want := map[string]*Document{}
	for _, f := range files {
		doc, err := e.Extract(t.Context(), f)
		if err != nil {
			t.Fatalf("Extract %s: %v", f, err)
		}
		want[f] = doc
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[string][]*Document{}
	for i := range 6 {
		f := files[i%len(files)]
		wg.Go(func() {
			doc, err := e.Extract(t.Context(), f)
			if err != nil {
				t.Errorf("Extract %s: %v", f, err)
				return
			}
			mu.Lock()
			got[f] = append(got[f], doc)
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, f := range files {
		for _, doc := range got[f] {
			if diff := cmp.Diff(want[f], doc); diff != "" {
				t.Errorf("%s: concurrent result differs (-alone +concurrent):\n%s", filepath.Base(f), diff)
			}
		}
	}
	total := 0
	for _, docs := range got {
		total += len(docs)
	}
	if total != 6 {
		t.Errorf("%d concurrent results, want 6", total)
	}
}
