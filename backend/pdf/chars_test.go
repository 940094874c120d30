package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode"
)

// TestCharsCorpus: for every page of the corpus, Chars gives the text a
// whole reading gives (so that a quote found in the index's text is found
// in the text the boxes belong to), and a box on the page for nearly every
// character that is not white space: with the native PDFium, and with
// WebAssembly for a few files.
func TestCharsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole corpus")
	}
	rows := readManifest(t)
	for _, mode := range []string{"native", "wasm"} {
		opts := Options{Workers: 1, OCRCacheDir: "-"} // the pages' own text, not what OCR read of a scan
		if mode == "wasm" {
			opts.PDFium = "-"
		} else if NativePDFium() == "" {
			t.Log("no native PDFium here: the native reading is not tested")
			continue
		}
		e := newTestExtractor(t, opts)
		var pages, same, letters, boxed int
		for i, row := range rows {
			if mode == "wasm" && i%10 != 0 {
				continue
			}
			t.Run(mode+"/"+row.file, func(t *testing.T) {
				f, err := os.Open(filepath.Join(corpusDir, row.file))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				whole, err := e.ExtractFile(t.Context(), f)
				if err != nil {
					t.Fatal(err)
				}
				for from := 1; from <= len(whole.Pages); from += maxCharsPages {
					var want []int
					for n := from; n < from+maxCharsPages && n <= len(whole.Pages); n++ {
						want = append(want, n)
					}
					got, err := e.Chars(t.Context(), f, want)
					if err != nil {
						t.Fatal(err)
					}
					for k, pc := range got {
						pg := whole.Pages[want[k]-1]
						pages++
						if pc.Number != pg.Number {
							t.Fatalf("Chars gave page %d for %d", pc.Number, pg.Number)
						}
						if pc.Text == pg.Text {
							same++
						} else {
							t.Logf("page %d: the boxes' text differs from the page's:\nchars %.120q\npage  %.120q", pg.Number, pc.Text, pg.Text)
						}
						if n := len([]rune(pc.Text)); len(pc.Boxes) != n {
							t.Fatalf("page %d: %d boxes for %d runes", pg.Number, len(pc.Boxes), n)
						}
						k := 0
						for _, r := range pc.Text {
							b := pc.Boxes[k]
							k++
							if unicode.IsSpace(r) {
								continue
							}
							letters++
							if b == ([4]float64{}) {
								continue
							}
							boxed++
							const slack = 36 // points: glyphs may hang over the edge
							if b[0] > b[2] || b[1] > b[3] || b[0] < -slack || b[1] < -slack || b[2] > pc.Width+slack || b[3] > pc.Height+slack {
								t.Fatalf("page %d: %q has box %v outside the %v×%v page", pg.Number, r, b, pc.Width, pc.Height)
							}
						}
					}
				}
			})
		}
		t.Logf("%s: %d of %d pages give the same text; %d of %d characters have a box", mode, same, pages, boxed, letters)
		if same*100 < pages*99 {
			t.Errorf("%s: only %d of %d pages give the page's own text", mode, same, pages)
		}
		if boxed*100 < letters*99 {
			t.Errorf("%s: only %d of %d characters have a box", mode, boxed, letters)
		}
	}
}

// TestCharsRefuses: pages outside the document, and more pages than one
// call reads, are errors, not a crash or a hang.
func TestCharsRefuses(t *testing.T) {
	path := filepath.Join(corpusDir, "bitcoin.pdf")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("corpus: %v", err)
	}
	defer f.Close()
	e := newTestExtractor(t, Options{Workers: 1})
	for _, pages := range [][]int{{0}, {10}, {1, 99}, nil, make([]int, maxCharsPages+1)} {
		t.Run(fmt.Sprint(pages), func(t *testing.T) {
			if _, err := e.Chars(t.Context(), f, pages); err == nil {
				t.Errorf("Chars(%v) of a 9-page PDF: no error", pages)
			}
		})
	}
	got, err := e.Chars(t.Context(), f, []int{9})
	if err != nil || len(got) != 1 || got[0].Number != 9 || got[0].Text == "" {
		t.Errorf("Chars(9) = %+v, %v", got, err)
	}
}
