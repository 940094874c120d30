// Package pdf extracts page-level text, metadata, page labels and the outline
// of PDF files. Text comes from PDFium compiled to WebAssembly and run by
// wazero (no cgo); the XMP metadata comes from pdfcpu. Both run in worker
// processes that re-execute the program itself (see ServeWorkerIfRequested):
// killing a process is the one way to stop a stuck PDFium call that costs
// nothing while the call runs, and a PDF that crashes the reader takes only
// its worker down.
package pdf

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ExtractorVersion changes whenever extraction output changes; the index
// re-extracts all files when it bumps.
//
// 3: page-1 header read for authors and year; garbled pages detected (backend/index).
// 4: sections for every paper (backend/outline): the headings are found in
// the pages' short lines, which the index does not keep, so every paper is
// read again to write them (index migration 008).
// 5: the abstract read from the first pages (backend/metadata abstractOf).
// 6: pages without a text layer, and garbled ones, read by OCR (Page.OCR;
// the index OCRs them).
// 7: 4, 5 and 6 together: an index written at any of them lacks another's.
// 8: figures' and tables' captions with their regions (Document.Captions;
// index migration 009).
const ExtractorVersion = 8

// Errors that Extract wraps; callers tell them apart with errors.Is.
var (
	ErrEncrypted = errors.New("pdf is encrypted")
	ErrDamaged   = errors.New("pdf is damaged or not a pdf")
	ErrTimeout   = errors.New("pdf extraction timed out")
	// ErrUnavailable is a worker that could not start: no file can be
	// read until that is fixed, and the file at hand is not to blame.
	ErrUnavailable = errors.New("the PDF reader could not start")
)

// errClosed is returned by Extract calls that Close interrupts or that come
// after it. It wraps context.Canceled so that callers treat it as the
// cancellation it is, not as a fault of the file.
var errClosed = fmt.Errorf("pdf extractor is closed: %w", context.Canceled)

// maxFilesPerWorker retires a worker after this many requests (a variable
// for tests). A worker keeps one PDFium instance for all its files (a fresh
// instance per file costs about 7 ms, a worker start about 170 ms), and
// WebAssembly memory never shrinks, so a worker that once read a huge file
// would otherwise hold that memory for good.
var maxFilesPerWorker = 256

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
	Workers  int           // worker processes; 0 = 2
	CacheDir string        // wazero on-disk compilation cache; "" = os.UserCacheDir()/agentero/wazero
	Timeout  time.Duration // per-file limit; 0 = 60s
	Logger   *slog.Logger  // nil = discard
	// PDFium is the native libpdfium the workers read with (see native.go):
	// "" finds one (NativePDFium), "-" reads with WebAssembly only.
	PDFium string
	// OCRCacheDir keeps what OCR read, by the PDF's hash: "" = "ocr" beside
	// CacheDir; "-" keeps nothing.
	OCRCacheDir string
}

// Extractor extracts documents with up to Options.Workers worker processes,
// each running one PDFium WebAssembly instance at a time.
//
// Workers start on demand and stay warm between files. Each Extract holds
// one worker for one file. A worker whose file exceeds the timeout, whose
// caller gives up, or that is still busy at Close is killed (SIGKILL) and
// reaped before Extract returns; the next Extract that needs a worker starts
// a new one.
//
// Concurrency: slots holds exactly Workers entries whenever no Extract holds
// one: an idle worker, or nil for a worker not (or no longer) running. An
// Extract takes an entry and puts one back before it returns, so Close, once
// no Extract is in flight, finds every worker there.
type Extractor struct {
	log      *slog.Logger
	workers  int
	timeout  time.Duration
	cacheDir string // resolved; "" when there is none
	pdfium   string // native libpdfium; "" when the workers read with WebAssembly
	ocrCache string // OCR results by the PDF's hash; "" keeps none

	slots     chan *proc
	compiling chan struct{} // held by the first start, so that it alone compiles PDFium
	warm      atomic.Bool   // a worker has started: PDFium is in the compilation cache

	stop     context.Context // cancelled by Close; interrupts every Extract
	cancel   context.CancelFunc
	mu       sync.Mutex // guards closed, startErr and the Add side of inflight
	closed   bool
	startErr error // set when no worker can ever start; every Extract fails with it
	inflight sync.WaitGroup

	// handed, when set (by tests), is called with the worker's pid as a
	// file is handed to it.
	handed func(pid int)
}

// NewExtractor returns at once; workers start when the first files come
// (the very first start compiles PDFium in a few seconds and caches it on
// disk, later starts take a fraction of a second).
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
	if opts.CacheDir == "" {
		dir, err := defaultCacheDir()
		if err != nil {
			opts.Logger.Warn("pdf: no wazero compilation cache, compiling PDFium at every worker start", "err", err)
		}
		opts.CacheDir = dir
	}
	if opts.PDFium == "" {
		opts.PDFium = NativePDFium()
	} else if opts.PDFium == "-" {
		opts.PDFium = ""
	}
	switch {
	case opts.OCRCacheDir == "-":
		opts.OCRCacheDir = ""
	case opts.OCRCacheDir == "" && opts.CacheDir != "":
		opts.OCRCacheDir = filepath.Join(filepath.Dir(opts.CacheDir), "ocr")
	}
	e := &Extractor{
		ocrCache:  opts.OCRCacheDir,
		pdfium:    opts.PDFium,
		log:       opts.Logger,
		workers:   opts.Workers,
		timeout:   opts.Timeout,
		cacheDir:  opts.CacheDir,
		slots:     make(chan *proc, opts.Workers),
		compiling: make(chan struct{}, 1),
	}
	for range opts.Workers {
		e.slots <- nil
	}
	e.stop, e.cancel = context.WithCancel(context.Background())
	return e
}

// Extract reads the PDF at path. It is safe for concurrent use; at most
// Options.Workers files are extracted at once and further callers wait for a
// free worker (waiting, and starting a worker, do not count against the
// per-file timeout).
//
// Errors wrap ErrEncrypted, ErrDamaged, ErrTimeout or ErrUnavailable, or are ctx's error
// (after Close, an error wrapping context.Canceled). A file that crashes the
// worker reading it is damaged. An image-only PDF is not an error: its pages
// have Text "". A file PDFium opens but whose pages cannot all be read (a
// truncated linearized file) is not an error either: the pages that failed
// have Text "". A worker that SIGKILL ends from outside (the out-of-memory
// killer, a user) costs the file one more try on a fresh worker.
func (e *Extractor) Extract(ctx context.Context, path string) (*Document, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return e.ExtractFile(ctx, f)
}

// ExtractFile reads the open PDF f, as Extract does. The worker reads f
// itself, not a path: a vault's PDF is opened through the vault's confined
// opener (vault.Open) and handed here, so what is read is the file the
// confinement resolved.
func (e *Extractor) ExtractFile(ctx context.Context, f *os.File) (*Document, error) {
	return e.run(ctx, f, request{})
}

// ExtractHead reads what names a paper from the open PDF f: page 1 (its
// text, and its lines with their font sizes), the Info dictionary and the
// XMP metadata; the Document's Pages then hold page 1 alone and its
// Outline is empty. It costs a small part of a whole reading for a long
// paper, and is what a preview that only names papers needs (index.Describe
// reads no more). Errors are Extract's.
func (e *Extractor) ExtractHead(ctx context.Context, f *os.File) (*Document, error) {
	return e.run(ctx, f, request{Head: true})
}

// openFile opens a PDF named by the caller (not a vault path: those come
// open from the vault's opener), without waiting on a FIFO.
func openFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	return f, nil
}

// run has a worker answer one request about the open PDF f, under the
// per-file time limit.
func (e *Extractor) run(ctx context.Context, f *os.File, req request) (*Document, error) {
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

	// Empty files, and what is not a file, fail here, without a worker.
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open pdf: not a regular file: %w", ErrDamaged)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("empty file: %w", ErrDamaged)
	}

	doc, err := e.attempt(ctx, f, req)
	if errors.Is(err, errKilled) && ctx.Err() == nil {
		// Something outside killed the worker: a good file must not be
		// recorded as damaged for it. A file that gets its worker killed
		// twice (the out-of-memory killer again) is.
		e.log.Info("pdf: worker killed from outside; reading the file again", "path", f.Name(), "err", err)
		doc, err = e.attempt(ctx, f, req)
	}
	return doc, err
}

// attempt has one worker answer req about f under the per-file time limit.
func (e *Extractor) attempt(ctx context.Context, f *os.File, req request) (*Document, error) {
	p, err := e.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer e.release(p)

	// From here on the file's clock runs.
	fileCtx, cancelFile := context.WithTimeoutCause(ctx, e.timeout, ErrTimeout)
	defer cancelFile()
	if e.handed != nil {
		e.handed(p.pid)
	}
	doc, err := p.extract(fileCtx, req, f)
	if fileCtx.Err() != nil {
		return nil, cause(fileCtx)
	}
	return doc, err
}

// acquire takes a slot and returns its worker, starting one when the slot
// has none or its worker has died. On error the slot is given back.
func (e *Extractor) acquire(ctx context.Context) (*proc, error) {
	var p *proc
	select {
	case p = <-e.slots:
	case <-ctx.Done():
		return nil, cause(ctx)
	}
	if p != nil && p.hasExited() {
		e.log.Debug("pdf: idle worker died", "pid", p.pid, "status", p.status())
		p.close()
		p = nil
	}
	if ctx.Err() != nil {
		e.release(p)
		return nil, cause(ctx)
	}
	if p != nil {
		return p, nil
	}
	p, err := e.start(ctx)
	if err != nil {
		e.release(nil)
		return nil, err
	}
	return p, nil
}

// release gives a slot back: p when it is still running, else nil.
func (e *Extractor) release(p *proc) {
	if p != nil && p.served >= maxFilesPerWorker {
		p.close()
	}
	if p != nil && p.hasExited() {
		p = nil
	}
	e.slots <- p
}

// start starts a worker process. The first start of an Extractor runs
// alone: with an empty cache it compiles PDFium, and starts that wait for it
// load the result instead of compiling too.
func (e *Extractor) start(ctx context.Context) (*proc, error) {
	e.mu.Lock()
	err := e.startErr
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !e.warm.Load() {
		select {
		case e.compiling <- struct{}{}:
			defer func() { <-e.compiling }()
		case <-ctx.Done():
			return nil, cause(ctx)
		}
	}

	began := time.Now()
	p, warning, err := e.launch(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cause(ctx)
		}
		err = fmt.Errorf("%w: %w", ErrUnavailable, err)
		if errors.As(err, new(permanentError)) {
			e.mu.Lock()
			e.startErr = err
			e.mu.Unlock()
		}
		return nil, err
	}
	if warning != "" && !e.warm.Load() {
		e.log.Warn("pdf: " + warning)
	}
	e.warm.Store(true)
	e.log.Debug("pdf: worker started", "pid", p.pid, "took", time.Since(began))
	return p, nil
}

// launch re-executes this program as a worker.
func (e *Extractor) launch(ctx context.Context) (*proc, string, error) {
	if os.Getenv(workerEnv) == "1" {
		// A worker that runs the program instead of serving would start
		// workers of its own, and they would do the same.
		return nil, "", permanentError{errors.New("this process is a pdf worker that did not call pdf.ServeWorkerIfRequested")}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, "", permanentError{err}
	}
	debug := "0"
	if e.log.Enabled(ctx, slog.LevelDebug) {
		debug = "1"
	}
	return startProc(ctx, exe, workerEnviron(e.cacheDir, debug, e.pdfium), e.log)
}

// workerEnviron is the whole environment of a worker: the settings it
// serves with and a fixed locale, and nothing inherited from the app (API
// keys, tokens, proxies, PATH), so a PDF that subverted PDFium would find
// no secret to take. The worker runs no program and resolves no path
// but the cache and the native library, which it is given.
func workerEnviron(cacheDir, debug, native string) []string {
	env := []string{
		workerEnv + "=1",
		cacheDirEnv + "=" + cacheDir,
		debugEnv + "=" + debug,
		nativeEnv + "=" + native,
		"LC_ALL=C",
	}
	if v, ok := os.LookupEnv("SYSTEMROOT"); ok && runtime.GOOS == "windows" {
		env = append(env, "SYSTEMROOT="+v) // Windows programs need it to start
	}
	return env
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

// Close stops the workers. Extract calls in flight are interrupted (their
// workers killed) and return an error; later calls fail at once. When Close
// returns, no worker process and no goroutine of the Extractor is left.
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
	for range e.workers {
		if p := <-e.slots; p != nil {
			p.close()
		}
	}
	return nil
}
