package acp

import (
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/events"
	sdk "github.com/coder/acp-go-sdk"
)

// coalesceEvery is how often streamed text reaches the UI: often enough to
// read as live, rarely enough not to flood the event bridge.
const coalesceEvery = 50 * time.Millisecond

// stream collects one turn's session updates: the answer text, thoughts,
// tool calls and plans, and passes them on to the UI and the transcript in
// the order the agent sent them.
//
// update only queues; one flusher goroutine per stream, owned by the
// stream (close stops it and waits), emits and records what is queued. So
// a chunk can never overtake the tool call sent before it, and a slow UI
// bridge or disk never holds up the agent's connection. Text is sent in
// chunks coalesced for coalesceEvery; tool calls and plans wake the flusher
// at once, which sends the text queued before them first.
type stream struct {
	conv, turn string
	emit       events.Emitter
	record     func(Entry)
	now        func() time.Time
	wake       chan struct{} // one slot: something is queued that should not wait for the tick
	stop       chan struct{} // closed by close
	done       chan struct{} // closed when the flusher has returned

	// mu guards the fields below. update and the flusher hold it only to
	// queue or take the queue: nobody emits, records or blocks under it.
	mu      sync.Mutex
	queue   []queued // not yet emitted or recorded, in the agent's order
	answer  strings.Builder
	thought strings.Builder
	plan    []PlanStep // the agent's latest plan; each one replaces the last
	closed  bool       // set by close: later updates are dropped
}

// queued is one event for the UI and, for tool calls and plans, its
// transcript entry. A chunk still last in the queue grows with the next
// chunk of its kind.
type queued struct {
	name    string
	payload any
	chunk   *events.AgentChunkEvent // set instead of payload for text
	entry   *Entry
}

func newStream(conv, turn string, emit events.Emitter, record func(Entry), now func() time.Time) *stream {
	s := &stream{conv: conv, turn: turn, emit: emit, record: record, now: now,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.flusher()
	return s
}

// flusher is the stream's goroutine: the only one that emits or records.
func (s *stream) flusher() {
	defer close(s.done)
	t := time.NewTicker(coalesceEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-s.wake:
		case <-s.stop:
			s.flush()
			return
		}
		s.flush()
	}
}

func (s *stream) flush() {
	s.mu.Lock()
	q := s.queue
	s.queue = nil
	s.mu.Unlock()
	for _, it := range q {
		if it.entry != nil {
			s.record(*it.entry)
		}
		if it.chunk != nil {
			s.emit(events.AgentChunk, *it.chunk)
		} else {
			s.emit(it.name, it.payload)
		}
	}
}

// close stops the flusher once it has sent everything queued, then records
// the turn's thoughts. Updates after close are dropped.
func (s *stream) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	th := s.thought.String()
	s.mu.Unlock()
	if th != "" {
		s.record(Entry{At: s.now(), Kind: "thought", Text: th})
	}
}

// lastPlan returns the agent's latest plan of the turn, nil when it sent none.
func (s *stream) lastPlan() []PlanStep {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.plan
}

func (s *stream) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answer.String()
}

// update queues one session update. It is called by the connection's
// goroutines (notifications in order, permission requests beside them) and
// never blocks.
func (s *stream) update(u sdk.SessionUpdate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			s.answer.WriteString(t.Text)
			s.queueText(events.ChunkMessage, t.Text)
		}
	case u.AgentThoughtChunk != nil:
		if t := u.AgentThoughtChunk.Content.Text; t != nil {
			s.thought.WriteString(t.Text)
			s.queueText(events.ChunkThought, t.Text)
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		s.queueNow(events.AgentTool, events.AgentToolEvent{ConversationID: s.conv, MessageID: s.turn, ToolCallID: string(tc.ToolCallId),
			Title: tc.Title, Status: string(tc.Status), Kind: string(tc.Kind)},
			&Entry{At: s.now(), Kind: "tool_call", ToolCall: string(tc.ToolCallId), Text: tc.Title,
				Data: map[string]any{"kind": tc.Kind, "status": tc.Status, "input": tc.RawInput, "output": tc.RawOutput, "content": tc.Content}})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		ev := events.AgentToolEvent{ConversationID: s.conv, MessageID: s.turn, ToolCallID: string(tu.ToolCallId)}
		if tu.Status != nil {
			ev.Status = string(*tu.Status)
		}
		if tu.Title != nil {
			ev.Title = *tu.Title
		}
		if tu.Kind != nil {
			ev.Kind = string(*tu.Kind)
		}
		s.queueNow(events.AgentTool, ev, &Entry{At: s.now(), Kind: "tool_update", ToolCall: string(tu.ToolCallId),
			Data: map[string]any{"status": tu.Status, "output": tu.RawOutput, "content": tu.Content}})
	case u.Plan != nil:
		steps := make([]PlanStep, 0, len(u.Plan.Entries))
		entries := make([]events.PlanEntry, 0, len(u.Plan.Entries))
		for _, e := range u.Plan.Entries {
			steps = append(steps, PlanStep{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
			entries = append(entries, events.PlanEntry{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
		}
		s.plan = steps
		s.queueNow(events.AgentPlan, events.AgentPlanEvent{ConversationID: s.conv, MessageID: s.turn, Entries: entries},
			&Entry{At: s.now(), Kind: "plan", Data: u.Plan.Entries})
	}
}

// queueText queues text of a kind, growing the last queued chunk when it
// is of the same kind. The caller holds mu.
func (s *stream) queueText(kind, text string) {
	if n := len(s.queue); n > 0 {
		if last := s.queue[n-1].chunk; last != nil && last.Kind == kind {
			last.Text += text
			return
		}
	}
	s.queue = append(s.queue, queued{chunk: &events.AgentChunkEvent{ConversationID: s.conv, MessageID: s.turn, Kind: kind, Text: text}})
}

// queueNow queues an event that should reach the UI without waiting for
// the tick, and wakes the flusher. The caller holds mu.
func (s *stream) queueNow(name string, payload any, e *Entry) {
	s.queue = append(s.queue, queued{name: name, payload: payload, entry: e})
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}
