package library

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

// countingExtractor "extracts" a file as one page holding its content.
type countingExtractor struct{ calls atomic.Int32 }

func (c *countingExtractor) ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error) {
	c.calls.Add(1)
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	return &pdf.Document{Pages: []pdf.Page{{Number: 1, Text: string(data)}}}, nil
}

func openAt(t *testing.T, p string, off int64) *os.File {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	f.Seek(off, 0) // the index hands its file over read to the end
	return f
}

// TestHandoff: a PDF read while being added is not extracted again for
// the copy with the same content; another content is; and release drops
// what the index did not take.
func TestHandoff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := write("src.pdf", "%PDF-1.4 paxos")
	copied := write("paper.pdf", "%PDF-1.4 paxos") // the vault's copy
	other := write("other.pdf", "%PDF-1.4 raft")
	left := write("left.pdf", "%PDF-1.4 not added after all")

	ex := &countingExtractor{}
	h := &handoff{ex: ex}
	l := &Library{hand: h}
	ctx := context.Background()

	// indexRead reads a file as the index does: the reading an add handed
	// over for its content (index.SyncOptions.Prepared, by the SHA-256 the
	// index computes), else an extraction.
	indexRead := func(f *os.File) (*pdf.Document, error) {
		sum, err := contentSum(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if doc := h.take(sum); doc != nil {
			return doc, nil
		}
		return ex.ExtractFile(ctx, f)
	}

	r, release := l.AddReader()
	for _, p := range []string{src, left} {
		if _, err := r.ExtractFile(ctx, openAt(t, p, 0)); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := indexRead(openAt(t, copied, 14))
	if err != nil || doc.Pages[0].Text != "%PDF-1.4 paxos" {
		t.Fatalf("the copy: %+v, %v", doc, err)
	}
	if got := ex.calls.Load(); got != 2 {
		t.Errorf("%d extractions after the copy was indexed, want 2 (the add's two readings)", got)
	}
	if _, err := indexRead(openAt(t, other, 0)); err != nil {
		t.Fatal(err)
	}
	if got := ex.calls.Load(); got != 3 {
		t.Errorf("%d extractions, want 3: a PDF the add did not read is extracted", got)
	}
	// Taken once: a second sync of the copy extracts it.
	if _, err := indexRead(openAt(t, copied, 0)); err != nil || ex.calls.Load() != 4 {
		t.Errorf("the copy indexed again: %d extractions, %v; want 4", ex.calls.Load(), err)
	}
	release()
	if len(h.docs) != 0 || h.bytes != 0 {
		t.Errorf("after release %d readings (%d bytes) are still held", len(h.docs), h.bytes)
	}
	if _, err := indexRead(openAt(t, left, 0)); err != nil || ex.calls.Load() != 5 {
		t.Errorf("after release: %d extractions, want 5", ex.calls.Load())
	}

	// Past maxHandoff nothing more is held.
	big := write("big.pdf", "%PDF-1.4 "+strings.Repeat("x", maxHandoff))
	r2, release2 := l.AddReader()
	defer release2()
	if _, err := r2.ExtractFile(ctx, openAt(t, big, 0)); err != nil {
		t.Fatal(err)
	}
	if len(h.docs) != 0 {
		t.Errorf("a reading past the cap is held (%d bytes)", h.bytes)
	}
}
