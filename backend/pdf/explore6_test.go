package pdf

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExplore6(t *testing.T) {
	if os.Getenv("PDFX6") == "" {
		t.Skip()
	}
	e := NewExtractor(Options{})
	defer e.Close()
	files, _ := filepath.Glob("../../../shared/corpus/*.pdf")
	for _, f := range files {
		t0 := time.Now()
		d, err := e.Extract(context.Background(), f)
		if err != nil {
			fmt.Println(filepath.Base(f), err)
			continue
		}
		best := Line{}
		for _, l := range d.FirstPageLines {
			if l.Size > best.Size {
				best = l
			}
		}
		empty := 0
		for _, p := range d.Pages {
			if p.Text == "" {
				empty++
			}
		}
		fmt.Printf("%-45.45s %3d pages %2d empty %5dms lbl=%q outl=%d | %.1f %q | info=%q/%q/%d/%q\n", filepath.Base(f), len(d.Pages), empty, time.Since(t0).Milliseconds(), d.Pages[0].Label, len(d.Outline), best.Size, best.Text, d.Info.Title, strings.Split(d.Info.Author, ",")[0], d.Info.CreationYear, d.Info.DOI)
	}
}
