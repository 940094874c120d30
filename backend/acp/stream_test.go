package acp

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/transcript"
	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
)

// eventLog renders what a stream emits and records as short strings.
type eventLog struct {
	mu       sync.Mutex
	emitted  []string
	recorded []string
}

func (l *eventLog) emit(name string, payload any) {
	var s string
	switch e := payload.(type) {
	case events.AgentChunkEvent:
		s = e.Kind + ":" + e.Text
	case events.AgentToolEvent:
		s = "tool:" + e.ToolCallID + ":" + e.Status
	case events.AgentPlanEvent:
		s = fmt.Sprintf("plan:%d", len(e.Entries))
	default:
		s = fmt.Sprintf("unexpected %s %T", name, payload)
	}
	l.mu.Lock()
	l.emitted = append(l.emitted, s)
	l.mu.Unlock()
}

func (l *eventLog) record(e transcript.Entry) {
	l.mu.Lock()
	l.recorded = append(l.recorded, e.Kind)
	l.mu.Unlock()
}

func (l *eventLog) take() (emitted, recorded []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	emitted, recorded = l.emitted, l.recorded
	l.emitted, l.recorded = nil, nil
	return emitted, recorded
}

// TestStreamKeepsTheAgentsOrder feeds a stream a burst of text, thoughts,
// tool calls and a plan (in fake time): everything reaches the UI in the
// order the agent sent it, text coalesced between the other events; a tool
// call or plan goes at once, text waits for the tick; close sends the rest,
// stops the flusher and drops later updates.
func TestStreamKeepsTheAgentsOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log eventLog
		s := newStream("c", "m", log.emit, log.record, time.Now, newLocator(t.TempDir(), t.TempDir()))
		for _, u := range []sdk.SessionUpdate{
			sdk.UpdateAgentMessageText("a"),
			sdk.UpdateAgentMessageText("b"),
			sdk.StartToolCall("t1", "search", sdk.WithStartStatus(sdk.ToolCallStatusPending)),
			sdk.UpdateAgentThoughtText("x"),
			sdk.UpdateAgentMessageText("c"),
			sdk.UpdateToolCall("t1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)),
			sdk.UpdatePlan(sdk.PlanEntry{Content: "read", Priority: "high", Status: "pending"}),
		} {
			s.update(u)
		}
		synctest.Wait()
		emitted, recorded := log.take()
		want := []string{"message:ab", "tool:t1:pending", "thought:x", "message:c", "tool:t1:completed", "plan:1"}
		if diff := cmp.Diff(want, emitted); diff != "" {
			t.Errorf("emitted at once (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"tool_call", "tool_update", "plan"}, recorded); diff != "" {
			t.Errorf("recorded (-want +got):\n%s", diff)
		}

		s.update(sdk.UpdateAgentMessageText("d"))
		s.update(sdk.UpdateAgentMessageText("e"))
		synctest.Wait()
		if emitted, _ := log.take(); len(emitted) != 0 {
			t.Errorf("text went before the tick: %q", emitted)
		}
		time.Sleep(coalesceEvery)
		synctest.Wait()
		if emitted, _ := log.take(); !cmp.Equal(emitted, []string{"message:de"}) {
			t.Errorf("after a tick: emitted %q, want the text that waited for it", emitted)
		}

		s.update(sdk.UpdateAgentMessageText("f"))
		s.close()
		s.update(sdk.UpdateAgentMessageText("late"))
		synctest.Wait()
		emitted, recorded = log.take()
		if !cmp.Equal(emitted, []string{"message:f"}) || !cmp.Equal(recorded, []string{"thought"}) {
			t.Errorf("close: emitted %q recorded %q, want the pending text, then the thoughts recorded", emitted, recorded)
		}
		if got := s.text(); got != "abcdef" {
			t.Errorf("answer = %q, want abcdef (nothing after close)", got)
		}
		if diff := cmp.Diff([]conversation.PlanStep{{Content: "read", Priority: "high", Status: "pending"}}, s.lastPlan()); diff != "" {
			t.Errorf("last plan (-want +got):\n%s", diff)
		}
		// synctest.Test fails if the flusher (or its ticker) outlives the bubble.
	})
}

// TestStreamUpdatesFromTwoGoroutines sends text from one goroutine (as the
// connection delivers notifications) and refused permissions from another
// (as the SDK runs requests): each goroutine's updates keep their order.
func TestStreamUpdatesFromTwoGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log eventLog
		s := newStream("c", "m", log.emit, log.record, time.Now, newLocator(t.TempDir(), t.TempDir()))
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := range 200 {
				s.update(sdk.UpdateAgentMessageText(fmt.Sprintf("%d,", i)))
				if i%10 == 0 {
					time.Sleep(coalesceEvery / 3)
				}
			}
		})
		wg.Go(func() {
			for i := range 50 {
				s.update(sdk.StartToolCall(sdk.ToolCallId(fmt.Sprint(i)), "tool"))
				time.Sleep(coalesceEvery / 4)
			}
		})
		wg.Wait()
		s.close()
		emitted, _ := log.take()
		var text string
		next := 0
		for _, e := range emitted {
			switch {
			case len(e) > 8 && e[:8] == "message:":
				text += e[8:]
			case e == fmt.Sprintf("tool:%d:", next):
				next++
			default:
				t.Fatalf("event %q out of order (next tool %d)", e, next)
			}
		}
		var want string
		for i := range 200 {
			want += fmt.Sprintf("%d,", i)
		}
		if text != want || next != 50 {
			t.Errorf("text %q, %d tools; want the 200 numbers in order and 50 tools", text, next)
		}
	})
}

// TestStreamToolCallsFromPermissionRequests: a permission request handed
// over before the notifications sent ahead of it starts no tool call (the
// calls keep the agent's order), and a call that only a permission request
// announced (as Gemini CLI does) takes its title and kind from it at its
// first update, which sends the UI all of it.
func TestStreamToolCallsFromPermissionRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log eventLog
		s := newStream("c", "m", log.emit, log.record, time.Now, newLocator(t.TempDir(), t.TempDir()))
		title, kind := `{"query":"raft"}`, sdk.ToolKindOther
		s.toolFor(sdk.ToolCallUpdate{ToolCallId: "edit-1", Title: new("Edit notes.md")}) // overtook the notifications below
		s.toolFor(sdk.ToolCallUpdate{ToolCallId: "context_search-1", Title: &title, Kind: &kind})
		s.update(sdk.StartToolCall("read-1", "Read paper.pdf", sdk.WithStartKind(sdk.ToolKindRead)))
		s.update(sdk.StartToolCall("edit-1", "Edit notes.md", sdk.WithStartKind(sdk.ToolKindEdit)))
		s.update(sdk.UpdateToolCall("context_search-1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
		s.close()
		var got []string
		for _, tc := range s.toolCalls() {
			got = append(got, tc.ToolCallID+"/"+tc.Kind+"/"+tc.Title+"/"+tc.Status)
		}
		want := []string{"read-1/read/Read paper.pdf/", "edit-1/edit/Edit notes.md/", `context_search-1/other/{"query":"raft"}/completed`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tool calls (-want +got):\n%s", diff)
		}
		emitted, _ := log.take()
		if diff := cmp.Diff([]string{"tool:read-1:", "tool:edit-1:", "tool:context_search-1:completed"}, emitted); diff != "" {
			t.Errorf("emitted (-want +got):\n%s", diff)
		}
	})
}

// TestStreamKeepsAskedToolCalls: a call known only from its permission
// request when the turn ends (cancelled before the agent announced it) is
// still one of the turn's calls, as the request described it.
func TestStreamKeepsAskedToolCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log eventLog
		s := newStream("c", "m", log.emit, log.record, time.Now, newLocator(t.TempDir(), t.TempDir()))
		kind := sdk.ToolKindEdit
		s.toolFor(sdk.ToolCallUpdate{ToolCallId: "edit-1", Title: new("Edit notes.md"), Kind: &kind})
		s.close()
		got := s.toolCalls()
		if len(got) != 1 || got[0].Title != "Edit notes.md" || got[0].Kind != "edit" {
			t.Errorf("tool calls %+v, want the edit as asked", got)
		}
		if emitted, _ := log.take(); !cmp.Equal(emitted, []string{"tool:edit-1:"}) {
			t.Errorf("emitted %q, want the edit sent to the UI", emitted)
		}
	})
}
