package pdf

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentero/agentero/internal/scanpdf"
)

// scanOf writes a PDF made only of images of pages of a corpus paper,
// drawn at 150 dpi, gray, as a scanner would: no text layer at all.
func scanOf(t testing.TB, e *Extractor, paper string, pages []int) string {
	t.Helper()
	f, err := os.Open(corpusFile(t, paper))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var scan []scanpdf.Page
	for _, n := range pages {
		im, err := e.Render(t.Context(), f, n, nil, RenderOptions{MaxDPI: 150, Gray: true})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(im.PNG))
		if err != nil {
			t.Fatal(err)
		}
		scan = append(scan, scanpdf.Page{Image: img, Width: im.PageWidth, Height: im.PageHeight})
	}
	data, err := scanpdf.Write(scan)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "scan.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOCR: three pages of a paper made into a scan have no text; OCR reads
// them back, most of each page's words on the right page and where the
// original page drew them; a second reading comes from the cache, and
// Chars of the scan gives the OCR's characters.
func TestOCR(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("tesseract is not installed (scripts/deps.sh installs it)")
	}
	cache := t.TempDir()
	e := newTestExtractor(t, Options{OCRCacheDir: cache})
	orig := []int{5, 6, 8}
	path := scanOf(t, e, "paxos-made-simple.pdf", orig)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := e.ExtractFile(t.Context(), f)
	if err != nil {
		t.Fatal(err)
	}
	for _, pg := range doc.Pages {
		if strings.TrimSpace(pg.Text) != "" {
			t.Fatalf("the scan's page %d has text %q: it should have none", pg.Number, pg.Text)
		}
	}

	src, err := os.Open(corpusFile(t, "paxos-made-simple.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	want, err := e.Chars(t.Context(), src, orig)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.OCR(t.Context(), f, "", []int{1, 2, 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, pc := range got {
		if pc.Number != k+1 || len([]rune(pc.Text)) != len(pc.Boxes) {
			t.Fatalf("page %d: number %d, %d runes and %d boxes", k+1, pc.Number, len([]rune(pc.Text)), len(pc.Boxes))
		}
		found, placed, words := wordsFound(want[k], pc)
		t.Logf("page %d (page %d of the paper): %d of %d words found, %d of them where the paper draws them", k+1, orig[k], found, words, placed)
		if found*10 < words*9 || placed*10 < found*9 {
			t.Errorf("page %d: %d of %d words found, %d placed: OCR should read 90%% of them, 90%% where they are", k+1, found, words, placed)
		}
	}

	// The cache answers now: no tesseract runs (none is on PATH).
	t.Setenv("PATH", "")
	again, err := e.OCR(t.Context(), f, "", []int{3, 1}, nil)
	if err != nil || len(again) != 2 || again[0].Text != got[2].Text || again[1].Text != got[0].Text {
		t.Errorf("pages 3 and 1 again, from the cache: err %v, %d pages", err, len(again))
	}
	if _, err := e.OCR(t.Context(), src, "", []int{1}, nil); err != ErrNoOCR {
		t.Errorf("a page never read, without tesseract: err %v, want ErrNoOCR", err)
	}
	chars, err := e.Chars(t.Context(), f, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if chars[0].Text != got[1].Text {
		t.Errorf("Chars of the scanned page 2 is not its OCR text:\n%.200q\n%.200q", chars[0].Text, got[1].Text)
	}
}

// wordsFound counts the words of five letters or more of a text page that
// OCR read, and of those, the ones whose OCR box overlaps the paper's box
// of the same word.
func wordsFound(want, got PageChars) (found, placed, words int) {
	gotWords := wordBoxes(got)
	for w, boxes := range wordBoxes(want) {
		for _, b := range boxes {
			words++
			g, ok := gotWords[w]
			if !ok {
				continue
			}
			found++
			for _, gb := range g {
				if gb[0] < b[2] && b[0] < gb[2] && gb[1] < b[3] && b[1] < gb[3] {
					placed++
					break
				}
			}
		}
	}
	return found, placed, words
}

// wordBoxes maps each word of five letters or more of a page to its boxes.
func wordBoxes(pc PageChars) map[string][][4]float64 {
	out := map[string][][4]float64{}
	runes := []rune(pc.Text)
	for i := 0; i < len(runes); {
		j := i
		for j < len(runes) && (runes[j] >= 'a' && runes[j] <= 'z' || runes[j] >= 'A' && runes[j] <= 'Z') {
			j++
		}
		if j-i >= 5 {
			out[string(runes[i:j])] = append(out[string(runes[i:j])], union(pc.Boxes[i], pc.Boxes[j-1]))
		}
		i = max(j, i+1)
	}
	return out
}

// BenchmarkOCR reads three scanned pages by OCR with two workers, without
// the cache (drawing at 300 dpi and Tesseract, one thread a page), and, for
// comparison, the same pages of the original paper with pdftotext, one
// process a page, all at once. Both report pages/s, and pages/s per core of
// the two the machine gives them.
func BenchmarkOCR(b *testing.B) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		b.Skip("tesseract is not installed")
	}
	orig := []int{5, 6, 8}
	e := newTestExtractor(b, Options{Workers: benchWorkers, OCRCacheDir: "-"})
	path := scanOf(b, e, "paxos-made-simple.pdf", orig)
	cores := float64(min(benchWorkers, runtime.NumCPU()))
	b.Run("tesseract", func(b *testing.B) {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		before := childrenCPU()
		for b.Loop() {
			if _, err := e.OCR(b.Context(), f, "", []int{1, 2, 3}, nil); err != nil {
				b.Fatal(err)
			}
		}
		rate := float64(len(orig)*b.N) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "pages/s")
		b.ReportMetric(rate/cores, "pages/s/core")
		// The CPU Tesseract spent (the processes it ran, waited for): what
		// a core of its own would do, whatever else the machine runs.
		b.ReportMetric(float64(len(orig)*b.N)/(childrenCPU()-before).Seconds(), "tesseract-pages/cpu-s")
	})
	b.Run("pdftotext", func(b *testing.B) {
		if _, err := exec.LookPath("pdftotext"); err != nil {
			b.Skip("pdftotext not installed")
		}
		src := corpusFile(b, "paxos-made-simple.pdf")
		for b.Loop() {
			var wg sync.WaitGroup
			for _, n := range orig {
				wg.Go(func() {
					p := strconv.Itoa(n)
					cmd := exec.CommandContext(b.Context(), "pdftotext", "-q", "-f", p, "-l", p, src, "-")
					cmd.Stdout = io.Discard
					if err := cmd.Run(); err != nil {
						b.Error(err)
					}
				})
			}
			wg.Wait()
		}
		rate := float64(len(orig)*b.N) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "pages/s")
		b.ReportMetric(rate/cores, "pages/s/core")
	})
}
