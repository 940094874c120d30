package library_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/watch"
	"github.com/agentero/agentero/internal/corpustest"
)

const corpusDir = "../../../shared/corpus"

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	os.Exit(m.Run())
}

func addPaper(t *testing.T, root, ref, file string) {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(ref))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(filepath.Join(corpusDir, file))
	if err != nil {
		corpustest.Unavailable(t, "corpus not available (../shared/corpus beside the repository): %v", err)
	}
	defer in.Close()
	out, err := os.Create(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(out, in)
	out.Close()
}

// recorder keeps the events a Library emits.
type recorder struct {
	mu      sync.Mutex
	changed chan struct{}
	status  []events.WatchStatusEvent
}

func (r *recorder) emit(name string, payload any) {
	switch name {
	case events.LibraryChanged:
		select {
		case r.changed <- struct{}{}:
		default:
		}
	case events.WatchStatus:
		r.mu.Lock()
		r.status = append(r.status, payload.(events.WatchStatusEvent))
		r.mu.Unlock()
	}
}

// waitFor waits until the library's papers satisfy ok, re-checking after
// every library:changed event.
func waitFor(t *testing.T, lib *library.Library, rec *recorder, what string, ok func(map[string]index.Paper) bool) {
	t.Helper()
	start := time.Now()
	timeout := time.After(30 * time.Second)
	for {
		papers, err := lib.DB().Papers(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		byRef := map[string]index.Paper{}
		for _, p := range papers {
			byRef[p.Ref] = p
		}
		if ok(byRef) {
			t.Logf("%s: seen after %v", what, time.Since(start).Round(time.Millisecond))
			return
		}
		select {
		case <-rec.changed:
		case <-timeout:
			t.Fatalf("%s: index never followed; papers %v", what, byRef)
		}
	}
}

func TestWatchFollowsPaperFolders(t *testing.T) {
	root := t.TempDir()
	addPaper(t, root, "papers/peercoin", "peercoin.pdf")
	rec := &recorder{changed: make(chan struct{}, 1)}
	ex := pdf.NewExtractor(pdf.Options{Workers: 1})
	defer ex.Close()
	lib, err := library.Open(root, library.Options{Emit: rec.emit, Extract: ex, Workers: 1,
		Watch: watch.Options{Debounce: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- lib.Watch(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
	}()

	addPaper(t, root, "papers/crypto/primecoin", "primecoin.pdf")
	waitFor(t, lib, rec, "added", func(p map[string]index.Paper) bool {
		return p["papers/crypto/primecoin"].Status == index.StatusOK
	})

	if err := os.Rename(filepath.Join(root, "papers/crypto"), filepath.Join(root, "papers/currencies")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, lib, rec, "renamed", func(p map[string]index.Paper) bool {
		_, old := p["papers/crypto/primecoin"]
		return !old && p["papers/currencies/primecoin"].Pages == 6
	})

	if err := os.RemoveAll(filepath.Join(root, "papers/peercoin")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, lib, rec, "deleted", func(p map[string]index.Paper) bool {
		_, ok := p["papers/peercoin"]
		return !ok && len(p) == 1
	})

	rec.mu.Lock()
	if len(rec.status) == 0 || rec.status[0].Mode != string(watch.ModeInotify) {
		t.Errorf("watch status = %v, want inotify first", rec.status)
	}
	rec.mu.Unlock()
	if st := lib.State(); st.WatchMode != string(watch.ModeInotify) || st.Path != root {
		t.Errorf("state = %+v", st)
	}
}
