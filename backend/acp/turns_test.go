package acp_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/events"
)

// A handler of agent:completed may start the conversation's next turn at
// once: the conversation is free when the event is sent, and the next
// turn is answered in the same session (session/resume).
func TestNextTurnFromCompleted(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "resume", "")
	h := newHost(t, root, db, ag)
	var (
		mu   sync.Mutex
		next error
		ran  bool
		seen []string
	)
	var emit events.Emitter
	emit = func(name string, payload any) {
		mu.Lock()
		seen = append(seen, name)
		first := !ran && name == events.AgentCompleted
		ran = ran || first
		mu.Unlock()
		if !first {
			return
		}
		if h.Busy("c") {
			t.Error("the conversation is busy when its turn's agent:completed is sent")
		}
		_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: sidebar, Question: "And then?"}, emit)
		mu.Lock()
		next = err
		mu.Unlock()
	}
	if _, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: sidebar, Question: "What is proof-of-work?"}, emit); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !ran || next != nil {
		t.Fatalf("the turn started from agent:completed: ran %v, %v; want it answered", ran, next)
	}
	if n := count(seen, events.AgentCompleted); n != 2 || slices.Contains(seen, events.AgentError) {
		t.Errorf("events %v: want two agent:completed and no agent:error", seen)
	}
	if got := count(methods(records(t, rec)), "session/resume"); got != 1 {
		t.Errorf("session/resume sent %d times, want 1 (the second turn continues the first's session)", got)
	}
	conv, err := h.Store().Load("c")
	if err != nil || len(conv.Messages) != 4 || conv.Messages[3].Error != "" {
		t.Fatalf("stored conversation: %+v, %v; want two answered turns", conv, err)
	}
	if h.Busy("c") {
		t.Error("the conversation is still busy after its turns")
	}
}

// A turn that fails frees its conversation before its agent:error too: a
// handler of it may ask again (here the built-in agent, after the peer
// crashed).
func TestNextTurnFromError(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, _ := peer(t, "peer", "", "exit-mid-turn")
	h := newHost(t, root, db, ag)
	var next *acp.Result
	var nextErr error
	emit := func(name string, payload any) {
		if name != events.AgentError || next != nil || nextErr != nil {
			return
		}
		next, nextErr = h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Request: nothing, Question: "What is a timestamp server?"}, nil)
	}
	_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: nothing, Question: "Will you crash?"}, emit)
	if !errors.Is(err, acp.ErrAgentExited) {
		t.Fatalf("the peer's turn: %v, want ErrAgentExited", err)
	}
	if nextErr != nil || next == nil || next.Completed.Content == "" {
		t.Fatalf("the turn started from agent:error: %+v, %v; want an answer", next, nextErr)
	}
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// Busy is answered in one place, the host's turns: while a turn holds a
// conversation, every other use that changes it is refused with ErrBusy
// (another turn, /compact, /clear, a kept compaction, rename, delete) and
// other conversations are free; when the turn ends, all of them work.
func TestBusyIsTheTurns(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "", "hang")
	h := newHost(t, root, db, ag)
	ask(t, h, "c", "", nothing, "What is a timestamp server?") // something to compact, rename and delete
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := h.Turn(ctx, acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: nothing, Question: "first"}, nil)
		done <- err
	}()
	waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), "session/prompt") })
	if !h.Busy("c") || h.Busy("d") {
		t.Errorf("Busy(c) %v, Busy(d) %v; want true, false", h.Busy("c"), h.Busy("d"))
	}
	uses := []struct {
		name string
		use  func() error
	}{
		{"turn", func() error {
			_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Request: nothing, Question: "second"}, nil)
			return err
		}},
		{"begin", func() error {
			turn, err := h.Begin("c")
			if err == nil {
				turn.End()
			}
			return err
		}},
		{"compact", func() error { _, err := h.CompactNow(context.Background(), "c"); return err }},
		{"clear", func() error { return h.Clear("c") }},
		{"kept compaction", func() error { _, err := h.Compaction(context.Background(), "c", "", 0, true); return err }},
		{"rename", func() error { _, err := h.RenameConversation("c", "x"); return err }},
	}
	for _, u := range uses {
		if err := u.use(); !errors.Is(err, acp.ErrBusy) || acp.ErrorCode(err) != events.CodeBusy {
			t.Errorf("%s while answering: %v (code %q), want ErrBusy", u.name, err, acp.ErrorCode(err))
		}
	}
	if err := h.DeleteConversation("c"); !errors.Is(err, acp.ErrBusy) {
		t.Errorf("delete while answering: %v, want ErrBusy", err)
	}
	if _, err := h.RenameConversation("d", "x"); errors.Is(err, acp.ErrBusy) {
		t.Errorf("rename of another conversation: %v", err)
	}
	h.Cancel("c")
	if err := <-done; err != nil {
		t.Errorf("the cancelled turn: %v", err)
	}
	if h.Busy("c") {
		t.Error("busy after the turn ended")
	}
	for _, u := range uses[1:] {
		if err := u.use(); err != nil {
			t.Errorf("%s after the turn: %v", u.name, err)
		}
	}
	if err := h.DeleteConversation("c"); err != nil {
		t.Errorf("delete after the turn: %v", err)
	}
}
