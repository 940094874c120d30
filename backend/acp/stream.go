package acp

import (
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/transcript"
	sdk "github.com/coder/acp-go-sdk"
)

// coalesceEvery is how often streamed text reaches the UI: often enough to
// read as live, rarely enough not to flood the event bridge.
const coalesceEvery = 50 * time.Millisecond

// stream collects one turn's session updates: the answer text, thoughts,
// tool calls and plans, and passes them on to the UI and the transcript in
// the order the agent sent them, with the turn's permission requests and
// decisions among them.
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
	record     func(transcript.Entry)
	now        func() time.Time
	loc        *locator      // where the paths tool calls name lie
	wake       chan struct{} // one slot: something is queued that should not wait for the tick
	stop       chan struct{} // closed by close
	done       chan struct{} // closed when the flusher has returned

	// mu guards the fields below. update and the flusher hold it only to
	// queue or take the queue: nobody emits, records or blocks under it.
	mu         sync.Mutex
	queue      []queued // not yet emitted or recorded, in the agent's order
	answer     strings.Builder
	thought    strings.Builder
	plan       []conversation.PlanStep       // the agent's latest plan; each one replaces the last
	tools      []*toolState                  // the turn's tool calls in the order they began
	toolAt     map[string]int                // index in tools by tool call id
	asked      map[string]sdk.ToolCallUpdate // tool calls that permission requests described before any notification did
	askedOrder []string                      // their ids, in the order they were asked
	closed     bool                          // set by close: later updates are dropped
}

// queued is one event for the UI and, for tool calls and plans, its
// transcript entry. A chunk still last in the queue grows with the next
// chunk of its kind.
type queued struct {
	name    string
	payload any
	chunk   *events.AgentChunkEvent // set instead of payload for text
	entry   *transcript.Entry
}

func newStream(conv, turn string, emit events.Emitter, record func(transcript.Entry), now func() time.Time, loc *locator) *stream {
	s := &stream{conv: conv, turn: turn, emit: emit, record: record, now: now, loc: loc,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), toolAt: map[string]int{}, asked: map[string]sdk.ToolCallUpdate{}}
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
// the turn's thoughts. Updates after close are dropped. Tool calls known
// only from permission requests become calls of the turn.
func (s *stream) close() {
	s.mu.Lock()
	// A call the agent asked permission for and never announced (or
	// whose announcement the turn's end overtook) is one of the turn's
	// calls, as its request described it.
	for _, id := range s.askedOrder {
		if _, ok := s.asked[id]; ok {
			full, _ := s.track(events.AgentToolEvent{ToolCallID: id}, nil)
			s.queueNow(events.AgentTool, full, nil)
		}
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	th := s.thought.String()
	s.mu.Unlock()
	if th != "" {
		s.record(transcript.Entry{At: s.now(), Kind: "thought", Text: th})
	}
}

// lastPlan returns the agent's latest plan of the turn, nil when it sent none.
func (s *stream) lastPlan() []conversation.PlanStep {
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
		ev := events.AgentToolEvent{ConversationID: s.conv, MessageID: s.turn, ToolCallID: string(tc.ToolCallId),
			Title: tc.Title, Status: string(tc.Status), Kind: string(tc.Kind), Input: inputText(tc.RawInput),
			Content: toolContent(tc.Content), Locations: s.loc.locations(tc.Locations, tc.RawInput)}
		full, _ := s.track(ev, tc.RawInput)
		s.queueNow(events.AgentTool, full, &transcript.Entry{At: s.now(), Kind: "tool_call", ToolCall: string(tc.ToolCallId), Text: tc.Title,
			Data: map[string]any{"kind": tc.Kind, "status": tc.Status, "input": tc.RawInput, "output": tc.RawOutput, "content": tc.Content,
				"locations": ev.Locations}})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		ev := s.updateEvent(sdk.ToolCallUpdate{ToolCallId: tu.ToolCallId, Title: tu.Title, Kind: tu.Kind, Status: tu.Status,
			Content: tu.Content, Locations: tu.Locations, RawInput: tu.RawInput})
		if full, isNew := s.track(ev, tu.RawInput); isNew {
			ev = full // the first the UI hears of this call: all of it
		}
		s.queueNow(events.AgentTool, ev, &transcript.Entry{At: s.now(), Kind: "tool_update", ToolCall: string(tu.ToolCallId),
			Data: map[string]any{"status": tu.Status, "output": tu.RawOutput, "content": tu.Content, "locations": ev.Locations}})
	case u.Plan != nil:
		steps := make([]conversation.PlanStep, 0, len(u.Plan.Entries))
		entries := make([]events.PlanEntry, 0, len(u.Plan.Entries))
		for _, e := range u.Plan.Entries {
			steps = append(steps, conversation.PlanStep{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
			entries = append(entries, events.PlanEntry{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
		}
		s.plan = steps
		s.queueNow(events.AgentPlan, events.AgentPlanEvent{ConversationID: s.conv, MessageID: s.turn, Entries: entries},
			&transcript.Entry{At: s.now(), Kind: "plan", Data: u.Plan.Entries})
	}
}

// track records a tool call's new state and returns it, and whether the
// call is new. A new call that a permission request described first (as
// Gemini CLI announces one) starts from that description. Calls are kept
// in the order their notifications came: a permission request, which the
// connection may hand over before notifications the agent sent earlier,
// never starts one. The caller holds mu.
func (s *stream) track(ev events.AgentToolEvent, raw any) (events.AgentToolEvent, bool) {
	if i, ok := s.toolAt[ev.ToolCallID]; ok {
		s.tools[i].merge(ev, raw)
		return s.tools[i].ev, false
	}
	t := &toolState{ev: events.AgentToolEvent{ConversationID: s.conv, MessageID: s.turn, ToolCallID: ev.ToolCallID}}
	if base, ok := s.asked[ev.ToolCallID]; ok {
		t.merge(s.updateEvent(base), base.RawInput)
		delete(s.asked, ev.ToolCallID)
	}
	t.merge(ev, raw)
	s.toolAt[ev.ToolCallID] = len(s.tools)
	s.tools = append(s.tools, t)
	return t.ev, true
}

// updateEvent is the event of a tool_call_update: what it changes. The
// caller holds mu.
func (s *stream) updateEvent(tu sdk.ToolCallUpdate) events.AgentToolEvent {
	ev := events.AgentToolEvent{ConversationID: s.conv, MessageID: s.turn, ToolCallID: string(tu.ToolCallId),
		Input: inputText(tu.RawInput), Content: toolContent(tu.Content)}
	if tu.Status != nil {
		ev.Status = string(*tu.Status)
	}
	if tu.Title != nil {
		ev.Title = *tu.Title
	}
	if tu.Kind != nil {
		ev.Kind = string(*tu.Kind)
	}
	raw := tu.RawInput
	if raw == nil {
		if i, ok := s.toolAt[ev.ToolCallID]; ok {
			raw = s.tools[i].raw
		} else if base, ok := s.asked[ev.ToolCallID]; ok {
			raw = base.RawInput
		}
	}
	ev.Locations = s.loc.locations(tu.Locations, raw)
	return ev
}

// toolFor returns what the turn knows so far of the tool call a permission
// request is about, and keeps the request's own description of it for a
// call not announced yet.
func (s *stream) toolFor(tu sdk.ToolCallUpdate) toolState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.toolAt[string(tu.ToolCallId)]; ok {
		return *s.tools[i]
	}
	if id := string(tu.ToolCallId); id != "" && !s.closed {
		if _, ok := s.asked[id]; !ok {
			s.askedOrder = append(s.askedOrder, id)
		}
		s.asked[id] = tu
	}
	return toolState{}
}

// tool returns the latest state of a tool call, false when the agent never
// announced it.
func (s *stream) tool(id string) (toolState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.toolAt[id]; ok {
		return *s.tools[i], true
	}
	return toolState{}, false
}

// permission queues a permission event and, for a decision, its
// transcript entry. It reports false once the stream is closed.
func (s *stream) permission(ev events.AgentPermissionEvent, e *transcript.Entry) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.queueNow(events.AgentPermission, ev, e)
	return true
}

// toolCalls returns the turn's tool calls in the order they began, each in
// its latest state.
func (s *stream) toolCalls() []events.AgentToolEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tools) == 0 {
		return nil
	}
	out := make([]events.AgentToolEvent, len(s.tools))
	for i, t := range s.tools {
		out[i] = t.ev
	}
	return out
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
func (s *stream) queueNow(name string, payload any, e *transcript.Entry) {
	s.queue = append(s.queue, queued{name: name, payload: payload, entry: e})
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}
