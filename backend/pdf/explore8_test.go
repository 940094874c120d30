package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestExplore8(t *testing.T) {
	if os.Getenv("PDFX8") == "" {
		t.Skip()
	}
	e := NewExtractor(Options{})
	defer e.Close()
	files, _ := filepath.Glob("../../../shared/corpus/*.pdf")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, frac := range []int{2, 10} {
			p := filepath.Join(t.TempDir(), "x.pdf")
			os.WriteFile(p, b[:len(b)*(frac-1)/frac], 0o644)
			d, err := e.Extract(t.Context(), p)
			if err != nil {
				fmt.Printf("%-40.40s %d/%d: %v\n", filepath.Base(f), frac-1, frac, err)
				continue
			}
			n := 0
			for _, pg := range d.Pages {
				if pg.Text != "" {
					n++
				}
			}
			fmt.Printf("%-40.40s %d/%d: %d pages, %d with text\n", filepath.Base(f), frac-1, frac, len(d.Pages), n)
		}
	}
}
