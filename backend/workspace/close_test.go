package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// stuckExtractor stands for a PDF engine that takes its time: Extract
// blocks until its context ends, so a sync runs until it is cancelled.
type stuckExtractor struct {
	entered chan struct{} // a value when an extraction starts
	active  atomic.Int32  // extractions running now
	calls   atomic.Int32
}

func newStuckExtractor() *stuckExtractor { return &stuckExtractor{entered: make(chan struct{}, 1)} }

func (s *stuckExtractor) ExtractFile(ctx context.Context, _ *os.File) (*pdf.Document, error) {
	s.active.Add(1)
	defer s.active.Add(-1)
	s.calls.Add(1)
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// fakeVault is a vault of n paper folders whose PDFs only an extractor stub
// reads.
func fakeVault(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		dir := filepath.Join(root, "papers", "p"+string(rune('a'+i)))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "paper.pdf"), []byte("%PDF-1.4 stand-in"), 0o644)
	}
	return root
}

// Close while the background sync is reading a PDF: it returns only after
// the sync stopped (no extraction still running) and the index is closed,
// and nothing logs an error about a closed database.
func TestCloseWaitsForSync(t *testing.T) {
	ex := newStuckExtractor()
	f := open(t, fakeVault(t, 3), workspace.Options{Extractor: ex, PoolSize: -1})
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	<-ex.entered
	if err := f.ws.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := ex.active.Load(); n != 0 {
		t.Errorf("%d extractions still running after Close", n)
	}
	if _, err := f.ws.Search(background(), "x", 5); !errors.Is(err, workspace.ErrClosed) {
		t.Errorf("Search after Close = %v, want ErrClosed", err)
	}
	if log := f.log.String(); strings.Contains(log, "closed") || strings.Contains(log, "level=ERROR") {
		t.Errorf("the sync failed on the way out:\n%s", log)
	}
	// The index was closed cleanly: it opens again, with the papers the
	// sync had listed.
	db, err := index.Open(index.Path(f.root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatalf("index after Close: %v", err)
	}
	db.Close()
	f.nothingRuns(t)
}

// The same with the real PDF engine and real papers: its worker processes
// are gone when Close returns.
func TestCloseDuringRealSync(t *testing.T) {
	root := corpustest.Vault(t, "bitcoin.pdf", "peercoin.pdf", "primecoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	f := open(t, root, workspace.Options{PoolSize: -1, Workers: 1})
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	f.rec.wait(t, "first paper read", func() bool {
		p, _ := f.rec.last(events.IndexProgress).(events.IndexProgressEvent)
		return p.Done >= 1
	})
	if err := f.ws.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if log := f.log.String(); strings.Contains(log, "closed") || strings.Contains(log, "level=ERROR") {
		t.Errorf("the sync failed on the way out:\n%s", log)
	}
	f.nothingRuns(t)
}

// Close while a turn waits for an agent that never answers: the turn is
// cancelled (the agent is told so) and awaited, the agent process stopped,
// and the conversation keeps the question.
func TestCloseWaitsForTurn(t *testing.T) {
	ag, rec := peer(t, "peer", "hang")
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1}, ag)
	q := workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Will you answer?"}
	if err := f.ws.Ask(q); err != nil {
		t.Fatal(err)
	}
	received(t, rec, "session/prompt")
	if err := f.ws.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	done, ok := as[events.AgentCompletedEvent](f.rec.last(events.AgentCompleted))
	if !ok || done.StopReason != "cancelled" {
		t.Errorf("the turn did not end before Close returned: completed = %+v, error = %+v", f.rec.last(events.AgentCompleted), f.rec.last(events.AgentError))
	}
	received(t, rec, "session/cancel")
	conv, err := conversation.NewStore(f.root, nil).Load("c1")
	if err != nil || len(conv.Messages) == 0 || conv.Messages[0].Content != q.Question {
		t.Errorf("conversation after Close = %+v, %v", conv, err)
	}
	f.nothingRuns(t)
}

// Close stops the warm pool: the built-in agent warmed at Start is gone.
func TestCloseStopsWarmPool(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{Extractor: newStuckExtractor()})
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	if err := f.ws.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	f.nothingRuns(t)
}

// After Close every call fails cleanly with ErrClosed, whose code is
// no-vault, and starts nothing.
func TestClosedWorkspaceRefuses(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.ws.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	q := workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Anyone?"}
	calls := map[string]error{
		"Ask":     f.ws.Ask(q),
		"Reindex": f.ws.Reindex(),
		"Start":   f.ws.Start(),
	}
	_, calls["Turn"] = f.ws.Turn(background(), q, nil)
	_, calls["Sync"] = f.ws.Sync(background())
	_, calls["Search"] = f.ws.Search(background(), "x", 5)
	_, calls["PreviewPlan"] = f.ws.PreviewPlan(background(), workspace.QuickChat())
	_, calls["Conversation"] = f.ws.Conversation("c1")
	_, calls["Relations"] = f.ws.Relations(background(), "papers/a", 5)
	for name, err := range calls {
		if !errors.Is(err, workspace.ErrClosed) || workspace.Code(err) != events.CodeNoVault {
			t.Errorf("%s after Close = %v (code %q), want ErrClosed (no-vault)", name, err, workspace.Code(err))
		}
	}
	f.nothingRuns(t)
}
