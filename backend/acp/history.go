package acp

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/context/compact"
	sdk "github.com/coder/acp-go-sdk"
)

// DefaultContextWindow is assumed for agents whose window is not configured.
const DefaultContextWindow = 200_000

// historyShare is the part of the agent's window the handed-over history
// may take; the rest is for the frozen context, the plan and the answer.
const historyShare = 0.5

// Turns rebuilds a conversation's finished turns (answered or failed) from
// its transcript, for compaction; a turn still running is left out.
func Turns(entries []Entry) []compact.Turn {
	var out []compact.Turn
	done := map[string]bool{}
	for _, e := range entries {
		if e.Kind == "assistant" || e.Kind == "error" {
			done[e.Turn] = true
		}
	}
	index := map[string]int{}
	for line, e := range entries {
		i, ok := index[e.Turn]
		if !ok {
			if e.Kind != "user" || !done[e.Turn] {
				continue
			}
			out = append(out, compact.Turn{ID: e.Turn, User: e.Text, Line: line + 1})
			index[e.Turn] = len(out) - 1
			continue
		}
		t := &out[i]
		switch e.Kind {
		case "tool_call":
			t.Items = append(t.Items, compact.Item{Kind: "tool_call", Tool: e.Text})
		case "tool_update":
			if text := toolText(e.Data); text != "" {
				t.Items = append(t.Items, compact.Item{Kind: "tool_result", Tool: toolName(t, e.ToolCall, entries), Text: text})
			}
		case "assistant":
			t.Assistant = e.Text
			if m, ok := e.Data.(map[string]any); ok {
				if srcs, ok := m["sources"].([]any); ok {
					for _, s := range srcs {
						if str, ok := s.(string); ok {
							t.Sources = append(t.Sources, str)
						}
					}
				}
			}
		case "error":
			t.Error = e.Text
		}
	}
	return out
}

// toolText pulls the text a tool call returned out of a recorded update.
func toolText(data any) string {
	m, ok := data.(map[string]any)
	if !ok {
		return ""
	}
	var parts []string
	if out, ok := m["output"]; ok && out != nil {
		if s, ok := out.(string); ok {
			parts = append(parts, s)
		} else if b, err := json.Marshal(out); err == nil {
			parts = append(parts, string(b))
		}
	}
	if content, ok := m["content"].([]any); ok {
		for _, c := range content {
			if cm, ok := c.(map[string]any); ok {
				if inner, ok := cm["content"].(map[string]any); ok {
					if s, ok := inner["text"].(string); ok {
						parts = append(parts, s)
					}
				}
			}
		}
	}
	return strings.Join(parts, "\n")
}

func toolName(t *compact.Turn, id string, entries []Entry) string {
	for _, e := range entries {
		if e.Kind == "tool_call" && e.ToolCall == id {
			return e.Text
		}
	}
	return "tool"
}

// compaction is the summary state kept beside a conversation.
type compaction struct {
	Summary     string    `json:"summary"`
	SummarizedN int       `json:"summarizedN"`
	At          time.Time `json:"at"`
}

func (s *Store) loadCompaction(id string) compaction {
	var c compaction
	data, err := s.read(id, "compaction.json")
	if err == nil {
		json.Unmarshal(data, &c)
	}
	return c
}

func (s *Store) saveCompaction(id string, c compaction) error {
	dir, err := s.folder(id)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "compaction.json"), data, atomicfile.Private)
}

// Compaction computes what a new session of the conversation would be
// handed: the earlier turns, compacted for the agent's window (window 0 =
// the agent's own; agentName "" = the conversation's agent, else the
// default). A missing conversation has nothing to hand over.
//
// When the history must be summarized, the agent writes the summary in a
// session of its own: Compaction then starts the agent (through the same
// supervisor as turns, so it stays running for them and Close stops it),
// within ctx and TurnTimeout. With persist, the new summary is kept for the
// next compaction, and the conversation must not be answering (ErrBusy);
// the transcript itself is never touched.
func (h *Host) Compaction(ctx context.Context, conversationID, agentName string, window int, persist bool) (compact.Result, error) {
	if persist {
		unlock, ok := h.store.TryLock(conversationID)
		if !ok {
			return compact.Result{}, ErrBusy
		}
		defer unlock()
	}
	return h.compaction(ctx, conversationID, agentName, window, persist)
}

// compaction is Compaction for a caller that holds the conversation's lock.
func (h *Host) compaction(ctx context.Context, conversationID, agentName string, window int, persist bool) (compact.Result, error) {
	conv, err := h.store.Load(conversationID)
	if err != nil {
		return compact.Result{}, err
	}
	entries, err := h.store.Transcript(conversationID)
	if err != nil {
		return compact.Result{}, err
	}
	if agentName == "" {
		agentName = conv.Agent
	}
	ag, err := h.agent(agentName)
	if err != nil {
		return compact.Result{}, err
	}
	if window <= 0 {
		window = ag.ContextWindow
	}
	if window <= 0 {
		window = DefaultContextWindow
	}
	prev := h.store.loadCompaction(conversationID)
	turns := Turns(entries)
	res := compact.Compact(ctx, turns, compact.Options{
		Window: window, Budget: historyShare,
		Transcript: filepath.Join(h.store.Dir(conversationID), "transcript.jsonl"),
		Summary:    prev.Summary, SummarizedN: prev.SummarizedN,
	}, &summarizer{h: h, agent: ag})
	if persist && res.SummarizedN > prev.SummarizedN {
		if err := h.store.saveCompaction(conversationID, compaction{Summary: res.Summary, SummarizedN: res.SummarizedN, At: h.opts.Now()}); err != nil {
			return res, err
		}
	}
	return res, nil
}

// summarizer asks the conversation's agent for a summary in a session of
// its own, without tools, so the conversation's session is not disturbed.
// It runs in the caller's goroutine; the session is closed after (when
// the agent offers session/close) and ends with its process otherwise.
type summarizer struct {
	h     *Host
	agent Agent
}

func (s *summarizer) Summarize(ctx context.Context, prompt string) (string, error) {
	proc, err := s.h.procs.process(ctx, s.agent)
	if err != nil {
		return "", err
	}
	cwd, err := s.h.cwd("summaries")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, s.h.opts.TurnTimeout)
	defer cancel()
	resp, err := call(ctx, proc, func(c context.Context) (sdk.NewSessionResponse, error) {
		return proc.conn.NewSession(c, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	})
	if err != nil {
		return "", err
	}
	var text summaryText
	proc.setSink(resp.SessionId, text.update)
	_, err = call(ctx, proc, func(c context.Context) (sdk.PromptResponse, error) {
		return proc.conn.Prompt(c, sdk.PromptRequest{SessionId: resp.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock(prompt)}})
	})
	proc.setSink(resp.SessionId, nil)
	closeSession(ctx, slot{proc: proc, id: resp.SessionId})
	if err != nil {
		return "", err
	}
	summary := text.String()
	if strings.TrimSpace(summary) == "" {
		return "", errors.New("the agent returned an empty summary")
	}
	return summary, nil
}

// summaryText collects a summary's message chunks. A sink may still run
// after it is removed (a delivery already under way), so it is guarded.
type summaryText struct {
	mu sync.Mutex // guards b; held only to append or copy it
	b  strings.Builder
}

func (t *summaryText) update(u sdk.SessionUpdate) {
	if u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil {
		t.mu.Lock()
		t.b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		t.mu.Unlock()
	}
}

func (t *summaryText) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}
