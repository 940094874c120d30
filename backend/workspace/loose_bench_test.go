package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// headExtractor is an extractor that can read a PDF's first page alone
// (pdf.Extractor.ExtractHead, where it has it).
type headExtractor interface {
	ExtractHead(ctx context.Context, f *os.File) (*pdf.Document, error)
}

// phasedExtractor counts and times the extractions of a loose folder's
// preview (phase 0) and of the new vault's indexing (phase 1), and whole
// readings apart from first-page ones.
type phasedExtractor struct {
	ex    *pdf.Extractor
	phase int
	calls [2]int
	heads [2]int
	took  [2]time.Duration
}

func (t *phasedExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	start := time.Now()
	doc, err := t.ex.ExtractFile(ctx, f)
	t.calls[t.phase]++
	t.took[t.phase] += time.Since(start)
	return doc, err
}

func (t *phasedExtractor) ExtractHead(ctx context.Context, f *os.File) (*pdf.Document, error) {
	h, ok := any(t.ex).(headExtractor)
	if !ok {
		return t.ExtractFile(ctx, f)
	}
	start := time.Now()
	doc, err := h.ExtractHead(ctx, f)
	t.heads[t.phase]++
	t.took[t.phase] += time.Since(start)
	return doc, err
}

// BenchmarkLooseFolder takes the 41 corpus PDFs as a folder of loose PDFs
// (copied to a temporary folder) through what the app does with one: the
// preview of their arrangement (workspace.PlanArrangement, which reads
// each PDF to name its folder), the arrangement, then the new vault's
// indexing. It prints the time and the PDF readings of each phase, with
// one worker for both, as the preview has.
func BenchmarkLooseFolder(b *testing.B) {
	dir := corpustest.NeedCorpus(b)
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		b.Skip("no PDFs in the corpus")
	}
	for i := 0; i < b.N; i++ {
		loose := b.TempDir()
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(loose, filepath.Base(f)), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		px := pdf.NewExtractor(pdf.Options{Workers: 1, CacheDir: filepath.Join(os.TempDir(), "agentero-bench-wazero")})
		tx := &phasedExtractor{ex: px}
		opts := workspace.Options{Config: workspace.NewConfig(b.TempDir(), binary), CacheDir: b.TempDir(), PoolSize: -1, Extractor: tx}
		// A first reading starts the worker, so that neither phase pays for it.
		if _, err := px.Extract(context.Background(), files[0]); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		moves, err := workspace.PlanArrangement(context.Background(), loose, opts)
		preview := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := workspace.ApplyArrangement(context.Background(), loose, moves, false); err != nil {
			b.Fatal(err)
		}
		tx.phase = 1
		ws, err := workspace.Open(loose, opts)
		if err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		if _, err := ws.Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
		indexing := time.Since(start)
		ws.Close()
		px.Close()
		b.ReportMetric(preview.Seconds(), "s-preview")
		b.ReportMetric(indexing.Seconds(), "s-index")
		fmt.Printf("loose folder of %d corpus PDFs: preview %v (%d whole readings, %d first-page readings) | index %v (%d whole readings, %d first-page readings)\n",
			len(files), preview.Round(time.Millisecond), tx.calls[0], tx.heads[0], indexing.Round(time.Millisecond), tx.calls[1], tx.heads[1])
	}
}
