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
// tool calls and plans. Text is sent to the UI in coalesced chunks; tool
// calls and plans at once. Everything is recorded in the transcript.
type stream struct {
	conv, turn string
	emit       events.Emitter
	record     func(Entry)
	now        func() time.Time

	mu          sync.Mutex
	plan        []PlanStep // the agent's latest plan; each one replaces the last
	answer      strings.Builder
	thought     strings.Builder
	pendMsg     strings.Builder
	pendThought strings.Builder
	stop        chan struct{}
	done        chan struct{}
}

func newStream(conv, turn string, emit events.Emitter, record func(Entry), now func() time.Time) *stream {
	s := &stream{conv: conv, turn: turn, emit: emit, record: record, now: now, stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *stream) loop() {
	defer close(s.done)
	t := time.NewTicker(coalesceEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.flush()
		case <-s.stop:
			s.flush()
			return
		}
	}
}

func (s *stream) flush() {
	s.mu.Lock()
	msg, th := s.pendMsg.String(), s.pendThought.String()
	s.pendMsg.Reset()
	s.pendThought.Reset()
	s.mu.Unlock()
	if th != "" {
		s.emit(events.AgentChunk, map[string]any{"conversationId": s.conv, "messageId": s.turn, "kind": "thought", "text": th})
	}
	if msg != "" {
		s.emit(events.AgentChunk, map[string]any{"conversationId": s.conv, "messageId": s.turn, "kind": "message", "text": msg})
	}
}

// close flushes what is pending, records the thoughts and stops the loop.
func (s *stream) close() {
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

func (s *stream) update(u sdk.SessionUpdate) {
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			s.mu.Lock()
			s.answer.WriteString(t.Text)
			s.pendMsg.WriteString(t.Text)
			s.mu.Unlock()
		}
	case u.AgentThoughtChunk != nil:
		if t := u.AgentThoughtChunk.Content.Text; t != nil {
			s.mu.Lock()
			s.thought.WriteString(t.Text)
			s.pendThought.WriteString(t.Text)
			s.mu.Unlock()
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		s.flush()
		s.emit(events.AgentTool, map[string]any{"conversationId": s.conv, "messageId": s.turn, "toolCallId": tc.ToolCallId,
			"title": tc.Title, "status": tc.Status, "kind": tc.Kind})
		s.record(Entry{At: s.now(), Kind: "tool_call", ToolCall: string(tc.ToolCallId), Text: tc.Title,
			Data: map[string]any{"kind": tc.Kind, "status": tc.Status, "input": tc.RawInput, "output": tc.RawOutput, "content": tc.Content}})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		payload := map[string]any{"conversationId": s.conv, "messageId": s.turn, "toolCallId": tu.ToolCallId}
		if tu.Status != nil {
			payload["status"] = *tu.Status
		}
		if tu.Title != nil {
			payload["title"] = *tu.Title
		}
		s.emit(events.AgentTool, payload)
		s.record(Entry{At: s.now(), Kind: "tool_update", ToolCall: string(tu.ToolCallId),
			Data: map[string]any{"status": tu.Status, "output": tu.RawOutput, "content": tu.Content}})
	case u.Plan != nil:
		steps := make([]PlanStep, 0, len(u.Plan.Entries))
		for _, e := range u.Plan.Entries {
			steps = append(steps, PlanStep{Content: e.Content, Priority: string(e.Priority), Status: string(e.Status)})
		}
		s.mu.Lock()
		s.plan = steps
		s.mu.Unlock()
		s.emit(events.AgentPlan, map[string]any{"conversationId": s.conv, "messageId": s.turn, "entries": u.Plan.Entries})
		s.record(Entry{At: s.now(), Kind: "plan", Data: u.Plan.Entries})
	}
}
