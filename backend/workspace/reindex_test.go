package workspace_test

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
)

// gateExtractor holds every extraction until the gate opens.
type gateExtractor struct {
	entered chan struct{}
	gate    chan struct{}
	calls   atomic.Int32
}

func (g *gateExtractor) ExtractFile(ctx context.Context, _ *os.File) (*pdf.Document, error) {
	g.calls.Add(1)
	select {
	case g.entered <- struct{}{}:
	default:
	}
	select {
	case <-g.gate:
		return nil, errors.New("not a PDF")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Reindex asked for again and again while one runs coalesces: one more
// scan follows the running one, covering all the asks.
func TestReindexCoalesces(t *testing.T) {
	ex := &gateExtractor{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	f := open(t, fakeVault(t, 1), workspace.Options{Extractor: ex, PoolSize: -1})
	if err := f.ws.Reindex(); err != nil {
		t.Fatal(err)
	}
	<-ex.entered
	if !f.ws.State().Indexing {
		t.Error("State().Indexing is false while a reindex runs")
	}
	for range 3 {
		if err := f.ws.Reindex(); err != nil {
			t.Fatal(err)
		}
	}
	close(ex.gate)
	f.rec.wait(t, "two scans", func() bool { return f.rec.count(events.IndexDone) >= 2 })
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	if n := f.rec.count(events.IndexDone); n != 2 {
		t.Errorf("%d scans for 4 Reindex calls, want 2 (the running one and one more)", n)
	}
	done, _ := as[events.IndexDoneEvent](f.rec.last(events.IndexDone))
	if done.Papers != 1 || done.Errors != 1 {
		t.Errorf("index:done = %+v, want 1 paper with 1 error", done)
	}
	f.nothingRuns(t)
}

// Reindex beside the background sync waits its turn: syncs of one vault
// never overlap, and both finish.
func TestReindexBesideBackgroundSync(t *testing.T) {
	ex := &gateExtractor{entered: make(chan struct{}, 1), gate: make(chan struct{})}
	f := open(t, fakeVault(t, 2), workspace.Options{Extractor: ex, PoolSize: -1})
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	<-ex.entered
	if err := f.ws.Reindex(); err != nil {
		t.Fatal(err)
	}
	close(ex.gate)
	f.rec.wait(t, "two scans", func() bool { return f.rec.count(events.IndexDone) >= 2 })
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	f.nothingRuns(t)
}
