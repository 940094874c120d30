// Package library is an open vault: its index, the extractor that fills it
// and the watcher that keeps it current. The desktop app and the command
// line both work through it.
package library

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/backend/watch"
)

// Options tunes Open. Zero values mean defaults.
type Options struct {
	Logger   *slog.Logger
	Emit     events.Emitter  // nil = no events
	Workers  int             // parallel extractions; 0 = 2
	Timeout  time.Duration   // per-PDF extraction limit; 0 = the extractor's default
	CacheDir string          // wazero compilation cache; "" = the user cache dir
	Watch    watch.Options   // debounce and polling of the watcher
	Extract  index.Extractor // nil = the real pdf extractor, started on first use
}

// Library is one open vault. Its methods are safe for concurrent use.
type Library struct {
	root string
	db   *index.DB
	ix   *index.Indexer
	opts Options
	ex   *lazyExtractor
	hand *handoff // what adds read, until the index takes it (handoff.go)

	// syncMu serialises syncs (index and reference lists), which must not
	// overlap for one vault; it is held for a whole sync.
	syncMu sync.Mutex

	// mu guards the fields below; nothing blocks while holding it.
	mu        sync.Mutex
	status    watch.Status
	indexing  bool
	lastStats index.Stats
}

// Open opens the vault at root and its index (created when missing). It
// reads nothing else, so it returns at once even on a large vault: call
// Sync to index and Watch to follow changes.
func Open(root string, opts Options) (*Library, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	// Fail fast on a missing folder or a file; reading the folder is
	// Sync's work, so that opening a large vault does not wait for it.
	if st, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open vault: there is no folder %s", abs)
	} else if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("open vault: %s is not a folder", abs)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Emit == nil {
		opts.Emit = func(string, any) {}
	}
	// Agentero's state folder must be a real folder of the vault: one that
	// is a link would have the index, conversations and grants written
	// elsewhere. It is made private to the user.
	if _, err := vault.StateFolder(abs); err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	db, err := index.Open(index.Path(abs), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		return nil, err
	}
	if n := db.Notice(); n != "" {
		opts.Logger.Warn("index rebuilt", "vault", abs, "why", n)
	}
	l := &Library{root: abs, db: db, opts: opts, status: watch.Status{Mode: "starting"}}
	var ex index.Extractor = opts.Extract
	if ex == nil {
		l.ex = &lazyExtractor{opts: pdf.Options{Workers: opts.Workers, CacheDir: opts.CacheDir, Timeout: opts.Timeout, Logger: opts.Logger}}
		ex = l.ex
	}
	l.hand = &handoff{ex: ex}
	// Pages without readable text are read by OCR when the extractor can
	// (the default one can, when Tesseract is installed).
	// AGENTERO_OCR=off leaves them unread, cache included (tests of
	// papers without text).
	ocr, _ := ex.(index.OCRReader)
	if os.Getenv("AGENTERO_OCR") == "off" {
		ocr = nil
	}
	l.ix = index.NewIndexer(db, ex, index.SyncOptions{
		Workers:  opts.Workers,
		Logger:   opts.Logger,
		OCR:      ocr,
		Prepared: l.hand.take,
		Progress: func(p index.Progress) {
			opts.Emit(events.IndexProgress, events.IndexProgressEvent{Done: p.Done, Total: p.Total, Current: p.Current,
				Step: p.Step, Page: p.Page, Pages: p.Pages})
		},
	})
	return l, nil
}

// Root is the vault's absolute path.
func (l *Library) Root() string { return l.root }

// DB is the vault's index.
func (l *Library) DB() *index.DB { return l.db }

// Close stops the extractor and closes the index.
func (l *Library) Close() error {
	var errs []error
	if l.ex != nil {
		errs = append(errs, l.ex.Close())
	}
	errs = append(errs, l.db.Close())
	return errors.Join(errs...)
}

// Sync scans the vault and indexes what changed, emitting progress.
func (l *Library) Sync(ctx context.Context) (index.Stats, error) {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	l.setIndexing(true)
	defer l.setIndexing(false)
	// The time reported is the whole run the user waited for: the scan,
	// the index and the references, not the index alone.
	start := time.Now()
	snap, err := vault.Scan(l.root)
	if err != nil {
		return index.Stats{}, err
	}
	st, err := l.ix.Sync(ctx, snap)
	if err != nil {
		return st, fmt.Errorf("index vault: %w", err)
	}
	// Reference lists and the cited-by scan follow the index; a failure
	// there leaves the relations stale, never the index.
	if _, err := refs.Sync(ctx, l.db, l.root, refs.Options{Logger: l.opts.Logger}); err != nil && ctx.Err() == nil {
		l.opts.Logger.Warn("references not synced", "err", err)
	}
	l.mu.Lock()
	l.lastStats = st
	l.mu.Unlock()
	l.opts.Emit(events.IndexDone, events.IndexDoneEvent{Papers: st.Papers, Pages: st.Pages, Errors: len(st.Errors),
		Seconds: max(st.Seconds, time.Since(start).Seconds()), Extracted: st.Extracted, Removed: st.Removed})
	if st.Extracted > 0 || st.Removed > 0 {
		l.opts.Logger.Info("indexed", "papers", st.Papers, "extracted", st.Extracted, "removed", st.Removed, "seconds", st.Seconds)
	}
	l.opts.Emit(events.LibraryChanged, events.LibraryChangedEvent{})
	return st, nil
}

// SyncRelations brings the reference lists and the cited-by scan up to
// date, as Sync does after indexing; with writeSidecars it also writes each
// paper's stale or missing source/agentero-cite.json (SPEC §1: only when
// the user asks).
func (l *Library) SyncRelations(ctx context.Context, writeSidecars bool) (refs.Stats, error) {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	return refs.Sync(ctx, l.db, l.root, refs.Options{WriteSidecars: writeSidecars, Logger: l.opts.Logger})
}

func (l *Library) setStatus(s watch.Status) {
	l.mu.Lock()
	l.status = s
	l.mu.Unlock()
	l.opts.Emit(events.WatchStatus, events.WatchStatusEvent{Mode: string(s.Mode), Notice: s.Notice})
}

func (l *Library) setIndexing(on bool) {
	l.mu.Lock()
	l.indexing = on
	l.mu.Unlock()
}

// Watch follows changes in the vault until ctx ends, re-syncing after each
// burst of changes. It reports the watch mode (and any fallback to periodic
// rescans) through the watch:status event.
func (l *Library) Watch(ctx context.Context) error {
	w, err := watch.New(l.root, l.opts.Watch)
	if err != nil {
		l.setStatus(watch.Status{Mode: "off", Notice: "Agentero cannot watch this folder for changes; use Reindex after adding papers."})
		return fmt.Errorf("watch vault: %w", err)
	}
	changes := make(chan watch.Change, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- w.Run(ctx, changes, func(s watch.Status) {
			l.setStatus(s)
			// Changes made before the watches were in place were not seen:
			// one more sync covers them.
			select {
			case changes <- watch.Change{Rescan: true}:
			default:
			}
		})
	}()
	for {
		select {
		case <-ctx.Done():
			return <-errc
		case err := <-errc:
			return err
		case <-changes:
			// Drain what queued while the previous sync ran: one sync covers it all.
			for len(changes) > 0 {
				<-changes
			}
			if _, err := l.Sync(ctx); err != nil && ctx.Err() == nil {
				l.opts.Logger.Warn("sync after change failed", "err", err)
			}
		}
	}
}

// State is what the UI shows about the open vault.
type State struct {
	Path        string `json:"path"`
	Name        string `json:"name"`
	WatchMode   string `json:"watchMode"`
	WatchNotice string `json:"watchNotice"`
	// IndexNotice says why the index was rebuilt on open (the vault came
	// with one Agentero did not make); "" when it was not.
	IndexNotice string `json:"indexNotice"`
	Indexing    bool   `json:"indexing"`
}

// State reports the vault's path, watch mode and whether it is indexing.
func (l *Library) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return State{Path: l.root, Name: filepath.Base(l.root), WatchMode: string(l.status.Mode), WatchNotice: l.status.Notice,
		IndexNotice: l.db.Notice(), Indexing: l.indexing}
}

// lazyExtractor starts the wasm extractor on first use, so that opening an
// indexed, unchanged vault costs nothing.
type lazyExtractor struct {
	opts pdf.Options
	once sync.Once
	// mu guards ex, which start sets once and Close reads; it is held only
	// to read or set it (starting the extractor does not block).
	mu sync.Mutex
	ex *pdf.Extractor
}

func (z *lazyExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	return z.start().ExtractFile(ctx, f)
}

// Chars reads the characters of pages of f (pdf.Extractor.Chars).
func (z *lazyExtractor) Chars(ctx context.Context, f *os.File, pages []int) ([]pdf.PageChars, error) {
	return z.start().Chars(ctx, f, pages)
}

// OCR reads pages of f from their images (pdf.Extractor.OCR).
func (z *lazyExtractor) OCR(ctx context.Context, f *os.File, sha string, pages []int, read func(done int)) ([]pdf.PageChars, error) {
	return z.start().OCR(ctx, f, sha, pages, read)
}

// CanOCR reports whether Tesseract is installed (pdf.Extractor.CanOCR).
func (z *lazyExtractor) CanOCR() bool { return z.start().CanOCR() }

func (z *lazyExtractor) start() *pdf.Extractor {
	z.once.Do(func() {
		z.mu.Lock()
		z.ex = pdf.NewExtractor(z.opts)
		z.mu.Unlock()
	})
	return z.ex
}

func (z *lazyExtractor) Close() error {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.ex == nil {
		return nil
	}
	return z.ex.Close()
}
