package acp

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/history"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/transcript"
	sdk "github.com/coder/acp-go-sdk"
)

// DefaultContextWindow is assumed for agents whose window is not configured.
const DefaultContextWindow = 200_000

// answerRoom is kept free in the agent's window for its answer.
const answerRoom = 4_000

// Turns rebuilds a conversation's finished turns (answered or failed) from
// its transcript, for compaction; a turn still running is left out.
func Turns(entries []transcript.Entry) []compact.Turn { return history.Turns(entries) }

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
//
// The history is fitted into the agent's whole window less room for the
// answer (and, for a session, less its snapshot, plan and question); placeholders
// and the summary point at turns through context_history.
func (h *Host) Compaction(ctx context.Context, conversationID, agentName string, window int, persist bool) (compact.Result, error) {
	if persist {
		t, err := h.Begin(conversationID)
		if err != nil {
			return compact.Result{}, err
		}
		defer t.End()
	}
	return h.compaction(ctx, conversationID, agentName, window, 0, true, persist)
}

// compaction is Compaction for a caller that holds the conversation (a Turn);
// reserve is what the rest of the prompt takes, in tokens, and tool says
// whether the session can call context_history.
func (h *Host) compaction(ctx context.Context, conversationID, agentName string, window, reserve int, tool, persist bool) (compact.Result, error) {
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
	prev := h.store.LoadCompaction(conversationID)
	turns := Turns(entries)
	res := compact.Compact(ctx, turns, compact.Options{
		Window: window, Reserve: reserve + min(answerRoom, window/8), HistoryTool: tool,
		Summary: prev.Summary, SummarizedN: prev.SummarizedN, Cleared: conv.ClearedTurns,
	}, &summarizer{h: h, agent: ag})
	if persist && res.SummarizedN > prev.SummarizedN {
		if err := h.store.SaveCompaction(conversationID, conversation.Compaction{Summary: res.Summary, SummarizedN: res.SummarizedN, At: h.opts.Now()}); err != nil {
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
	agent agentconf.Agent
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
