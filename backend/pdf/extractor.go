// Package pdf extracts page-level text, metadata, page labels and the outline
// of PDF files. Text comes from PDFium compiled to WebAssembly and run
// in-process by wazero (no cgo, no helper processes); the XMP metadata comes
// from pdfcpu.
package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// ExtractorVersion changes whenever extraction output changes; the index
// re-extracts all files when it bumps.
const ExtractorVersion = 1

// Errors that Extract wraps; callers tell them apart with errors.Is.
var (
	ErrEncrypted = errors.New("pdf is encrypted")
	ErrDamaged   = errors.New("pdf is damaged or not a pdf")
	ErrTimeout   = errors.New("pdf extraction timed out")
)

// errClosed is returned by Extract calls that Close interrupts or that come
// after it. It wraps context.Canceled so that callers treat it as the
// cancellation it is, not as a fault of the file.
var errClosed = fmt.Errorf("pdf extractor is closed: %w", context.Canceled)

// Default option values.
const (
	defaultWorkers = 2
	defaultTimeout = 60 * time.Second
	// memoryLimitPages caps each PDFium instance at 1 GiB of WebAssembly
	// memory (64 KiB pages), so that one hostile file cannot take the
	// machine's memory; such a file fails instead.
	memoryLimitPages = 16384
)

// Options configures an Extractor. The zero value gives the defaults.
type Options struct {
	Workers  int           // pdfium instances; 0 = 2
	CacheDir string        // wazero on-disk compilation cache; "" = os.UserCacheDir()/agentero/wazero
	Timeout  time.Duration // per-file limit; 0 = 60s
	Logger   *slog.Logger  // nil = discard
}

// Extractor extracts documents with a pool of PDFium WebAssembly instances.
//
// The pool is built in the background by NewExtractor; Extract waits for it.
// Each Extract borrows one instance for one file and gives it back (PDFium
// state never carries from one file to the next: a fresh module instance is
// made from the compiled module for every file). An instance that exceeds
// the timeout, or whose caller gives up, is killed: wazero aborts the running
// WebAssembly call when the instance's context is cancelled
// (RuntimeConfig.WithCloseOnContextDone) and the pool replaces it.
type Extractor struct {
	log     *slog.Logger
	workers int
	timeout time.Duration

	ready   chan struct{} // closed once pool, cache and initErr are set
	pool    pdfium.Pool
	cache   wazero.CompilationCache
	initErr error

	stop     context.Context // cancelled by Close; interrupts every Extract
	cancel   context.CancelFunc
	mu       sync.Mutex // guards closed and the Add side of inflight
	closed   bool
	inflight sync.WaitGroup
}

// NewExtractor returns at once; the WebAssembly pool starts in the
// background (the first compile takes a few seconds and is cached on disk,
// later starts take well under a second).
func NewExtractor(opts Options) *Extractor {
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers
	}
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	e := &Extractor{
		log:     opts.Logger,
		workers: opts.Workers,
		timeout: opts.Timeout,
		ready:   make(chan struct{}),
	}
	e.stop, e.cancel = context.WithCancel(context.Background())
	go e.start(opts.CacheDir)
	return e
}

// start compiles PDFium and builds the pool. It runs once, in its own
// goroutine, and signals the end by closing e.ready.
func (e *Extractor) start(cacheDir string) {
	defer close(e.ready)
	began := time.Now()

	config := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(memoryLimitPages)
	if cache, err := openCache(cacheDir); err != nil {
		e.log.Warn("pdf: wazero compilation cache unavailable, compiling in memory", "err", err)
	} else {
		e.cache = cache
		config = config.WithCompilationCache(cache)
	}

	pool, err := webassembly.Init(webassembly.Config{
		Context:       e.stop,
		MinIdle:       0,
		MaxIdle:       e.workers,
		MaxTotal:      e.workers,
		RuntimeConfig: config,
		// Files are read through a reader callback (see openDocument), so
		// the module sees no file system at all.
		FSConfig: wazero.NewFSConfig(),
		Stdout:   io.Discard,
		Stderr:   io.Discard,
	})
	if err != nil {
		e.initErr = fmt.Errorf("start pdfium: %w", err)
		e.log.Error("pdf: pdfium pool did not start", "err", err)
		return
	}
	e.pool = pool
	e.log.Debug("pdf: pdfium pool started", "workers", e.workers, "took", time.Since(began))
}

// openCache opens the on-disk wazero compilation cache in dir, or in the
// user cache directory when dir is "".
func openCache(dir string) (wazero.CompilationCache, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("find user cache dir: %w", err)
		}
		dir = filepath.Join(base, "agentero", "wazero")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create cache dir: %w", err)
	}
	return wazero.NewCompilationCacheWithDir(dir)
}

// Extract reads the PDF at path. It is safe for concurrent use; at most
// Options.Workers files are extracted at once and further callers wait for a
// free instance (waiting does not count against the per-file timeout).
//
// Errors wrap ErrEncrypted, ErrDamaged or ErrTimeout, or are ctx's error
// (after Close, an error wrapping context.Canceled). An image-only PDF is
// not an error: its pages have Text "". A file PDFium opens but whose pages
// cannot all be read (a truncated linearized file) is not an error either:
// the pages that failed have Text "".
func (e *Extractor) Extract(ctx context.Context, path string) (*Document, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errClosed
	}
	e.inflight.Add(1)
	e.mu.Unlock()
	defer e.inflight.Done()

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer context.AfterFunc(e.stop, func() { cancel(errClosed) })()

	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("empty file: %w", ErrDamaged)
	}

	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, cause(ctx)
	}
	if e.initErr != nil {
		return nil, e.initErr
	}
	inst, err := e.pool.GetInstanceWithContext(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cause(ctx)
		}
		return nil, fmt.Errorf("get pdfium instance: %w", err)
	}

	// From here on the file's clock runs.
	fileCtx, cancelFile := context.WithTimeoutCause(ctx, e.timeout, ErrTimeout)
	defer cancelFile()
	killed := make(chan struct{})
	stopKill := context.AfterFunc(fileCtx, func() {
		defer close(killed)
		// Aborts the call in flight; the pool makes a new instance.
		if err := inst.Kill(); err != nil {
			e.log.Debug("pdf: kill pdfium instance", "err", err)
		}
	})

	doc, err := readDocument(fileCtx, inst, f, st.Size(), e.log)
	if stopKill() {
		// The kill will not run, so the instance is still ours to return.
		if cerr := inst.Close(); cerr != nil {
			e.log.Debug("pdf: close pdfium instance", "err", cerr)
		}
	} else {
		// Wait for the kill, so that no pool work outlives this call
		// (Close relies on that).
		<-killed
	}
	if fileCtx.Err() != nil {
		return nil, cause(fileCtx)
	}
	if err != nil {
		return nil, err
	}

	// XMP is read after the instance is back in the pool, still on the
	// file's clock.
	readXMP(fileCtx, f, &doc.Info, e.log)
	if fileCtx.Err() != nil {
		return nil, cause(fileCtx)
	}
	return doc, nil
}

// cause turns a finished context into the error Extract returns: ErrTimeout
// or errClosed when we ended it, otherwise the caller's context error.
func cause(ctx context.Context) error {
	switch err := context.Cause(ctx); {
	case errors.Is(err, ErrTimeout):
		return fmt.Errorf("extract: %w", ErrTimeout)
	case errors.Is(err, errClosed):
		return errClosed
	default:
		return ctx.Err()
	}
}

// Close stops the pool. Extract calls in flight are interrupted and return
// an error; later calls fail at once. Close waits for the background start
// to finish.
func (e *Extractor) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()

	e.cancel()
	e.inflight.Wait()
	<-e.ready

	var errs []error
	if e.pool != nil {
		if err := e.pool.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close pdfium pool: %w", err))
		}
	}
	if e.cache != nil {
		if err := e.cache.Close(context.Background()); err != nil {
			errs = append(errs, fmt.Errorf("close compilation cache: %w", err))
		}
	}
	return errors.Join(errs...)
}
