package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/internal/corpustest"
)

// location is `agentero locate --json`'s output.
type location struct {
	Page      int          `json:"page"`
	CitedPage int          `json:"citedPage"`
	Rects     [][4]float64 `json:"rects"`
	Text      string       `json:"text"`
	Found     bool         `json:"found"`
	FoundPage int          `json:"foundPage"`
	Next      *struct {
		Page  int          `json:"page"`
		Rects [][4]float64 `json:"rects"`
	} `json:"next"`
	Why string `json:"why"`
}

func locateJSON(t *testing.T, root, uri string) location {
	t.Helper()
	out, errOut, code := run(t, "locate", root, uri, "--json")
	if code != 0 {
		t.Fatalf("locate %s: exit %d: %s", uri, code, errOut)
	}
	var loc location
	if err := json.Unmarshal([]byte(out), &loc); err != nil {
		t.Fatalf("locate %s: %v\n%s", uri, err, out)
	}
	return loc
}

// corpusQuote is a quote made from a corpus page's text, and the page it
// is on.
type corpusQuote struct {
	file, kind string
	page       int
	quote      string
}

// quotesOf makes quotes from a paper's pages as a reader would copy them:
// runs of words from the middle of a line through the next line (so across
// a line end, often a hyphenated one), the end of one line joined to a line
// further down (as a passage read across a column break or a figure), and
// the last words of a page joined to a line of the next.
func quotesOf(file string, pages []pdf.Page) []corpusQuote {
	var out []corpusQuote
	long := func(l string) bool { return len(strings.Fields(l)) >= 8 }
	for i, pg := range pages {
		lines := strings.Split(pg.Text, "\n")
		var body []int
		for k, l := range lines {
			if long(l) {
				body = append(body, k)
			}
		}
		if len(body) < 12 {
			continue
		}
		a, b := body[len(body)/3], body[len(body)/3+1]
		if b == a+1 {
			w := strings.Fields(lines[a])
			out = append(out, corpusQuote{file, "lines", pg.Number, strings.Join(append(w[len(w)/2:], strings.Fields(lines[b])[:4]...), " ")})
		}
		c, d := body[2*len(body)/3], body[2*len(body)/3+3]
		w := strings.Fields(lines[c])
		out = append(out, corpusQuote{file, "jump", pg.Number, strings.Join(append(w[len(w)-4:], strings.Fields(lines[d])[:5]...), " ")})
		if i+1 < len(pages) {
			last := strings.Fields(lines[body[len(body)-1]])
			if body[len(body)-1] == len(lines)-1 || len(lines)-body[len(body)-1] <= 2 {
				for _, l := range strings.Split(pages[i+1].Text, "\n") {
					if long(l) {
						out = append(out, corpusQuote{file, "page break", pg.Number, strings.Join(append(last[len(last)-5:], strings.Fields(l)[:5]...), " ")})
						break
					}
				}
			}
		}
	}
	return out
}

// TestLocateCorpus is the locator's property, through the command line on
// real papers: for a quote found on its page, the words PDFium reads under
// the rectangles `agentero locate` returns are the quote's (and the page's
// words it reports). The words are read back by PDFium's own bounded-text
// reading (FPDFText_GetBoundedText), not by the boxes the rectangles were
// made from.
func TestLocateCorpus(t *testing.T) {
	files := []string{"in-search-of-an-understandable-consensus-algorithm.pdf", "1706.03762.pdf",
		"zookeeper-wait-free-coordination-for-internet-scale-systems.pdf", "impossibility-of-consensus-with-one-faulty-process.pdf",
		"2205.14135.pdf"}
	root := corpustest.Vault(t, files...)
	ex := pdf.NewExtractor(pdf.Options{Workers: 1, PDFium: pdf.NativePDFium()})
	t.Cleanup(func() { ex.Close() })

	var quotes []corpusQuote
	docs := map[string]*pdf.Document{}
	for _, file := range files {
		doc, err := ex.Extract(t.Context(), filepath.Join(corpustest.Dir(), file))
		if err != nil {
			t.Fatal(err)
		}
		docs[file] = doc
		qs := quotesOf(file, doc.Pages)
		// A few of each kind from each paper.
		seen := map[string]int{}
		for _, q := range qs {
			if seen[q.kind] < 3 {
				seen[q.kind]++
				quotes = append(quotes, q)
			}
		}
	}
	if len(quotes) < 30 {
		t.Fatalf("only %d quotes made from the corpus", len(quotes))
	}
	held, kinds := 0, map[string][2]int{}
	for _, q := range quotes {
		ref := corpustest.Ref(q.file)
		uri := citation.New(ref+"/"+q.file, q.page, q.quote).String()
		loc := locateJSON(t, root, uri)
		k := kinds[q.kind]
		k[1]++
		if !loc.Found || loc.Page != q.page || len(loc.Rects) == 0 {
			t.Errorf("%s p.%d %s: %q not found: %s", q.file, q.page, q.kind, q.quote, loc.Why)
			kinds[q.kind] = k
			continue
		}
		under := wordsUnder(t, ex, filepath.Join(root, ref, q.file), loc.Page, loc.Rects)
		if loc.Next != nil {
			under += wordsUnder(t, ex, filepath.Join(root, ref, q.file), loc.Next.Page, loc.Next.Rects)
		}
		if quote.Fold(under) != quote.Fold(q.quote) || quote.Fold(loc.Text) != quote.Fold(q.quote) {
			t.Logf("%s p.%d %s: the rectangles hold %q\n(locate says %q), not the quote %q", q.file, q.page, q.kind, under, loc.Text, q.quote)
		} else {
			held++
			k[0]++
		}
		kinds[q.kind] = k
	}
	for kind, k := range kinds {
		t.Logf("%s: the rectangles hold the quote for %d of %d", kind, k[0], k[1])
	}
	t.Logf("all: %d of %d", held, len(quotes))
	// Scanned pages' text layers (OCR) have boxes that overlap their
	// neighbours', so the reading back may take a letter more.
	if held*100 < len(quotes)*95 {
		t.Errorf("the rectangles hold the quote for %d of %d quotes; want 95 %%", held, len(quotes))
	}
}

// wordsUnder is what PDFium reads inside rects on a page, each rectangle
// narrowed to the middle of its line so that the lines above and below do
// not reach in, and by a point at each end for the letters beside it.
func wordsUnder(t *testing.T, ex *pdf.Extractor, path string, page int, rects [][4]float64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var parts []string
	for _, r := range rects {
		h := r[3] - r[1]
		text, err := ex.RegionFile(t.Context(), f, page, pdf.Rect{X: r[0] + 1, Y: r[1] + h/4, Width: max(r[2]-r[0]-2, 1), Height: h / 2})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}

// TestLocateNotOnThePage: a quote cited on the wrong page is said to be on
// the page that has it, with its rectangles there; one on no page is said
// so; bad URIs are refused in a sentence.
func TestLocateNotOnThePage(t *testing.T) {
	root := corpustest.Vault(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	pdfPath := corpustest.Ref("in-search-of-an-understandable-consensus-algorithm.pdf") + "/in-search-of-an-understandable-consensus-algorithm.pdf"
	q := "election timeouts are chosen randomly from a fixed interval"

	loc := locateJSON(t, root, citation.New(pdfPath, 1, q).String())
	if loc.Found || loc.FoundPage != 6 || loc.Page != 6 || len(loc.Rects) == 0 || quote.Fold(loc.Text) != quote.Fold(q) {
		t.Errorf("cited on page 1: %+v; want not found there, found on page 6 with rectangles", loc)
	}
	if !strings.Contains(loc.Why, "not on page 1") || !strings.Contains(loc.Why, "page 6") {
		t.Errorf("why = %q", loc.Why)
	}

	loc = locateJSON(t, root, citation.New(pdfPath, 6, "election timeouts are chosen randomly from a fixed interval (e.g., 150-350 ms)").String())
	if loc.Found || loc.FoundPage != 0 || len(loc.Rects) != 0 {
		t.Errorf("a changed number: %+v; want found nowhere", loc)
	}

	loc = locateJSON(t, root, citation.New(pdfPath, 6, "").String())
	if loc.Found || len(loc.Rects) != 0 || !strings.Contains(loc.Why, "no quote") {
		t.Errorf("no quote: %+v", loc)
	}

	out, _, code := run(t, "locate", root, citation.New(pdfPath, 1, q).String())
	if code != 0 || !strings.Contains(out, "it is on page 6") {
		t.Errorf("human output (exit %d):\n%s", code, out)
	}

	for _, bad := range []string{
		"papers/none/paper.pdf#page=1&quote=x",
		pdfPath + "#page=99&quote=" + strings.ReplaceAll(q, " ", "+"),
		"../etc/passwd#page=1",
		".agentero/index.sqlite",
		"https://doi.org/10.1/x",
		pdfPath + "#page=1&zoom=2",
	} {
		t.Run(bad, func(t *testing.T) {
			_, errOut, code := run(t, "locate", root, bad, "--json")
			if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || errOut == "" {
				t.Errorf("exit %d, stderr %q; want 1 and one sentence", code, errOut)
			}
		})
	}
	if _, _, code := run(t, "locate", root); code != 2 {
		t.Errorf("locate without a URI: exit %d, want 2", code)
	}
}
