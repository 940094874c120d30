package pdf

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// benchWorkers is the parallelism of both halves of BenchmarkExtractCorpus.
const benchWorkers = 2

// BenchmarkExtractCorpus extracts the whole corpus with two workers, with
// PDFium compiled to WebAssembly and with the native libpdfium when there is
// one, and, for comparison, runs two pdftotext processes in parallel over
// the same files. All report pages/s.
func BenchmarkExtractCorpus(b *testing.B) {
	rows := readManifest(b)
	var files []string
	pages := 0
	for _, r := range rows {
		files = append(files, filepath.Join(corpusDir, r.file))
		pages += r.pages
	}

	b.Run("pdfium-wasm", func(b *testing.B) { benchExtract(b, files, pages, "-") })
	b.Run("pdfium-native", func(b *testing.B) {
		lib := NativePDFium()
		if lib == "" {
			b.Skip("no native libpdfium (set " + PDFiumEnv + ")")
		}
		benchExtract(b, files, pages, lib)
	})

	b.Run("pdftotext", func(b *testing.B) {
		if _, err := exec.LookPath("pdftotext"); err != nil {
			b.Skip("pdftotext not installed")
		}
		for b.Loop() {
			inParallel(b, files, func(ctx context.Context, f string) error {
				cmd := exec.CommandContext(ctx, "pdftotext", "-q", f, "-")
				cmd.Stdout = io.Discard
				return cmd.Run()
			})
		}
		b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
	})
}

// benchExtract extracts files with benchWorkers workers reading with the
// given PDFium (Options.PDFium) and reports pages/s.
func benchExtract(b *testing.B, files []string, pages int, pdfium string) {
	e := newTestExtractor(b, Options{Workers: benchWorkers, PDFium: pdfium})
	// Wait for the pool outside the timer.
	if _, err := e.Extract(b.Context(), files[0]); err != nil {
		b.Fatalf("warm up: %v", err)
	}
	b.ResetTimer()
	for b.Loop() {
		inParallel(b, files, func(ctx context.Context, f string) error {
			_, err := e.Extract(ctx, f)
			return err
		})
	}
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
}

// inParallel runs fn over files with benchWorkers goroutines and fails b on
// the first error.
func inParallel(b *testing.B, files []string, fn func(context.Context, string) error) {
	work := make(chan string)
	var wg sync.WaitGroup
	for range benchWorkers {
		wg.Go(func() {
			for f := range work {
				if err := fn(b.Context(), f); err != nil {
					b.Errorf("%s: %v", filepath.Base(f), err)
				}
			}
		})
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
}

// BenchmarkReadNativeInProcess reads the corpus with the native PDFium in
// this process, one file at a time, without a worker: what one core of a
// worker spends on a file (PDFium, normalising, lines, captions), and
// what `-cpuprofile` sees of it (the workers are other processes).
func BenchmarkReadNativeInProcess(b *testing.B) {
	lib := NativePDFium()
	if lib == "" {
		b.Skip("no native libpdfium (set " + PDFiumEnv + ")")
	}
	if err := loadNative(lib); err != nil {
		b.Fatal(err)
	}
	rows := readManifest(b)
	pages := 0
	for _, r := range rows {
		pages += r.pages
	}
	log := slog.New(slog.DiscardHandler)
	for b.Loop() {
		for _, r := range rows {
			f, err := os.Open(filepath.Join(corpusDir, r.file))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := extractFile(nil, f, false, log); err != nil {
				b.Errorf("%s: %v", r.file, err)
			}
			f.Close()
		}
	}
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
}
