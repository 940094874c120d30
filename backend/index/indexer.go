package index

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentero/agentero/backend/metadata"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"golang.org/x/sync/errgroup"
)

// Extractor turns an open PDF file into pages. *pdf.Extractor is the real
// one. The file comes open from the vault's confined opener: the
// extractor reads that file, never a path.
type Extractor interface {
	ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error)
}

// Progress reports extraction progress: Done of Total papers, Current the
// ref being extracted. While a paper's pages are read by OCR (seconds a
// page), Step is StepOCR and Page of Pages says how far it is; Current
// is then that paper.
type Progress struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Current string `json:"current"`
	Step    string `json:"step,omitempty"`
	Page    int    `json:"page,omitempty"`
	Pages   int    `json:"pages,omitempty"`
}

// StepOCR is the Progress step of reading pages by OCR.
const StepOCR = "ocr"

// PaperError is a paper that could not be read, and why.
type PaperError struct {
	Ref   string `json:"ref"`
	Error string `json:"error"`
}

// Stats summarises one Sync.
type Stats struct {
	Papers       int          `json:"papers"`
	Pages        int          `json:"pages"`
	Extracted    int          `json:"extracted"` // papers whose PDF was read in this sync
	Removed      int          `json:"removed"`
	NoTextPapers []string     `json:"noTextPapers"`
	Errors       []PaperError `json:"errors"`
	// Warnings are papers indexed with something left out: a
	// metadata.json refused (too large, not a file), text cut at a cap.
	Warnings []PaperError `json:"warnings"`
	// Skipped are files of the vault left out of it: symlinks, FIFOs,
	// devices bearing a name the index reads (vault.Scan).
	Skipped []vault.Skipped `json:"skipped"`
	Seconds float64         `json:"seconds"`
}

// SyncOptions tunes an Indexer. Zero values mean defaults.
type SyncOptions struct {
	Workers int // parallel extractions; 0 = 2
	// Progress is called from the syncing goroutine, and for OCR steps
	// from the sync's workers, one call at a time; nil = none.
	Progress func(Progress)
	Logger   *slog.Logger // nil = discard
	Now      func() time.Time
	// Prepared, when set, returns a reading of a PDF with the given
	// SHA-256 (hex) made before the sync (a PDF being added was read to
	// name its folder), or nil; the PDF is then not extracted again.
	// Called from the sync's workers.
	Prepared func(sha string) *pdf.Document
	// OCR, when set, reads the pages without readable text (no text
	// layer, or a garbled one) from their images; nil leaves them
	// needing OCR. Called from the sync's workers.
	OCR OCRReader
}

// Indexer brings a DB in line with a vault. Sync calls are serialised.
type Indexer struct {
	db   *DB
	ex   Extractor
	opts SyncOptions
	// mu serialises Sync: it is held for a whole sync, extraction and
	// writes included, so that two syncs never write one index at once.
	mu sync.Mutex

	// progMu serialises calls of opts.Progress and guards last, the
	// papers' count last reported (which an OCR step repeats). Nothing
	// blocks under it but the callback.
	progMu sync.Mutex
	last   Progress
}

// progress reports p; an OCR step carries the papers' count last
// reported.
func (ix *Indexer) progress(p Progress) {
	ix.progMu.Lock()
	defer ix.progMu.Unlock()
	if p.Step == "" {
		ix.last = p
	} else {
		p.Done, p.Total = ix.last.Done, ix.last.Total
	}
	ix.opts.Progress(p)
}

// NewIndexer returns an Indexer writing to db with extractor ex.
func NewIndexer(db *DB, ex Extractor, opts SyncOptions) *Indexer {
	if opts.Workers <= 0 {
		opts.Workers = 2
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Progress == nil {
		opts.Progress = func(Progress) {}
	}
	return &Indexer{db: db, ex: ex, opts: opts}
}

// known is what the index remembers of a paper, to decide whether to re-read it.
type known struct {
	id                        int64
	ref, pdfPath, sha, status string
	size, mtime               int64
	version                   int
	metaPath                  string
	metaSize, metaMtime       int64
	extracted                 string
}

// reusable reports whether k holds a reading of its PDF's bytes that
// another ref with the same bytes (a move) or the same ref with a new mtime
// may keep: one this extractor version made, and not a failure. A failed
// reading is no verdict on the bytes: the file may have been moved or
// replaced while it was read.
func (k *known) reusable() bool {
	return k.version == pdf.ExtractorVersion && k.status != StatusPending && k.status != StatusError
}

type job struct {
	p   vault.Paper
	old *known // the row under the same ref, if any
	// reOCR: the paper is unchanged but was left needing OCR on a
	// machine without Tesseract, which is there now: read it again.
	reOCR bool
}

type result struct {
	job
	sha   string
	moved *known // an unchanged file that moved here from a removed ref
	touch bool   // same content as before: only size/mtime change
	doc   *pdf.Document
	noOCR bool // pages need OCR and Tesseract is not installed
	err   error
}

// Sync indexes what changed in snap since the last sync: new and changed
// PDFs are extracted (unchanged ones never are), moved folders keep their
// pages, removed papers and files leave the index. A paper that cannot be
// read is recorded with its error; it never stops the sync.
func (ix *Indexer) Sync(ctx context.Context, snap *vault.Snapshot) (Stats, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	start := ix.opts.Now()
	if err := ix.db.fillPaperText(ctx, ix.opts.Progress); err != nil {
		return Stats{}, err
	}
	rows, err := ix.db.known(ctx)
	if err != nil {
		return Stats{}, err
	}
	var jobs []job
	var stats Stats
	seen := map[string]bool{}
	probe := ocrProbe{ocr: ix.opts.OCR}
	for _, p := range snap.Papers {
		seen[p.Ref] = true
		old, ok := rows[p.Ref]
		if ok && old.pdfPath == p.PDF && old.size == p.Size && old.mtime == p.ModTime.UnixNano() &&
			old.version == pdf.ExtractorVersion && old.status != StatusPending {
			if old.needsOCR() && probe.canOCR() {
				jobs = append(jobs, job{p: p, old: old, reOCR: true})
				continue
			}
			if old.metaPath != p.Metadata || old.metaSize != p.MetaSize || old.metaMtime != p.MetaMod.UnixNano() {
				if err := ix.db.updateMetadata(ctx, snap.Root, old, p); err != nil {
					return stats, err
				}
			}
			continue
		}
		jobs = append(jobs, job{p: p, old: rows[p.Ref]})
	}
	removed := map[string]*known{} // by sha, for moves
	var gone []*known
	for ref, k := range rows {
		if !seen[ref] {
			gone = append(gone, k)
			if k.sha != "" && k.reusable() {
				removed[k.sha] = k
			}
		}
	}
	if err := ix.db.insertPending(ctx, snap.Root, jobs); err != nil {
		return stats, err
	}
	if err := ix.run(ctx, snap.Root, jobs, removed, &stats); err != nil {
		return stats, err
	}
	for _, k := range gone {
		if k.id == 0 { // claimed by a move
			continue
		}
		if _, err := ix.db.sql.ExecContext(ctx, `DELETE FROM papers WHERE id = ?`, k.id); err != nil {
			return stats, fmt.Errorf("remove %s: %w", k.ref, err)
		}
		stats.Removed++
	}
	if err := ix.syncFiles(ctx, snap); err != nil {
		return stats, err
	}
	if err := ix.db.tidyFTS(ctx, stats.Extracted); err != nil {
		ix.opts.Logger.Warn("tidy full-text index", "err", err)
	}
	if err := ix.db.summarise(ctx, &stats); err != nil {
		return stats, err
	}
	stats.Skipped = append([]vault.Skipped{}, snap.Skipped...)
	stats.Seconds = ix.opts.Now().Sub(start).Seconds()
	return stats, nil
}

// run extracts the jobs on Workers goroutines and writes each result from
// this goroutine, so that writes are serial and progress is ordered.
func (ix *Indexer) run(ctx context.Context, root string, jobs []job, removed map[string]*known, stats *Stats) error {
	if len(jobs) == 0 {
		return nil
	}
	ix.progress(Progress{Done: 0, Total: len(jobs)})
	// claimMu guards removed while the workers claim a moved file's old
	// row; it is held only for the map lookup and delete.
	var claimMu sync.Mutex
	claim := func(sha string) *known {
		claimMu.Lock()
		defer claimMu.Unlock()
		k := removed[sha]
		if k == nil {
			return nil
		}
		delete(removed, sha)
		moved := *k
		k.id = 0 // the old row now belongs to the new ref
		return &moved
	}
	g, gctx := errgroup.WithContext(ctx)
	in := make(chan job)
	out := make(chan result, ix.opts.Workers)
	// The largest files first: the last to finish is then a small one,
	// and no worker idles long at the end while another reads a big one.
	order := slices.Clone(jobs)
	slices.SortStableFunc(order, func(a, b job) int { return cmp.Compare(b.p.Size, a.p.Size) })
	g.Go(func() error {
		defer close(in)
		for _, j := range order {
			select {
			case in <- j:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	var workers sync.WaitGroup
	for range ix.opts.Workers {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			for j := range in {
				r := ix.read(gctx, root, j, claim)
				if errors.Is(r.err, pdf.ErrUnavailable) {
					// Not this paper's failure, and every other paper
					// would fail the same way: stop the run, record
					// nothing, and let the next sync retry them all.
					return r.err
				}
				if gctx.Err() != nil {
					// The run stopped while this one was read: what it
					// met is the stop, not the paper's verdict.
					return gctx.Err()
				}
				select {
				case out <- r:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	go func() { workers.Wait(); close(out) }()
	done := 0
	var writeErr error
	for r := range out {
		if writeErr != nil {
			continue // drain so the workers can finish
		}
		if err := ix.db.write(ctx, root, r, ix.opts.Now()); err != nil {
			writeErr = fmt.Errorf("index %s: %w", r.p.Ref, err)
			continue
		}
		if r.doc != nil || r.err != nil {
			stats.Extracted++
		}
		done++
		ix.progress(Progress{Done: done, Total: len(jobs), Current: r.p.Ref})
	}
	if err := g.Wait(); err != nil && writeErr == nil {
		return err
	}
	return writeErr
}

// read hashes a job's PDF and extracts it unless its content is already
// indexed (under the same ref, or under a ref that disappeared: a move).
// The PDF is opened once, through the vault's confined opener; the hash
// and the extractor read that open file.
func (ix *Indexer) read(ctx context.Context, root string, j job, claim func(string) *known) result {
	r := result{job: j}
	if j.p.Size == 0 {
		r.err = errors.New("empty file (0 bytes)")
		return r
	}
	f, err := vault.Open(root, j.p.PDF, vault.KindPDF)
	if err != nil {
		r.err = fmt.Errorf("cannot read the file: %w", err)
		return r
	}
	defer f.Close()
	if f.Real != j.p.PDF {
		// Scan lists regular files only: this one became a link since.
		r.err = fmt.Errorf("cannot read the file: %s became a symlink", j.p.PDF)
		return r
	}
	sha, err := hashFile(ctx, f)
	if err != nil {
		r.err = fmt.Errorf("cannot read the file: %w", err)
		return r
	}
	r.sha = sha
	if j.old != nil && j.old.sha == sha && j.old.reusable() && !j.reOCR {
		r.touch = true
		return r
	}
	if m := claim(sha); m != nil {
		r.moved = m
		return r
	}
	if ix.opts.Prepared != nil {
		if doc := ix.opts.Prepared(sha); doc != nil {
			r.doc, r.noOCR = ix.ocr(ctx, f.File, sha, j.p.Ref, doc)
			return r
		}
	}
	start := time.Now()
	doc, err := ix.ex.ExtractFile(ctx, f.File)
	if err != nil {
		r.err = err
		ix.opts.Logger.Info("extract failed", "ref", j.p.Ref, "err", err)
		return r
	}
	ix.opts.Logger.Debug("extracted", "ref", j.p.Ref, "pages", len(doc.Pages), "took", time.Since(start))
	r.doc, r.noOCR = ix.ocr(ctx, f.File, sha, j.p.Ref, doc)
	return r
}

func hashFile(ctx context.Context, f *vault.Handle) (string, error) {
	h := sha256.New()
	if _, err := f.Copy(ctx, h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// userError turns an extraction error into the sentence the library shows.
func userError(err error) string {
	switch {
	case errors.Is(err, pdf.ErrEncrypted):
		return "encrypted: the PDF needs a password to open"
	case errors.Is(err, pdf.ErrTimeout):
		return "reading the PDF took too long and was stopped"
	case errors.Is(err, pdf.ErrDamaged):
		return "damaged or not a PDF"
	case errors.Is(err, context.Canceled):
		return "indexing was cancelled"
	}
	return err.Error()
}

// readMetadata reads a paper's metadata.json; the warning says why one
// was ignored (malformed, too large, not a file, a link out of the vault).
func readMetadata(ctx context.Context, root string, p vault.Paper) (metadata.File, string) {
	if p.Metadata == "" {
		return metadata.File{}, ""
	}
	m, err := metadata.ReadPath(ctx, root, p.Metadata)
	var fe *vault.FileError
	switch {
	case errors.As(err, &fe):
		return metadata.File{}, "metadata.json ignored: " + strings.TrimPrefix(fe.Error(), p.Metadata+": ")
	case err != nil:
		return metadata.File{}, "metadata.json ignored: " + strings.TrimPrefix(err.Error(), "parse metadata.json: ")
	}
	return m, ""
}

func metadataJSON(m metadata.File) string {
	b, err := json.Marshal(m)
	if err != nil {
		return "{}"
	}
	return string(b)
}
