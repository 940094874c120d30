package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
)

// A PDF being added is read once. The intake reads it to name its folder
// and write its metadata.json (AddReader); what it read is handed to the
// index, which finds it by the content's SHA-256 when it comes to the
// added copy, instead of extracting the same bytes again. Measured with
// BenchmarkAddCorpus (backend/workspace): adding the 41 corpus PDFs made
// 82 extractions before, 41 after.

// maxHandoff bounds the text held for the index between an add's reading
// and the sync after it; past it, a PDF is simply extracted again.
const maxHandoff = 64 << 20

// handoff holds the readings of PDFs being added until the index takes
// them (index.SyncOptions.Prepared: the index looks them up by the hash it
// computes of each PDF anyway).
type handoff struct {
	ex index.Extractor // what adds read with

	// mu guards the fields below; nothing blocks while holding it.
	mu    sync.Mutex
	docs  map[string]*pdf.Document // by the PDF's SHA-256 (hex)
	bytes int                      // the text of docs
}

func (h *handoff) keep(sum string, doc *pdf.Document) bool {
	n := docBytes(doc)
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.docs[sum]; ok || h.bytes+n > maxHandoff {
		return false
	}
	if h.docs == nil {
		h.docs = map[string]*pdf.Document{}
	}
	h.docs[sum] = doc
	h.bytes += n
	return true
}

func (h *handoff) take(sum string) *pdf.Document {
	h.mu.Lock()
	defer h.mu.Unlock()
	doc := h.docs[sum]
	if doc != nil {
		delete(h.docs, sum)
		h.bytes -= docBytes(doc)
	}
	return doc
}

func docBytes(doc *pdf.Document) int {
	n := 0
	for _, p := range doc.Pages {
		n += len(p.Text)
	}
	return n
}

// contentSum is the SHA-256 of f's content, read at offsets.
func contentSum(ctx context.Context, f *os.File) (string, error) {
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	r := io.NewSectionReader(f, 0, st.Size())
	buf := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := r.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// AddReader is an extractor for reading PDFs that are being added to the
// vault: each reading is also handed to the index, which takes it for the
// added copy instead of extracting it again. Call release after the sync
// that follows the add: it drops the readings the index did not take (a
// PDF that was not added after all).
func (l *Library) AddReader() (ex index.Extractor, release func()) {
	r := &addReader{h: l.hand}
	return r, r.release
}

type addReader struct {
	h    *handoff
	mu   sync.Mutex // guards sums
	sums []string   // the readings this reader handed over
}

func (r *addReader) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	doc, err := r.h.ex.ExtractFile(ctx, f)
	if err != nil {
		return nil, err
	}
	if sum, err := contentSum(ctx, f); err == nil && r.h.keep(sum, doc) {
		r.mu.Lock()
		r.sums = append(r.sums, sum)
		r.mu.Unlock()
	}
	return doc, nil
}

func (r *addReader) release() {
	r.mu.Lock()
	sums := r.sums
	r.sums = nil
	r.mu.Unlock()
	for _, s := range sums {
		r.h.take(s)
	}
}
