package index_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/scanpdf"
)

// scanVault lays out a vault of one paper made only of images of pages of
// a corpus paper (150 dpi, gray: a scan without a text layer), and returns
// it with the original pages' text.
func scanVault(t *testing.T, ex *pdf.Extractor, paper string, pages []int) (root string, orig []string) {
	t.Helper()
	src, err := os.Open(filepath.Join(corpusDir, paper))
	if err != nil {
		corpustest.Unavailable(t, "corpus not available: %v", err)
	}
	defer src.Close()
	var scan []scanpdf.Page
	for _, n := range pages {
		im, err := ex.Render(t.Context(), src, n, nil, pdf.RenderOptions{MaxDPI: 150, Gray: true})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(im.PNG))
		if err != nil {
			t.Fatal(err)
		}
		scan = append(scan, scanpdf.Page{Image: img, Width: im.PageWidth, Height: im.PageHeight})
	}
	chars, err := ex.Chars(t.Context(), src, pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range chars {
		orig = append(orig, pc.Text)
	}
	data, err := scanpdf.Write(scan)
	if err != nil {
		t.Fatal(err)
	}
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "papers", "scan"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "papers", "scan", "scan.pdf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, orig
}

// phraseOf is six words of letters only from the middle of a page's text
// on, on one line: words as OCR reads them, not formulas such as P2a.
func phraseOf(text string) string {
	words := strings.Fields(text)
	letters := func(w string) bool {
		for _, r := range w {
			if !unicode.IsLetter(r) {
				return false
			}
		}
		return true
	}
	for i := len(words) / 2; i+6 <= len(words); i++ {
		if ok := !slices.ContainsFunc(words[i:i+6], func(w string) bool { return !letters(w) }); ok {
			return strings.Join(words[i:i+6], " ")
		}
	}
	return ""
}

// TestIndexOCR: a paper made only of images of three pages is read by OCR
// when indexed: a phrase of each page is found on that page, a quote is
// located with boxes where the original page draws it, and the health
// says the text is OCR's. Indexed again into a new index, the pages come
// from the cache, with no Tesseract to run.
func TestIndexOCR(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (scripts/deps.sh installs it)")
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 2, OCRCacheDir: t.TempDir()})
	t.Cleanup(func() { ex.Close() })
	root, orig := scanVault(t, ex, "paxos-made-simple.pdf", []int{5, 6, 8})
	ctx := context.Background()

	index1 := func(dbPath string) *index.DB {
		db, err := index.Open(dbPath, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		snap, err := vault.Scan(root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := index.NewIndexer(db, ex, index.SyncOptions{Workers: 2, OCR: ex}).Sync(ctx, snap); err != nil {
			t.Fatal(err)
		}
		return db
	}
	check := func(db *index.DB) {
		t.Helper()
		p, err := db.Paper(ctx, "papers/scan")
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != index.StatusOK || p.NoTextPages != 0 || !strings.Contains(p.Error, "text from OCR on pages 1–3") {
			t.Errorf("health: status %q, %d pages without text, %q; want ok, text from OCR on pages 1–3", p.Status, p.NoTextPages, p.Error)
		}
		for k, text := range orig {
			phrase := phraseOf(text)
			res, err := db.Search(ctx, index.Query{Text: `"` + phrase + `"`, Scope: index.Scope{AllPapers: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].Ref != "papers/scan" || res.Hits[0].Page != k+1 {
				t.Errorf("%q (page %d): hits %+v, want page %d of the scan first", phrase, k+1, res.Hits, k+1)
			}
		}
	}
	db := index1(filepath.Join(t.TempDir(), "index.sqlite"))
	check(db)

	// The locator's reading: the page's characters with their boxes, and
	// the quote found in them where the original page has it.
	f, err := os.Open(filepath.Join(root, "papers", "scan", "scan.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chars, err := ex.Chars(ctx, f, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	q := phraseOf(orig[1])
	m, ok := quote.NewPaper([]quote.Page{{Number: 2, Text: chars[0].Text}}).Find(2, q)
	if !ok {
		t.Fatalf("the quote %q is not located on page 2 of the scan:\n%s", q, chars[0].Text)
	}
	boxed := 0
	runes := []rune(chars[0].Text)
	for _, s := range m.Spans {
		for i := s.From; i < s.To && i < len(runes); i++ {
			if b := chars[0].Boxes[i]; b[2] > b[0] && b[3] > b[1] && b[2] <= chars[0].Width && b[3] <= chars[0].Height {
				boxed++
			}
		}
	}
	if boxed < len(strings.ReplaceAll(q, " ", ""))*9/10 {
		t.Errorf("the quote %q has %d characters boxed on the page: the viewer could not mark it", q, boxed)
	}

	// A new index of the same vault: OCR comes from the cache.
	t.Setenv("PATH", "")
	check(index1(filepath.Join(t.TempDir(), "index.sqlite")))
}

// TestIndexNoTesseract: without Tesseract a scan stays without text, and
// its health says why in one sentence.
func TestIndexNoTesseract(t *testing.T) {
	ex := pdf.NewExtractor(pdf.Options{Workers: 2, OCRCacheDir: "-"})
	t.Cleanup(func() { ex.Close() })
	root, _ := scanVault(t, ex, "paxos-made-simple.pdf", []int{5})
	t.Setenv("PATH", "")
	db := openDB(t, root)
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.NewIndexer(db, ex, index.SyncOptions{OCR: ex}).Sync(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	p, err := db.Paper(context.Background(), "papers/scan")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != index.StatusNoText || p.Error != pdf.ErrNoOCR.Error() {
		t.Errorf("status %q, health %q; want no-text and %q", p.Status, p.Error, pdf.ErrNoOCR)
	}
}

// TestReOCRWhenInstalled: a scan indexed on a machine without Tesseract
// stays needing OCR, and is not read again while Tesseract is missing;
// once it is installed, the next sync reads it again, by OCR, with the
// OCR reported as its own progress step (page k of n of the paper),
// and the sync after that leaves it be.
func TestReOCRWhenInstalled(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (scripts/deps.sh installs it)")
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 2, OCRCacheDir: t.TempDir()})
	t.Cleanup(func() { ex.Close() })
	root, orig := scanVault(t, ex, "paxos-made-simple.pdf", []int{5, 6})
	db := openDB(t, root)
	ctx := context.Background()
	var mu sync.Mutex
	var steps []index.Progress
	ix := index.NewIndexer(db, ex, index.SyncOptions{Workers: 2, OCR: ex, Progress: func(p index.Progress) {
		mu.Lock()
		defer mu.Unlock()
		steps = append(steps, p)
	}})
	sync1 := func() index.Stats {
		t.Helper()
		mu.Lock()
		steps = nil
		mu.Unlock()
		snap, err := vault.Scan(root)
		if err != nil {
			t.Fatal(err)
		}
		st, err := ix.Sync(ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	paper := func() index.Paper {
		t.Helper()
		p, err := db.Paper(ctx, "papers/scan")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // a PATH without tesseract
	if st := sync1(); st.Extracted != 1 {
		t.Fatalf("first sync read %d papers, want 1", st.Extracted)
	}
	if p := paper(); p.Status != index.StatusNoText || p.Error != pdf.ErrNoOCR.Error() {
		t.Fatalf("without tesseract: status %q, health %q; want no-text, %q", p.Status, p.Error, pdf.ErrNoOCR)
	}
	mu.Lock()
	for _, p := range steps {
		if p.Step != "" {
			t.Errorf("without tesseract, progress reported an OCR step: %+v", p)
		}
	}
	mu.Unlock()
	if st := sync1(); st.Extracted != 0 {
		t.Errorf("still without tesseract, a sync read %d papers again, want 0", st.Extracted)
	}

	t.Setenv("PATH", path)
	if st := sync1(); st.Extracted != 1 {
		t.Fatalf("with tesseract, the sync read %d papers, want the scan again", st.Extracted)
	}
	if p := paper(); p.Status != index.StatusOK || !strings.Contains(p.Error, "text from OCR on pages 1–2") {
		t.Errorf("with tesseract: status %q, health %q; want ok, text from OCR on pages 1–2", p.Status, p.Error)
	}
	phrase := phraseOf(orig[1])
	res, err := db.Search(ctx, index.Query{Text: `"` + phrase + `"`, Scope: index.Scope{AllPapers: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Ref != "papers/scan" || res.Hits[0].Page != 2 {
		t.Errorf("%q: %+v, want page 2 of the scan", phrase, res.Hits)
	}
	mu.Lock()
	var ocr []string
	for _, p := range steps {
		if p.Step == index.StepOCR {
			if p.Current != "papers/scan" || p.Pages != 2 || p.Total != 1 {
				t.Errorf("OCR step %+v, want the scan's 2 pages, of 1 paper", p)
			}
			ocr = append(ocr, fmt.Sprintf("%d/%d", p.Page, p.Pages))
		}
	}
	mu.Unlock()
	if want := []string{"0/2", "1/2", "2/2"}; !slices.Equal(ocr, want) {
		t.Errorf("OCR steps %q, want %q", ocr, want)
	}

	if st := sync1(); st.Extracted != 0 {
		t.Errorf("after OCR, a sync read %d papers again, want 0", st.Extracted)
	}
}

// TestScanMetadata: a paper whose first page is only an image (a scan) has
// its title and first author read from what OCR read of it, as a text
// layer's would be: the title in the largest type, the names under it.
func TestScanMetadata(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (scripts/deps.sh installs it)")
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 2, OCRCacheDir: t.TempDir()})
	t.Cleanup(func() { ex.Close() })
	rows := map[string]citeRow{}
	for _, r := range citeRows(t) {
		rows[r.File] = r
	}
	// a single-column memo, a two-column paper with two authors, a
	// two-column paper with a list of authors under the title
	for _, paper := range []string{"paxos-made-simple.pdf", "chain-replication-for-supporting-high-throughput-and-availability.pdf", "zookeeper-wait-free-coordination-for-internet-scale-systems.pdf"} {
		root, _ := scanVault(t, ex, paper, []int{1})
		db, err := index.Open(filepath.Join(t.TempDir(), "index.sqlite"), index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		snap, err := vault.Scan(root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := index.NewIndexer(db, ex, index.SyncOptions{Workers: 1, OCR: ex}).Sync(t.Context(), snap); err != nil {
			t.Fatal(err)
		}
		p, err := db.Paper(t.Context(), "papers/scan")
		if err != nil {
			t.Fatal(err)
		}
		want := rows[paper]
		first := ""
		if len(p.Authors) > 0 {
			first = p.Authors[0]
		}
		if normTitle(p.Title) != normTitle(want.Title) || !corpustest.SamePerson(first, want.FirstAuthor) {
			t.Errorf("%s scanned: title %q from %s, first author %q; want %q, %q", paper, p.Title, p.TitleSource, first, want.Title, want.FirstAuthor)
		}
	}
}
