package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// timedExtractor counts the PDF extractions and the time they take, split
// into those made while the intake runs (reading each added PDF to name its
// folder and write its metadata.json) and those the index makes after it.
type timedExtractor struct {
	ex *pdf.Extractor

	mu       sync.Mutex // guards the fields below
	indexing bool       // the intake finished: extractions now are the index's
	calls    [2]int
	took     [2]time.Duration
}

func (t *timedExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	start := time.Now()
	doc, err := t.ex.ExtractFile(ctx, f)
	t.mu.Lock()
	phase := 0
	if t.indexing {
		phase = 1
	}
	t.calls[phase]++
	t.took[phase] += time.Since(start)
	t.mu.Unlock()
	return doc, err
}

// BenchmarkAddCorpus adds the 41 corpus PDFs to an empty vault as "Add
// papers…" does (workspace.Add: intake, then indexing) and prints, side by
// side, the whole add and the PDF extractions of each phase: a PDF read by
// the intake and extracted again by the index is read twice.
func BenchmarkAddCorpus(b *testing.B) {
	dir := corpustest.NeedCorpus(b)
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		b.Skip("no PDFs in the corpus")
	}
	for i := 0; i < b.N; i++ {
		root := b.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "papers"), 0o755); err != nil {
			b.Fatal(err)
		}
		px := pdf.NewExtractor(pdf.Options{Workers: 2, CacheDir: filepath.Join(os.TempDir(), "agentero-bench-wazero")})
		tx := &timedExtractor{ex: px}
		ws, err := workspace.Open(root, workspace.Options{Config: workspace.NewConfig(b.TempDir(), binary), CacheDir: b.TempDir(), PoolSize: -1,
			Extractor: tx, Emit: func(name string, payload any) {
				if p, ok := payload.(events.IntakeProgressEvent); ok && name == events.IntakeProgress && p.Total > 0 && p.Done == p.Total {
					tx.mu.Lock()
					tx.indexing = true
					tx.mu.Unlock()
				}
			}})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		rep, err := ws.Add(context.Background(), []string{dir})
		took := time.Since(start)
		ws.Close()
		px.Close()
		if err != nil {
			b.Fatal(err)
		}
		tx.mu.Lock()
		calls, ext := tx.calls, tx.took
		tx.mu.Unlock()
		b.ReportMetric(took.Seconds(), "s-add")
		b.ReportMetric(float64(calls[0]+calls[1]), "extractions")
		fmt.Printf("add %d corpus PDFs (%d added): %v in all | intake: %d extractions, %v | index: %d extractions, %v\n",
			len(files), len(rep.Added), took.Round(time.Millisecond), calls[0], ext[0].Round(time.Millisecond), calls[1], ext[1].Round(time.Millisecond))
	}
}
