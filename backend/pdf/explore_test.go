package pdf

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	file := os.Getenv("PDFX")
	if file == "" {
		t.Skip()
	}
	t0 := time.Now()
	e := NewExtractor(Options{CacheDir: "/tmp/pdfx/cache", Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	defer e.Close()
	<-e.ready
	fmt.Println("ready", time.Since(t0))
	for k := 0; k < 2; k++ {
		t1 := time.Now()
		d, err := e.Extract(context.Background(), file)
		fmt.Println("extract", time.Since(t1), err)
		if err != nil {
			return
		}
		if k == 1 {
			fmt.Printf("info %+v\n", d.Info)
			fmt.Printf("outline %+v\n", d.Outline)
			for _, l := range d.FirstPageLines {
				fmt.Printf("%5.1f %q\n", l.Size, l.Text)
			}
			for _, p := range d.Pages {
				fmt.Printf("--- page %d label %q len %d\n", p.Number, p.Label, len(p.Text))
			}
			if os.Getenv("PAGE") != "" {
				var n int
				fmt.Sscan(os.Getenv("PAGE"), &n)
				fmt.Printf("%q\n", d.Pages[n-1].Text)
			}
		}
	}
}
