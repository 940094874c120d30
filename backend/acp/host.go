package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/events"
	sdk "github.com/coder/acp-go-sdk"
)

// Session actions a turn can take (SPEC §12 `ask`).
const (
	ActionNew      = "new"      // session/new
	ActionResume   = "resume"   // session/resume
	ActionLoad     = "load"     // session/load
	ActionWarm     = "warm"     // a pre-created session from the warm pool
	ActionContinue = "continue" // the session is live in this agent process and it offers neither resume nor load
)

// HostOptions tunes a Host. Zero values mean defaults.
type HostOptions struct {
	Logger      *slog.Logger
	TurnTimeout time.Duration // a turn that takes longer ends with an error; 0 = 5 minutes
	PoolSize    int           // warm sessions kept per agent; 0 = 1, -1 = none
	PoolIdle    time.Duration // a warm session unused this long is closed; 0 = 10 minutes
	CacheDir    string        // where per-conversation working folders go; "" = the user cache dir
	Budget      grant.Budget  // the tools' budget in every plan; zero = grant.DefaultBudget()
	Now         func() time.Time
}

// Host runs turns for one vault.
type Host struct {
	vault    string
	exe      string // this executable: the agentero-context MCP server
	resolver *plan.Resolver
	agents   *Agents
	store    *Store
	opts     HostOptions
	log      *slog.Logger

	mu    sync.Mutex
	procs map[string]*Process // live agent processes by agent name
	live  map[sdk.SessionId]*Process
	pool  *pool
}

// NewHost returns a Host for the vault at vaultRoot whose index is papers.
func NewHost(vaultRoot, exe string, papers plan.Papers, agents *Agents, opts HostOptions) *Host {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.TurnTimeout <= 0 {
		opts.TurnTimeout = 5 * time.Minute
	}
	if opts.PoolSize == 0 {
		opts.PoolSize = 1
	}
	if opts.PoolIdle <= 0 {
		opts.PoolIdle = 10 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(d, "agentero")
		} else {
			opts.CacheDir = filepath.Join(os.TempDir(), "agentero")
		}
	}
	h := &Host{vault: vaultRoot, exe: exe, resolver: &plan.Resolver{Vault: vaultRoot, Papers: papers, Budget: opts.Budget},
		agents: agents, store: NewStore(vaultRoot), opts: opts, log: opts.Logger,
		procs: map[string]*Process{}, live: map[sdk.SessionId]*Process{}}
	h.pool = newPool(h)
	return h
}

// SetBudget changes the budget of later plans (and so their fingerprint:
// the next turn of each conversation starts a new session).
func (h *Host) SetBudget(b grant.Budget) {
	h.mu.Lock()
	h.resolver = &plan.Resolver{Vault: h.resolver.Vault, Papers: h.resolver.Papers, Budget: b}
	h.mu.Unlock()
}

func (h *Host) planResolver() *plan.Resolver {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.resolver
}

// SetAgents replaces the agent configuration; turns after this use it.
func (h *Host) SetAgents(a *Agents) {
	h.mu.Lock()
	h.agents = a
	h.mu.Unlock()
}

func (h *Host) agentConfig() *Agents {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.agents
}

// Store is the host's conversation store.
func (h *Host) Store() *Store { return h.store }

// Close ends warm sessions and agent processes.
func (h *Host) Close() {
	h.pool.close()
	h.mu.Lock()
	procs := h.procs
	h.procs = map[string]*Process{}
	h.mu.Unlock()
	for _, p := range procs {
		p.Stop()
	}
}

// process returns the running process of an agent, starting it if needed.
func (h *Host) process(ctx context.Context, ag Agent) (*Process, error) {
	h.mu.Lock()
	p := h.procs[ag.Name]
	h.mu.Unlock()
	if p != nil && !p.Exited() {
		return p, nil
	}
	p, err := Start(ctx, ag, h.log)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.procs[ag.Name] = p
	h.mu.Unlock()
	return p, nil
}

func (h *Host) forget(p *Process) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.procs[p.agent.Name] == p {
		delete(h.procs, p.agent.Name)
	}
	for id, lp := range h.live {
		if lp == p {
			delete(h.live, id)
		}
	}
}

// TurnRequest is one question in one conversation.
type TurnRequest struct {
	ConversationID string
	Agent          string // "" = the configured default
	Request        plan.Request
	Question       string
}

// SessionInfo says how the turn's session was obtained.
type SessionInfo struct {
	Action            string `json:"action"`
	ProviderSessionID string `json:"providerSessionId"`
	Fingerprint       string `json:"fingerprint"`
	MCP               bool   `json:"mcp"`
	Note              string `json:"note,omitempty"`
}

// Completed is the agent:completed payload.
type Completed struct {
	ConversationID string   `json:"conversationId"`
	TurnID         string   `json:"turnId"` // the messageId of the turn's other events (the question's id)
	MessageID      string   `json:"messageId"`
	Content        string   `json:"content"`
	Sources        []string `json:"sources"`
	StopReason     string   `json:"stopReason"`
	Agent          string   `json:"agent"` // the agent that answered
}

// Result is everything a turn produced.
type Result struct {
	Completed Completed   `json:"completed"`
	Session   SessionInfo `json:"session"`
	Plan      *plan.Plan  `json:"plan"`
}

// TurnError is a turn that failed; the transcript keeps what came before the
// failure and the next turn starts a fresh session.
type TurnError struct {
	Session SessionInfo
	Err     error
}

func (e *TurnError) Error() string { return e.Err.Error() }
func (e *TurnError) Unwrap() error { return e.Err }

// Turn runs one turn: plan, grant, session decision, prompt, streaming,
// sources. emit receives the UI events of the turn.
func (h *Host) Turn(ctx context.Context, req TurnRequest, emit events.Emitter) (*Result, error) {
	if emit == nil {
		emit = func(string, any) {}
	}
	if strings.TrimSpace(req.Question) == "" {
		return nil, errors.New("the question is empty")
	}
	unlock := h.store.Lock(req.ConversationID)
	defer unlock()
	conv, err := h.store.Load(req.ConversationID)
	if err != nil {
		return nil, err
	}
	agents := h.agentConfig()
	name := req.Agent
	if name == "" {
		name = agents.Default
	}
	ag := agents.Find(name)
	if ag == nil {
		return nil, fmt.Errorf("no agent named %q is configured", name)
	}
	p, err := h.planResolver().Resolve(ctx, req.Request)
	if err != nil {
		return nil, err
	}
	now := h.opts.Now()
	if conv.CreatedAt.IsZero() {
		conv.CreatedAt = now
		conv.Surface = req.Request.Surface
	}
	userMsg := Message{ID: newID("m"), Role: "user", Content: req.Question, Agent: ag.Name, At: now}
	turn := userMsg.ID
	h.store.Append(conv.ID, Entry{At: now, Turn: turn, Kind: "user", Text: req.Question, Data: map[string]any{"request": req.Request, "plan": p}})

	s, err := h.session(ctx, conv, *ag, p)
	info := SessionInfo{Fingerprint: p.Fingerprint, MCP: p.Mode == grant.ModeMCP}
	if s != nil {
		info.Action, info.ProviderSessionID, info.Note = s.action, string(s.id), s.note
	}
	if err != nil {
		return nil, h.fail(conv, turn, userMsg, info, err, emit)
	}
	emit(events.AgentStatus, map[string]any{"conversationId": conv.ID, "messageId": turn, "action": info.Action, "note": info.Note,
		"mode": p.Mode, "allowed": p.Allowed, "fingerprint": p.Fingerprint})
	h.store.Append(conv.ID, Entry{At: h.opts.Now(), Turn: turn, Kind: "status", SessionID: string(s.id), Data: info})

	// A new session starts with the conversation's frozen context (built at
	// its first session and reused after); per-turn parts come after it.
	var blocks []sdk.ContentBlock
	if s.action == ActionNew || s.action == ActionWarm {
		snap, _, err := snapshot.LoadOrBuild(h.store.Dir(conv.ID), h.vault, snapshot.Options{})
		if err != nil {
			return nil, h.fail(conv, turn, userMsg, info, fmt.Errorf("the vault's standing context could not be assembled: %w", err), emit)
		}
		if text := snap.Render(); text != "" {
			blocks = append(blocks, sdk.TextBlock(text))
		}
	}
	blocks = append(blocks, sdk.TextBlock(p.Render()))
	if s.handover != "" {
		blocks = append(blocks, sdk.TextBlock(s.handover))
	}
	blocks = append(blocks, sdk.TextBlock(req.Question))

	usagePath := filepath.Join(filepath.Dir(grant.Path(h.vault, conv.RuntimeID)), "usage.jsonl")
	offset := fileSize(usagePath)
	st := newStream(conv.ID, turn, emit, func(e Entry) { e.Turn = turn; h.store.Append(conv.ID, e) }, h.opts.Now)
	s.proc.setSink(s.id, st.update)
	tctx, cancel := context.WithTimeout(ctx, h.opts.TurnTimeout)
	resp, err := call(tctx, s.proc, func(c context.Context) (sdk.PromptResponse, error) {
		return s.proc.conn.Prompt(c, sdk.PromptRequest{SessionId: s.id, Prompt: blocks})
	})
	cancel()
	if err != nil && ctx.Err() != nil && !s.proc.Exited() {
		// The user cancelled: tell the agent and give it a moment to stop.
		s.proc.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: s.id})
		resp, err = sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	st.close()
	s.proc.setSink(s.id, nil)
	content := st.text()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("the agent did not answer within %v", h.opts.TurnTimeout)
			s.proc.Kill() // a hung agent is not reused
		}
		if s.proc.Exited() {
			h.forget(s.proc)
		}
		userMsg.Content = req.Question
		if content != "" {
			conv.Messages = append(conv.Messages, userMsg)
			userMsg = Message{ID: newID("m"), Role: "assistant", Content: content, Agent: ag.Name, Plan: st.lastPlan(), At: h.opts.Now()}
		}
		return nil, h.fail(conv, turn, userMsg, info, err, emit)
	}
	sources, serr := readSources(usagePath, offset)
	if serr != nil {
		h.log.Warn("read usage", "err", serr)
	}
	reply := Message{ID: newID("m"), Role: "assistant", Content: content, Sources: sources, Agent: ag.Name, Plan: st.lastPlan(),
		At: h.opts.Now()}
	conv.Messages = append(conv.Messages, userMsg, reply)
	conv.SessionSeen = len(conv.Messages)
	conv.UpdatedAt = reply.At
	h.store.Append(conv.ID, Entry{At: reply.At, Turn: turn, Kind: "assistant", Text: content, SessionID: string(s.id),
		Data: map[string]any{"sources": sources, "stopReason": resp.StopReason}})
	if err := h.store.Save(conv); err != nil {
		return nil, err
	}
	done := Completed{ConversationID: conv.ID, TurnID: turn, MessageID: reply.ID, Content: content, Sources: sources,
		StopReason: string(resp.StopReason), Agent: ag.Name}
	emit(events.AgentCompleted, done)
	return &Result{Completed: done, Session: info, Plan: p}, nil
}

// fail ends a turn with an error: the transcript and the visible
// conversation keep everything up to the failure, and the provider session
// is dropped so that the next turn starts cleanly.
func (h *Host) fail(conv *Conversation, turn string, last Message, info SessionInfo, err error, emit events.Emitter) error {
	now := h.opts.Now()
	h.store.Append(conv.ID, Entry{At: now, Turn: turn, Kind: "error", Text: err.Error()})
	last.Error = err.Error()
	conv.Messages = append(conv.Messages, last)
	conv.ProviderSessionID, conv.Fingerprint = "", ""
	conv.UpdatedAt = now
	if serr := h.store.Save(conv); serr != nil {
		h.log.Warn("save conversation", "err", serr)
	}
	emit(events.AgentError, map[string]any{"conversationId": conv.ID, "messageId": turn, "error": err.Error()})
	return &TurnError{Session: info, Err: err}
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

func newID(prefix string) string {
	var b [8]byte
	rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}
