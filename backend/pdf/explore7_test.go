package pdf

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestExplore7(t *testing.T) {
	if os.Getenv("PDFX7") == "" {
		t.Skip()
	}
	e := NewExtractor(Options{Workers: 1, Timeout: 30 * time.Second})
	defer e.Close()
	<-e.ready
	t0 := time.Now()
	d, err := e.Extract(t.Context(), "/tmp/pdfx/heavy.pdf")
	fmt.Println("full", time.Since(t0), err, d != nil && len(d.Pages) > 0)
	e.timeout = 300 * time.Millisecond
	t0 = time.Now()
	_, err = e.Extract(t.Context(), "/tmp/pdfx/heavy.pdf")
	fmt.Println("timeout", time.Since(t0), err)
	t0 = time.Now()
	_, err = e.Extract(t.Context(), "../../../shared/corpus/paxos-made-simple.pdf")
	fmt.Println("after", time.Since(t0), err)
}
