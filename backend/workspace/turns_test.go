package workspace_test

import (
	"errors"
	"testing"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
)

// A conversation answers one question at a time: a second Ask while the
// first runs is refused with the busy code, other conversations are not
// held up, and after a cancel the conversation takes questions again.
func TestAskOnBusyConversation(t *testing.T) {
	ag, rec := peer(t, "peer", "hang")
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1}, ag)
	q := workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Will you answer?"}
	if err := f.ws.Ask(q); err != nil {
		t.Fatal(err)
	}
	received(t, rec, "session/prompt")
	err := f.ws.Ask(q)
	if !errors.Is(err, workspace.ErrBusy) || workspace.Code(err) != events.CodeBusy {
		t.Errorf("second Ask = %v (code %q), want busy", err, workspace.Code(err))
	}
	if _, err := f.ws.Turn(background(), q, nil); workspace.Code(err) != events.CodeBusy {
		t.Errorf("Turn beside Ask = %v, want busy", err)
	}
	// (Once the agent runs: two first turns starting it at once are the
	// acp host's business, see its supervisor.)
	other := q
	other.ConversationID = "c2"
	if err := f.ws.Ask(other); err != nil {
		t.Errorf("another conversation: %v", err)
	}

	f.ws.CancelTurn("c1")
	var ended events.AgentCompletedEvent
	f.rec.wait(t, "c1 ended", func() bool {
		for _, e := range f.rec.all(events.AgentCompleted) {
			if ended, _ = as[events.AgentCompletedEvent](e); ended.ConversationID == "c1" {
				return true
			}
		}
		return false
	})
	if ended.StopReason != "cancelled" {
		t.Errorf("c1 ended with %q, want cancelled", ended.StopReason)
	}
	if err := f.ws.Ask(q); err != nil {
		t.Errorf("Ask once the turn ended: %v", err)
	}
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	f.nothingRuns(t)
}

// The UI may ask the next question as soon as a turn's agent:completed
// arrives: the conversation is free by then, so the Ask made from the
// handler is taken and answered, with no agent:error.
func TestAskFromCompleted(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	q := workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "What is a timestamp server?"}
	const asked = "test:asked" // the handler's Ask, recorded as an event with its error
	f.rec.then = func(name string, payload any) {
		if name == events.AgentCompleted && f.rec.count(events.AgentCompleted) == 1 && f.rec.count(asked) == 0 {
			next := q
			next.Question = "And proof-of-work?"
			f.rec.emit(asked, f.ws.Ask(next))
		}
	}
	if err := f.ws.Ask(q); err != nil {
		t.Fatal(err)
	}
	f.rec.wait(t, "the next Ask", func() bool { return f.rec.count(asked) == 1 })
	if err, _ := f.rec.last(asked).(error); err != nil {
		t.Fatalf("Ask from the agent:completed handler: %v", err)
	}
	f.rec.wait(t, "two turns answered", func() bool { return f.rec.count(events.AgentCompleted) == 2 || f.rec.count(events.AgentError) > 0 })
	if n := f.rec.count(events.AgentError); n != 0 {
		t.Errorf("%d agent:error, want none: %+v", n, f.rec.last(events.AgentError))
	}
	conv, err := f.ws.Conversation("c1")
	if err != nil || len(conv.Messages) != 4 {
		t.Fatalf("conversation: %d messages, %v; want both turns", len(conv.Messages), err)
	}
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	f.nothingRuns(t)
}

// Refusals that need no agent come back at once, each with its code.
func TestAskRefusals(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	for _, tt := range []struct {
		name string
		req  workspace.AskRequest
		code string
	}{
		{"empty question", workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "  "}, events.CodeInvalid},
		{"bad conversation id", workspace.AskRequest{ConversationID: "../c1", Request: workspace.QuickChat(), Question: "Why?"}, events.CodeInvalid},
		{"no conversation id", workspace.AskRequest{Request: workspace.QuickChat(), Question: "Why?"}, events.CodeInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := f.ws.Ask(tt.req); workspace.Code(err) != tt.code {
				t.Errorf("Ask = %v (code %q), want code %q", err, workspace.Code(err), tt.code)
			}
		})
	}
}

// A failure before the agent is reached (an unknown agent) ends the turn
// with agent:error carrying its code.
func TestAskUnknownAgentEmitsCode(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	q := workspace.AskRequest{ConversationID: "c1", Agent: "nobody", Request: workspace.QuickChat(), Question: "Why?"}
	if err := f.ws.Ask(q); err != nil {
		t.Fatal(err)
	}
	f.rec.wait(t, "agent:error", func() bool { return f.rec.count(events.AgentError) > 0 })
	got, _ := as[events.AgentErrorEvent](f.rec.last(events.AgentError))
	if got.ConversationID != "c1" || got.Code != events.CodeNotConfigured {
		t.Errorf("agent:error = %+v, want c1 not-configured", got)
	}
}
