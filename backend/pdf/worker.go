package pdf

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/userdir"
	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// The environment of a worker process. The parent sets these; workerEnv is
// also how a process that was started as a worker but did not call
// ServeWorkerIfRequested notices it (see Extractor.launch).
const (
	workerEnv   = "AGENTERO_PDF_WORKER"       // "1" makes the process a worker
	cacheDirEnv = "AGENTERO_PDF_CACHE_DIR"    // compilation cache dir, resolved by the parent
	debugEnv    = "AGENTERO_PDF_WORKER_DEBUG" // "1": log at debug level to stderr
	nativeEnv   = "AGENTERO_PDF_NATIVE"       // path of the native libpdfium to read with; "" for none
)

// The protocol between an Extractor and a worker is gob over the worker's
// stdin and stdout. Both ends are the same executable, so the types cannot
// drift apart. The worker sends one hello when it is ready (or cannot be),
// then answers each request with one reply, one request at a time.
type (
	hello struct {
		Ready   bool   // false: Err says why the worker cannot start
		Err     string // why the worker cannot start
		Warning string // trouble that only costs speed (no compilation cache)
	}
	request struct {
		// Path names the file only where descriptors cannot be passed
		// (see fdpass_*.go); elsewhere the file comes over the socket.
		Path   string
		Region *regionRequest // nil: extract the whole document
		Chars  *charsRequest  // nil: not a characters request
		Render *renderRequest // nil: not an image request
		// Head asks for page 1, the Info dictionary and XMP only
		// (Extractor.ExtractHead).
		Head bool
	}
	reply struct {
		Doc  *Document
		Err  string // Error() of the failure, "" on success
		Kind int    // 1 + index in wireErrors of what Err wraps; 0 for none
	}
)

// wireErrors are the errors a reply keeps the identity of, so that the
// parent's errors.Is works as if the worker were in-process.
var wireErrors = []error{ErrEncrypted, ErrDamaged, fs.ErrNotExist, fs.ErrPermission, ErrOutsidePage}

// ServeWorkerIfRequested turns the process into a PDF extraction worker
// when an Extractor started it, and returns at once otherwise. A worker
// never returns: it serves its parent until its stdin closes, then exits.
//
// Extractors start workers by re-executing os.Executable, so every program
// (and every test binary) that creates an Extractor must call this first
// thing in main or TestMain.
func ServeWorkerIfRequested() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	out := os.Stdout
	// Stdout now carries the protocol; a stray print must not corrupt it.
	os.Stdout = os.Stderr
	level := slog.LevelWarn
	if os.Getenv(debugEnv) == "1" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{
		Level: level,
		// The parent logs each line with its own time.
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
	os.Exit(serveWorker(os.Stdin, out, os.Getenv(cacheDirEnv), os.Getenv(nativeEnv), log))
}

// serveWorker is the worker's main loop; it returns the exit code.
func serveWorker(in io.Reader, out io.Writer, cacheDir, nativePath string, log *slog.Logger) int {
	enc := gob.NewEncoder(out)
	var warning string
	native := false
	if nativePath != "" {
		if err := loadNative(nativePath); err != nil {
			warning = "native PDFium unavailable, reading with WebAssembly: " + err.Error()
		} else {
			native = true
			limitMemory(nativeMemoryLimit, log)
		}
	}
	// A native worker needs WebAssembly PDFium only for regions, so it
	// starts it then: the very first start compiles it for seconds.
	var pool pdfium.Pool
	wasm := func() (pdfium.Pool, error) {
		if pool == nil {
			p, _, err := startPDFium(cacheDir)
			if err != nil {
				return nil, err
			}
			pool = p
		}
		return pool, nil
	}
	if !native {
		p, w, err := startPDFium(cacheDir)
		if err != nil {
			_ = enc.Encode(hello{Err: err.Error()})
			return 1
		}
		pool, warning = p, strings.TrimSpace(warning+" "+w)
	}
	if err := enc.Encode(hello{Ready: true, Warning: warning}); err != nil {
		return 1
	}

	// Requests are read ahead by their own goroutine so that the end of
	// stdin is seen even while a file is being read: a parent that dies
	// (or gives up) closes it, and nobody wants the answer any more. The
	// goroutine ends with the process.
	requests := make(chan request)
	go func() {
		dec := gob.NewDecoder(in)
		for {
			var req request
			if err := dec.Decode(&req); err != nil {
				if !errors.Is(err, io.EOF) {
					log.Error("pdf worker: read request", "err", err)
					os.Exit(1)
				}
				os.Exit(0)
			}
			requests <- req
		}
	}()
	for req := range requests {
		f, err := receiveFile(req)
		if err != nil {
			log.Error("pdf worker", "err", err)
			return 1
		}
		var doc *Document
		switch {
		case req.Region != nil:
			var p pdfium.Pool
			if p, err = wasm(); err == nil {
				doc, err = regionText(p, f, *req.Region)
			}
		case req.Render != nil && native:
			doc, err = renderFile(nil, f, *req.Render)
		case req.Render != nil:
			doc, err = renderFile(pool, f, *req.Render)
		case req.Chars != nil && native:
			doc, err = charsFile(nil, f, req.Chars.Pages)
		case req.Chars != nil:
			doc, err = charsFile(pool, f, req.Chars.Pages)
		case native:
			doc, err = extractFile(nil, f, req.Head, log)
		default:
			doc, err = extractFile(pool, f, req.Head, log)
		}
		f.Close()
		if err := enc.Encode(newReply(doc, err)); err != nil {
			log.Error("pdf worker: write reply", "err", err)
			return 1
		}
	}
	return 0
}

// newReply encodes the result of extractFile.
func newReply(doc *Document, err error) reply {
	if err == nil {
		return reply{Doc: doc}
	}
	r := reply{Err: err.Error()}
	for i, target := range wireErrors {
		if errors.Is(err, target) {
			r.Kind = i + 1
			break
		}
	}
	return r
}

// err returns the error a reply carries, or nil.
func (r reply) err() error {
	if r.Err == "" {
		return nil
	}
	e := &remoteError{msg: r.Err}
	if r.Kind > 0 && r.Kind <= len(wireErrors) {
		e.kind = wireErrors[r.Kind-1]
	}
	return e
}

// remoteError is an error that happened in a worker: its text as the
// worker wrote it, and the one of wireErrors it wrapped there.
type remoteError struct {
	msg  string
	kind error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.kind }

// startPDFium compiles PDFium, or loads it from the compilation cache, into
// a pool of one instance at a time. The runtime has no termination checks:
// the parent ends a stuck file by killing the process, so the compiled code
// need not poll for cancellation (which halves its speed).
func startPDFium(cacheDir string) (pool pdfium.Pool, warning string, err error) {
	config := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(memoryLimitPages)
	if cache, err := openCache(cacheDir); err != nil {
		warning = fmt.Sprintf("wazero compilation cache unavailable, compiling in memory: %v", err)
	} else {
		// Not closed: it lives as long as the process.
		config = config.WithCompilationCache(cache)
	}
	pool, err = webassembly.Init(webassembly.Config{
		Context:  context.Background(),
		MinIdle:  0,
		MaxIdle:  1,
		MaxTotal: 1,
		// One instance serves every file of the worker (the parent retires
		// workers after maxFilesPerWorker files).
		ReuseWorkers:  true,
		RuntimeConfig: config,
		// Files are read through a reader callback (see readDocument), so
		// the module sees no file system at all.
		FSConfig: wazero.NewFSConfig(),
		Stdout:   io.Discard,
		Stderr:   io.Discard,
	})
	if err != nil {
		return nil, "", fmt.Errorf("start pdfium: %w", err)
	}
	return pool, warning, nil
}

// openCache opens the on-disk wazero compilation cache in dir. wazero
// writes each entry to a temporary file and renames it into place, so
// workers that compile at the same time do not corrupt it: the last rename
// wins and readers see whole files. Its keys tell code compiled with
// termination checks (by extractors before worker processes) from code
// without, so an old cache is not mistaken for a new one.
func openCache(dir string) (wazero.CompilationCache, error) {
	if dir == "" {
		return nil, errors.New("no cache dir")
	}
	// Compiled code is loaded and run from here: the folder must be the
	// user's alone (userdir.Folder refuses another user's or a shared one).
	if _, err := userdir.Folder(dir); err != nil {
		return nil, fmt.Errorf("cache dir: %w", err)
	}
	return wazero.NewCompilationCacheWithDir(dir)
}

// defaultCacheDir returns the compilation cache dir for Options.CacheDir "".
func defaultCacheDir() (string, error) {
	base, err := userdir.Cache()
	if err != nil {
		return "", fmt.Errorf("find user cache dir: %w", err)
	}
	return filepath.Join(base, "wazero"), nil
}

// releaseInstance gives inst back for the next file, or, when the file
// failed (a trap inside PDFium may have left the instance broken), throws
// it away so that the next file gets a new one.
func releaseInstance(inst pdfium.Pdfium, failed error, log *slog.Logger) {
	var err error
	if failed != nil {
		err = inst.Kill()
	} else {
		err = inst.Close()
	}
	if err != nil && log != nil {
		log.Debug("pdf: release pdfium instance", "err", err)
	}
}

// readWasmFile reads f with the worker's PDFium WebAssembly instance.
func readWasmFile(pool pdfium.Pool, f *os.File, size int64, head bool, log *slog.Logger) (doc *Document, err error) {
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return nil, fmt.Errorf("get pdfium instance: %w", err)
	}
	defer func() { releaseInstance(inst, err, log) }()
	r, err := openWasm(inst, f, size)
	if err != nil {
		return nil, err
	}
	defer r.close()
	return readPages(r, log, head)
}

// charsFile reads the characters of pages of f with the worker's
// WebAssembly instance from pool, or with the native PDFium when pool is nil.
func charsFile(pool pdfium.Pool, f *os.File, pages []int) (*Document, error) {
	return withReader(pool, f, func(r openedReader) (*Document, error) { return readChars(r, pages) })
}

// openedReader is an open document of either PDFium: its text and its
// drawing.
type openedReader interface {
	pdfReader
	renderer
}

// withReader opens f with the worker's WebAssembly instance from pool, or
// with the native PDFium when pool is nil, and hands it to use.
func withReader(pool pdfium.Pool, f *os.File, use func(openedReader) (*Document, error)) (doc *Document, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	if pool == nil {
		r, err := openNative(nativePath(f))
		if err != nil {
			return nil, err
		}
		defer r.close()
		return use(r)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	inst, err := pool.GetInstanceWithContext(context.Background())
	if err != nil {
		return nil, fmt.Errorf("get pdfium instance: %w", err)
	}
	defer func() { releaseInstance(inst, err, nil) }()
	r, err := openWasm(inst, f, st.Size())
	if err != nil {
		return nil, err
	}
	defer r.close()
	return use(r)
}

// readNative reads the open PDF f with the native PDFium.
func readNative(f *os.File, head bool, log *slog.Logger) (*Document, error) {
	r, err := openNative(nativePath(f))
	if err != nil {
		return nil, err
	}
	defer r.close()
	return readPages(r, log, head)
}

// extractFile reads the open PDF f with the worker's WebAssembly instance
// from pool, or with the native PDFium when pool is nil, then its XMP.
func extractFile(pool pdfium.Pool, f *os.File, head bool, log *slog.Logger) (*Document, error) {
	began := time.Now()
	if _, err := f.Seek(0, io.SeekStart); err != nil { // the parent hashed it through the same offset
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open pdf: %w", err)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("empty file: %w", ErrDamaged)
	}

	var doc *Document
	if pool == nil {
		doc, err = readNative(f, head, log)
	} else {
		doc, err = readWasmFile(pool, f, st.Size(), head, log)
	}
	if err != nil {
		return nil, err
	}
	readXMP(context.Background(), f, &doc.Info, log)
	log.Debug("pdf: extracted", "pages", len(doc.Pages), "took", time.Since(began))
	return doc, nil
}
