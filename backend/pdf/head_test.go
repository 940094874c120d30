package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestExtractHeadCorpus: ExtractHead gives, for every corpus PDF, exactly
// what a whole reading gives of page 1 (text, label, lines with their
// sizes) and of the Info and XMP metadata, with no other page and no
// outline: with the native PDFium, and with WebAssembly for a few files.
func TestExtractHeadCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts the whole corpus")
	}
	rows := readManifest(t)
	for _, mode := range []string{"native", "wasm"} {
		opts := Options{Workers: 1}
		if mode == "wasm" {
			opts.PDFium = "-"
		} else if NativePDFium() == "" {
			t.Log("no native PDFium here: the native reading is not tested")
			continue
		}
		e := newTestExtractor(t, opts)
		multi, lined, n := 0, 0, 0
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
				head, err := e.ExtractHead(t.Context(), f)
				if err != nil {
					t.Fatal(err)
				}
				if len(head.Pages) != 1 || len(head.Outline) != 0 {
					t.Fatalf("head has %d pages and %d outline entries, want 1 and 0", len(head.Pages), len(head.Outline))
				}
				n++
				if len(whole.Pages) > 1 {
					multi++
				}
				if len(whole.FirstPageLines) > 0 {
					lined++
				}
				if !reflect.DeepEqual(head.Pages[0], whole.Pages[0]) {
					t.Errorf("page 1 differs:\nhead  %.200q\nwhole %.200q", head.Pages[0].Text, whole.Pages[0].Text)
				}
				if head.Info != whole.Info {
					t.Errorf("Info differs: head %+v, whole %+v", head.Info, whole.Info)
				}
				if !reflect.DeepEqual(head.FirstPageLines, whole.FirstPageLines) {
					t.Errorf("page 1 lines differ (or are none): head %d lines, whole %d", len(head.FirstPageLines), len(whole.FirstPageLines))
				}
			})
		}
		// A test on one-page or text-less files would compare nothing.
		if multi*4 < n*3 || lined*4 < n*3 {
			t.Errorf("%s: of %d files, %d have more than one page and %d have page-1 lines: the corpus is not the one expected", mode, n, multi, lined)
		}
	}
}
