package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/transcript"
	"github.com/agentero/agentero/backend/userdir"
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
	TurnTimeout time.Duration // the most a turn's session set-up, then its answer (not counting the user's time on permission requests), may take; 0 = 5 minutes
	PoolSize    int           // warm sessions kept per agent; 0 = 1, -1 = none
	PoolIdle    time.Duration // a warm session unused this long is closed; 0 = 10 minutes
	CacheDir    string        // where per-conversation working folders go; "" = userdir.Cache()
	Budget      grant.Budget  // the tools' budget in every plan; zero = grant.DefaultBudget()
	Now         func() time.Time
}

// Host runs turns for one vault.
//
// Concurrency: turns run in their callers' goroutines, any number at once
// (one per conversation: the host's turns record which conversations a
// Turn holds, and a second turn on a busy conversation fails with ErrBusy).
// The host's own goroutines belong to its parts, each of which
// waits for them: the supervisor's processes (one waiter each), the pool's
// workers (at most one per agent) and each turn's stream flusher (which the
// turn stops before it returns). An agent's permission request blocks the
// SDK goroutine that carries it until AnswerPermission answers it or its
// turn ends, which answers it cancelled before returning (see asking). Close stops and waits for all of them; the
// caller cancels and waits for its turns first, and a turn whose ctx ends
// returns promptly.
type Host struct {
	vault   string
	exe     string // this executable: the agentero-context MCP server
	store   *conversation.Store
	opts    HostOptions
	log     *slog.Logger
	procs   *supervisor // the agent processes
	bridges bridges     // the MCP servers of confined agents' turns
	pool    *pool       // the warm sessions
	cites   sourcer     // splits what a turn could cite into sources and consulted

	idx   Index // the vault's index: the papers plans are resolved against
	turns turns // the conversations held by a turn: the one record of busy

	// mu guards the fields below: budget and agents, which SetBudget and
	// SetAgents replace while turns run (a turn takes the budget when it
	// begins). It is held only to read or swap them.
	mu     sync.Mutex
	budget grant.Budget // the tools' budget of the plans of turns that begin now
	agents *agentconf.Agents
	// approves holds the user's approvals of write calls in memory, served
	// to the turns' agentero-context servers; nil until a grant offers a
	// tool that writes.
	approves *grant.Approvals
}

// NewHost returns a Host for the vault at vaultRoot whose index is idx.
// It starts nothing: agents are started by the first turn that needs them,
// by Warm, or by a Compaction that has to summarize.
func NewHost(vaultRoot, exe string, idx Index, agents *agentconf.Agents, opts HostOptions) *Host {
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
	h := &Host{vault: vaultRoot, exe: exe, store: conversation.NewStore(vaultRoot, opts.Logger), opts: opts, log: opts.Logger,
		procs: newSupervisor(opts.Logger), cites: sourcer{vault: vaultRoot, idx: idx}, idx: idx,
		turns: turns{held: map[string]*Turn{}}, budget: opts.Budget, agents: agents}
	h.procs.confine = h.jailFor
	h.pool = newPool(h)
	return h
}

// SetBudget changes the budget of the plans of turns that begin from now
// on (and so their fingerprint: the next turn of each conversation starts
// a new session); a turn already running keeps its own. It reports whether
// the budget changed.
func (h *Host) SetBudget(b grant.Budget) (changed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	changed = h.budget != b
	h.budget = b
	return changed
}

// Budget is the user's reading budget as the host has it (zero =
// grant.DefaultBudget()): what a turn that begins now is given, and what
// everything else that reads for the user (a plan's preview, the vault's
// own MCP server) asks for.
func (h *Host) Budget() grant.Budget {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.budget
}

// Resolver resolves plans as a turn beginning now would: with the user's
// current budget.
func (h *Host) Resolver() *plan.Resolver { return h.resolver(h.Budget()) }

func (h *Host) resolver(b grant.Budget) *plan.Resolver {
	return &plan.Resolver{Vault: h.vault, Papers: h.idx, Budget: b}
}

// SetAgents replaces the agent configuration; turns after this use it.
func (h *Host) SetAgents(a *agentconf.Agents) {
	h.mu.Lock()
	h.agents = a
	h.mu.Unlock()
}

func (h *Host) agentConfig() *agentconf.Agents {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.agents
}

// agent returns the configured agent of that name ("" = the default).
func (h *Host) agent(name string) (agentconf.Agent, error) {
	agents := h.agentConfig()
	if name == "" {
		name = agents.Default
	}
	ag := agents.Find(name)
	if ag == nil {
		return agentconf.Agent{}, fmt.Errorf("%w: %q", ErrUnknownAgent, name)
	}
	return *ag, nil
}

// Store is the host's conversation store.
func (h *Host) Store() *conversation.Store { return h.store }

// Close stops everything the host started and waits for it: the pool's
// workers first (and its warm sessions are closed), then every agent
// process, starting ones included. Turns still running fail with
// ErrAgentExited, and later calls that need an agent with ErrClosed.
// Calling Close again is harmless.
func (h *Host) Close() {
	h.pool.close()
	h.procs.close()
	h.bridges.close()
	h.mu.Lock()
	a := h.approves
	h.approves = nil
	h.mu.Unlock()
	if a != nil {
		a.Close()
	}
}

// approvals is the host's store of write approvals, started on first use
// in a folder of the user's cache private to the user.
func (h *Host) approvals() (*grant.Approvals, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.approves != nil {
		return h.approves, nil
	}
	base, err := h.cacheDir()
	if err != nil {
		return nil, fmt.Errorf("serve approvals: %w", err)
	}
	dir, err := userdir.Folder(base, "approvals")
	if err != nil {
		return nil, fmt.Errorf("serve approvals: %w", err)
	}
	a, err := grant.ListenApprovals(dir)
	if err != nil {
		return nil, err
	}
	h.approves = a
	return a, nil
}

// TurnRequest is one question in one conversation.
type TurnRequest struct {
	ConversationID string
	Agent          string // "" = the configured default
	Request        plan.Request
	Question       string
	// Unattended is a turn no one watches (the command line): permission
	// requests the policy does not allow are rejected instead of waiting
	// for an answer.
	Unattended bool
}

// SessionInfo says how the turn's session was obtained.
type SessionInfo struct {
	Action            string `json:"action"`
	ProviderSessionID string `json:"providerSessionId"`
	Fingerprint       string `json:"fingerprint"`
	MCP               bool   `json:"mcp"`
	Note              string `json:"note,omitempty"`
}

// Completed is the agent:completed payload; the name is kept for callers
// that know it from before the payloads moved to package events.
type Completed = events.AgentCompletedEvent

// Result is everything a turn produced.
type Result struct {
	Completed Completed   `json:"completed"`
	Session   SessionInfo `json:"session"`
	Plan      *plan.Plan  `json:"plan"`
	// Permissions are the turn's permission requests as decided, in the
	// order they were.
	Permissions []events.AgentPermissionEvent `json:"permissions"`
}

// TurnError is a turn that failed; the transcript keeps what came before the
// failure and the next turn starts a fresh session.
type TurnError struct {
	Session SessionInfo
	Err     error
}

func (e *TurnError) Error() string { return e.Err.Error() }
func (e *TurnError) Unwrap() error { return e.Err }

// check refuses a request no turn can answer (ErrEmptyQuestion).
func (req TurnRequest) check() error {
	if strings.TrimSpace(req.Question) == "" {
		return ErrEmptyQuestion
	}
	return nil
}

// Turn runs one turn: plan, grant, session decision, prompt, streaming,
// sources. emit receives the turn's UI events, in order and never two at
// once (from this goroutine and from the turn's stream flusher, which has
// stopped before Turn returns); the last of them, agent:completed or
// agent:error, is sent once the conversation is free again.
//
// Errors before the question is recorded (ErrEmptyQuestion, ErrBusy,
// ErrUnknownAgent, a bad request or conversation id, a conversation that
// cannot be saved) are returned as they are and nothing is sent. Later
// failures are recorded, sent as agent:error with their ErrorCode, and
// returned as *TurnError.
//
// When ctx ends while the agent answers, the SDK tells the agent to cancel
// and the turn ends at once, as cancelled, with what was said so far; the
// agent's late updates are dropped. Setting up the session and the prompt
// each have TurnTimeout: an agent that takes longer is killed (it is not
// reused) and the turn fails with ErrTimeout. The prompt's clock stops
// while a permission request waits for the user (AnswerPermission).
//
// The agent's permission requests follow SPEC §6: the turn's own
// agentero-context tools are allowed, the rest wait for AnswerPermission
// (or are rejected when req.Unattended); each is sent as agent:permission
// and recorded. The answer's sources are the citations its text uses; what
// else the tools returned is its consulted list.
//
// Turn is Begin, then Run: a caller that must know at once whether the
// conversation is free (the app's Ask, which answers in the background)
// calls them itself.
func (h *Host) Turn(ctx context.Context, req TurnRequest, emit events.Emitter) (*Result, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	t, err := h.Begin(req.ConversationID)
	if err != nil {
		return nil, err
	}
	return t.Run(ctx, req, emit)
}

// run is Run's turn, for a turn t that holds the conversation. What the
// turn leaves behind for its end (the grant's turn, the permission
// requests) it ends before it returns.
func (h *Host) run(ctx context.Context, t *Turn, req TurnRequest, emit events.Emitter) (*Result, error) {
	conv, err := h.store.Load(req.ConversationID)
	if err != nil {
		return nil, err
	}
	// Everything the turn writes for the conversation (transcript, state,
	// snapshot) goes in its folder: refuse the turn before anything is
	// written if that folder is not a real one inside the vault.
	if _, err := h.store.Folder(conv.ID); err != nil {
		return nil, err
	}
	ag, err := h.agent(req.Agent)
	if err != nil {
		return nil, err
	}
	resolver := h.resolver(t.budget)
	resolver.WriteDocs = ag.Writes()
	p, err := resolver.Resolve(ctx, req.Request)
	if err != nil {
		return nil, err
	}
	if conv.ProviderSessionID != "" {
		// Until the turn ends, the stored conversation has no session to
		// continue: if the app dies mid-turn (killed, out of power), the
		// next turn starts a new session, as after any failed turn, instead
		// of resuming the one the crash cut off. The turn's end stores the
		// session again.
		open := *conv
		open.ProviderSessionID, open.Fingerprint = "", ""
		if err := h.store.Save(&open); err != nil {
			return nil, fmt.Errorf("save conversation: %w", err)
		}
	}
	now := h.opts.Now()
	if conv.CreatedAt.IsZero() {
		conv.CreatedAt = now
		conv.Surface = req.Request.Surface
	}
	if conv.Paper == "" && req.Request.Surface == "sidebar" {
		conv.Paper = req.Request.CurrentPaper
	}
	userMsg := conversation.Message{ID: newID("m"), Role: "user", Content: req.Question, Agent: ag.Name, At: now}
	turn := userMsg.ID
	h.record(conv.ID, transcript.Entry{At: now, Turn: turn, Kind: "user", Text: req.Question, Data: map[string]any{"request": req.Request, "plan": p}})

	sctx, cancel := context.WithTimeout(ctx, h.opts.TurnTimeout)
	s, err := h.session(sctx, conv, ag, p, req.Question)
	cancel()
	// The turn's reading ends with it, however it ends: the grant's budget
	// is counted per turn, and a server the agent keeps reads nothing
	// until the next turn's grant is written.
	defer h.endTurn(conv.RuntimeID)
	info := SessionInfo{Fingerprint: p.Fingerprint, MCP: p.Mode == grant.ModeMCP}
	if s != nil {
		info.Action, info.ProviderSessionID, info.Note = s.action, string(s.id), s.note
	}
	if err != nil {
		if hung(ctx, err) {
			err = fmt.Errorf("%w (waited %v for a session)", ErrTimeout, h.opts.TurnTimeout)
			if s != nil {
				s.proc.Kill() // a hung agent is not reused
			}
		}
		return nil, h.fail(conv, turn, userMsg, info, err, emit)
	}
	emit(events.AgentStatus, events.AgentStatusEvent{ConversationID: conv.ID, MessageID: turn, Action: info.Action, Note: info.Note,
		Mode: p.Mode, Allowed: p.Allowed, Fingerprint: p.Fingerprint})
	h.record(conv.ID, transcript.Entry{At: h.opts.Now(), Turn: turn, Kind: "status", SessionID: string(s.id), Data: info})

	// A new session starts with the conversation's frozen context (built at
	// its first session and reused after); per-turn parts come after it.
	sent := conversation.SentPrompt{Turn: turn, At: h.opts.Now(), Agent: ag.Name, SessionID: string(s.id), Action: s.action, Tools: []string{}}
	if p.Mode == grant.ModeMCP {
		sent.Tools = p.Tools
	}
	var snap *snapshot.Snapshot
	// The frozen snapshot names a tool only when this session has it.
	// Sensitive documents stay out of a remote agent's prompt: the
	// request's remote (a session elsewhere, prompt-only) or the agent's
	// (its model is a service: every agent but the built-in one unless
	// marked local).
	sess := snapshot.Session{Tools: sent.Tools, Remote: req.Request.Remote || ag.Remote()}
	if s.action == ActionNew || s.action == ActionWarm {
		snap, _, err = snapshot.LoadOrBuild(h.store.Dir(conv.ID), h.vault, snapshot.Options{})
		if err != nil {
			return nil, h.fail(conv, turn, userMsg, info, fmt.Errorf("the vault's standing context could not be assembled: %w", err), emit)
		}
	}
	sent.Parts = PromptParts(snap, sess, p, s.handover, req.Question)
	var blocks []sdk.ContentBlock
	for _, part := range sent.Parts {
		blocks = append(blocks, sdk.TextBlock(part.Text))
	}
	if err := h.store.SaveLastPrompt(conv.ID, sent); err != nil {
		h.log.Warn("keep the sent prompt", "conversation", conv.ID, "err", err)
	}

	usagePath := grant.UsagePath(h.vault, conv.RuntimeID)
	offset := fileSize(usagePath)
	cwd, err := h.cwd(conv.ID)
	if err != nil {
		return nil, h.fail(conv, turn, userMsg, info, err, emit)
	}
	loc := newLocator(h.vault, cwd)
	st := newStream(conv.ID, turn, emit, func(e transcript.Entry) { e.Turn = turn; h.record(conv.ID, e) }, h.opts.Now, loc)
	tctx, clock := newTurnClock(ctx, h.opts.TurnTimeout)
	var g *grant.Grant
	if p.Mode == grant.ModeMCP {
		pg := p.Grant(h.vault, conv.RuntimeID, now)
		g = &pg
	}
	asks := newAsking(conv.ID, turn, g, mcp.Arguments(), req.Unattended, st, loc, clock.hold, h.opts.Now)
	runtimeID := conv.RuntimeID
	asks.approve = func(tool string) error {
		a, err := h.approvals()
		if err != nil {
			return err
		}
		a.Approve(runtimeID, tool)
		return nil
	}
	t.setAsks(asks)
	s.proc.setSink(s.id, st.update)
	s.proc.setAsker(s.id, asks.request)
	resp, err := call(tctx, s.proc, func(c context.Context) (sdk.PromptResponse, error) {
		return s.proc.conn.Prompt(c, sdk.PromptRequest{SessionId: s.id, Prompt: blocks})
	})
	expired := clock.stop()
	s.proc.setSink(s.id, nil)
	s.proc.setAsker(s.id, nil)
	t.setAsks(nil)
	by := byPolicy
	if ctx.Err() != nil {
		by = byUser
	}
	perms := asks.close(by)
	st.close()
	tools := st.toolCalls()
	if err != nil && ctx.Err() != nil && !s.proc.Exited() {
		// The user cancelled; the SDK has sent session/cancel.
		resp, err = sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	content := st.text()
	if err != nil {
		if expired && ctx.Err() == nil {
			err = fmt.Errorf("%w (waited %v)", ErrTimeout, h.opts.TurnTimeout)
			s.proc.Kill() // a hung agent is not reused
		}
		if content != "" || len(tools) > 0 || len(perms) > 0 {
			conv.Messages = append(conv.Messages, userMsg)
			userMsg = conversation.Message{ID: newID("m"), Role: "assistant", Content: content, Agent: ag.Name, Plan: st.lastPlan(),
				Tools: tools, Permissions: perms, At: h.opts.Now()}
		}
		return nil, h.fail(conv, turn, userMsg, info, err, emit)
	}
	got, uerr := readUsage(usagePath, offset)
	if uerr != nil {
		h.log.Warn("read usage", "err", uerr)
	}
	sources, consulted := h.cites.split(ctx, content, p.Evidence, got)
	checks := h.checkClaims(ctx, conv.ID, content, p)
	sb := s.proc.SandboxReport()
	reply := conversation.Message{ID: newID("m"), Role: "assistant", Content: content, Sources: sources, Consulted: consulted, Checks: checks, Agent: ag.Name,
		Plan: st.lastPlan(), Tools: tools, Permissions: perms, StopReason: string(resp.StopReason),
		Sandbox: string(sb.Kind), SandboxWhy: sb.Why, At: h.opts.Now()}
	conv.Messages = append(conv.Messages, userMsg, reply)
	conv.SessionSeen = len(conv.Messages)
	conv.UpdatedAt = reply.At
	h.record(conv.ID, transcript.Entry{At: reply.At, Turn: turn, Kind: "assistant", Text: content, SessionID: string(s.id),
		Data: map[string]any{"sources": sources, "consulted": consulted, "checks": checks, "stopReason": resp.StopReason,
			"sandbox": sb.Kind, "sandboxWhy": sb.Why}})
	if err := h.store.Save(conv); err != nil {
		return nil, err
	}
	done := events.AgentCompletedEvent{ConversationID: conv.ID, TurnID: turn, MessageID: reply.ID, Content: content, Sources: sources,
		Consulted: consulted, Checks: checks, StopReason: string(resp.StopReason), Agent: ag.Name,
		Sandbox: string(sb.Kind), SandboxWhy: sb.Why}
	emit(events.AgentCompleted, done)
	if perms == nil {
		perms = []events.AgentPermissionEvent{}
	}
	return &Result{Completed: done, Session: info, Plan: p, Permissions: perms}, nil
}

// checkTimeout bounds the claim check of one answer (it takes
// milliseconds; a stuck index must not hold the turn).
const checkTimeout = 10 * time.Second

// checkClaims is the claim check of an answer's citations against the
// pages they cite, within what the turn's plan allows (SPEC §6). It runs
// even when the user cancelled the turn, on what the agent wrote by then.
// A check that fails is logged and leaves the answer without checks: it
// never fails the turn.
func (h *Host) checkClaims(ctx context.Context, conversationID, content string, p *plan.Plan) (checks []citation.Check) {
	checks = []citation.Check{}
	lib, ok := h.cites.idx.(claim.Library)
	if !ok || content == "" {
		return checks
	}
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("check the answer's citations", "conversation", conversationID, "panic", r)
			checks = []citation.Check{}
		}
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), checkTimeout)
	defer cancel()
	g := &grant.Grant{Version: grant.Version, Vault: h.vault, Mode: grant.ModeMCP, Allowed: p.Allowed}
	got, err := claim.Check(ctx, content, lib, claim.Options{Vault: h.vault, Grant: g})
	if err != nil {
		h.log.Warn("check the answer's citations", "conversation", conversationID, "err", err)
		return checks
	}
	return got
}

// hung reports whether err is the expiry of one of the turn's own
// deadlines: not the caller's ctx, and not an agent that failed to start
// (whose initialize has a deadline of its own).
func hung(ctx context.Context, err error) bool {
	return errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && !errors.Is(err, ErrNotStarted)
}

// record appends to a conversation's transcript; a failed write is logged,
// since the turn goes on without it.
func (h *Host) record(conversationID string, e transcript.Entry) {
	if err := h.store.Append(conversationID, e); err != nil {
		h.log.Warn("append to transcript", "conversation", conversationID, "err", err)
	}
}

// fail ends a turn with an error: the transcript and the visible
// conversation keep everything up to the failure, and the provider session
// is dropped so that the next turn starts cleanly.
func (h *Host) fail(conv *conversation.Conversation, turn string, last conversation.Message, info SessionInfo, err error, emit events.Emitter) error {
	now := h.opts.Now()
	code := ErrorCode(err)
	h.record(conv.ID, transcript.Entry{At: now, Turn: turn, Kind: "error", Text: err.Error(), Data: map[string]any{"code": code}})
	last.Error, last.ErrorCode = err.Error(), code
	conv.Messages = append(conv.Messages, last)
	conv.ProviderSessionID, conv.Fingerprint = "", ""
	conv.UpdatedAt = now
	if serr := h.store.Save(conv); serr != nil {
		h.log.Warn("save conversation", "err", serr)
	}
	emit(events.AgentError, events.AgentErrorEvent{ConversationID: conv.ID, MessageID: turn, Code: code, Error: err.Error()})
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
