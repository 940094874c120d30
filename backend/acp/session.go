package acp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/sandbox"
	"github.com/agentero/agentero/backend/userdir"
	sdk "github.com/coder/acp-go-sdk"
)

// session is the ACP session a turn runs in, and how it was obtained.
type session struct {
	proc     *Process
	id       sdk.SessionId
	action   string
	note     string
	handover string // the earlier conversation, for a session that has not seen it
}

// session decides the turn's session (SPEC §6). Same fingerprint and a
// provider session: continue it, by session/resume when offered, else
// session/load, with the same MCP servers. Otherwise, or when continuing
// fails: drop the old id and open a new session — from the warm pool when
// the turn needs no MCP — handing over the conversation shown so far.
func (h *Host) session(ctx context.Context, conv *conversation.Conversation, ag agentconf.Agent, p *plan.Plan, question string) (*session, error) {
	proc, err := h.procs.process(ctx, ag)
	if err != nil {
		return nil, err
	}
	cwd, err := h.cwd(conv.ID)
	if err != nil {
		return nil, err
	}
	note := ""
	if conv.ProviderSessionID != "" && conv.Agent == ag.Name && conv.Fingerprint == p.Fingerprint {
		s, err := h.continueSession(ctx, proc, conv, p, cwd)
		if err == nil {
			return s, nil
		}
		if proc.Exited() {
			if proc, err = h.procs.process(ctx, ag); err != nil {
				return nil, err
			}
		}
		note = fmt.Sprintf("could not continue the previous session (%s); started a new one", oneLine(err.Error()))
	} else if conv.ProviderSessionID != "" {
		switch {
		case conv.Agent != ag.Name:
			note = "another agent answers now: started a new session"
		default:
			note = "what this turn may read changed: started a new session"
		}
	}

	conv.RuntimeID = conv.ID + "." + newID("s")[2:]
	servers, err := h.servers(p, conv.RuntimeID, proc)
	if err != nil {
		return nil, err
	}
	s := &session{proc: proc, note: note}
	if len(conv.Messages) > 0 {
		reserve := compact.Tokens(p.Render()) + compact.Tokens(question)
		if snap, err := snapshot.Load(h.store.Dir(conv.ID)); err == nil && snap != nil {
			reserve += compact.Tokens(snap.Render())
		}
		res, err := h.compaction(ctx, conv.ID, ag.Name, 0, reserve, p.Mode == grant.ModeMCP, true)
		if err != nil {
			return nil, err
		}
		if len(res.Whole)+len(res.Pruned)+len(res.Summarized) > 0 {
			s.handover = res.Text // nothing after a /clear: nothing to hand over
		}
		if len(res.Tiers) > 0 {
			s.note = strings.TrimSpace(s.note + fmt.Sprintf("; the earlier conversation was compacted (%s) to fit the agent's window", strings.Join(res.Tiers, ", ")))
		}
		for _, n := range res.Notes {
			s.note = strings.TrimSpace(s.note + "; " + n)
		}
		s.note = strings.TrimPrefix(s.note, "; ")
	}
	if p.Mode != grant.ModeMCP {
		if id, ok := h.pool.take(ag.Name, proc); ok {
			s.id, s.action = id, ActionWarm
		}
	}
	if s.id == "" {
		resp, err := call(ctx, proc, func(c context.Context) (sdk.NewSessionResponse, error) {
			return proc.conn.NewSession(c, sdk.NewSessionRequest{Cwd: cwd, McpServers: servers})
		})
		var refusal *sdk.RequestError
		if errors.As(err, &refusal) {
			return s, proc.refusal(refusal) // a login it needs, or a refusal in its words
		}
		if err != nil {
			return s, err
		}
		s.id, s.action = resp.SessionId, ActionNew
	}
	s.proc.markLive(s.id)
	conv.ProviderSessionID, conv.Fingerprint, conv.Agent, conv.SessionSeen = string(s.id), p.Fingerprint, ag.Name, 0
	h.pool.refill(ag)
	return s, nil
}

func (h *Host) continueSession(ctx context.Context, proc *Process, conv *conversation.Conversation, p *plan.Plan, cwd string) (*session, error) {
	servers, err := h.servers(p, conv.RuntimeID, proc)
	if err != nil {
		return nil, err
	}
	id := sdk.SessionId(conv.ProviderSessionID)
	s := &session{proc: proc, id: id, handover: handover(conv.Messages[min(conv.SessionSeen, len(conv.Messages)):])}
	caps := proc.Capabilities()
	switch {
	case caps.Resume:
		_, err = call(ctx, proc, func(c context.Context) (sdk.ResumeSessionResponse, error) {
			return proc.conn.ResumeSession(c, sdk.ResumeSessionRequest{SessionId: id, Cwd: cwd, McpServers: servers})
		})
		s.action = ActionResume
	case caps.LoadSession:
		// No sink is set for the session while it loads: the history the
		// agent replays is already on screen and in the transcript.
		proc.setSink(id, nil)
		_, err = call(ctx, proc, func(c context.Context) (sdk.LoadSessionResponse, error) {
			return proc.conn.LoadSession(c, sdk.LoadSessionRequest{SessionId: id, Cwd: cwd, McpServers: servers})
		})
		s.action = ActionLoad
	case proc.isLive(id):
		s.action = ActionContinue
	default:
		err = fmt.Errorf("the agent offers neither session/resume nor session/load")
	}
	if err != nil {
		return nil, err
	}
	proc.markLive(id)
	return s, nil
}

// servers is the mcpServers list of a turn: agentero-context with the
// turn's grant when the plan is mcp, else empty. The grant is (re)written
// before the session sees it. A confined agent cannot reach the vault: its
// server runs here, outside the sandbox, and the agent starts a bridge to
// it instead (sandbox.Bridge).
func (h *Host) servers(p *plan.Plan, runtimeID string, proc *Process) ([]sdk.McpServer, error) {
	if p.Mode != grant.ModeMCP {
		return []sdk.McpServer{}, nil
	}
	path, err := h.WriteGrant(p, runtimeID)
	if err != nil {
		return nil, err
	}
	args := []string{"--agentero-context-mcp", path}
	if proc != nil && proc.jail.confined() {
		sock, err := h.socket(proc.jail, runtimeID, path)
		if err != nil {
			return nil, err
		}
		args = []string{sandbox.BridgeFlag, sock}
	}
	return []sdk.McpServer{{Stdio: &sdk.McpServerStdio{
		Name: "agentero-context", Command: h.exe, Args: args, Env: []sdk.EnvVariable{},
	}}}, nil
}

// endTurn closes the turn of the grant of runtimeID (grant.EndTurn). A
// failure is logged: the next turn's grant replaces it anyway.
func (h *Host) endTurn(runtimeID string) {
	if runtimeID == "" {
		return
	}
	h.mu.Lock()
	if h.approves != nil {
		h.approves.Forget(runtimeID) // approvals serve their turn only
	}
	h.mu.Unlock()
	if err := grant.EndTurn(h.vault, runtimeID); err != nil {
		h.log.Warn("close the turn's grant", "runtimeId", runtimeID, "err", err)
	}
}

// cwd is the conversation's working folder: empty and outside the vault, so
// an agent's own file tools never start inside the vault. It is
// <cache>/sessions/<conversation id>, every level private to the user and
// refused if someone else owns or may write it (userdir.Folder); the id is
// the one the turn was asked for (Store.Load never hands back another).
func (h *Host) cwd(conversationID string) (string, error) {
	if !grant.ValidRuntimeID(conversationID) {
		return "", conversation.ErrBadConversationID
	}
	base, err := h.cacheDir()
	if err != nil {
		return "", fmt.Errorf("make session folder: %w", err)
	}
	dir, err := userdir.Folder(base, "sessions", conversationID)
	if err != nil {
		return "", fmt.Errorf("make session folder: %w", err)
	}
	return dir, nil
}

// handover renders messages a new session has not seen, once, before the
// turn's question.
func handover(msgs []conversation.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<conversation-so-far>\nThis conversation began before this session. What was said so far:\n")
	for _, m := range msgs {
		role := "User"
		if m.Role == "assistant" {
			role = "Assistant"
		}
		fmt.Fprintf(&b, "\n%s: %s\n", role, strings.TrimSpace(m.Content))
		if len(m.Sources) > 0 {
			fmt.Fprintf(&b, "(sources: %s)\n", strings.Join(m.Sources, ", "))
		}
		if m.Error != "" {
			fmt.Fprintf(&b, "(this turn failed: %s)\n", m.Error)
		}
	}
	b.WriteString("</conversation-so-far>\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteGrant writes the grant of an mcp plan for the session runtimeID and
// returns its path: the plan's grant, bound to the conversation the runtime
// id is made for (context_history reads that conversation only) and, when
// it holds the document-writing tool, to the host's approvals. It is the
// one writer of a turn's grant: the host before each session sees it, and
// the workspace's Plan (what a turn of that conversation would get).
func (h *Host) WriteGrant(p *plan.Plan, runtimeID string) (string, error) {
	g := p.Grant(h.vault, runtimeID, h.opts.Now())
	if i := strings.LastIndexByte(runtimeID, '.'); i > 0 && conversation.OwnRuntimeID(runtimeID[:i], runtimeID) {
		g.Conversation = runtimeID[:i]
	}
	if slices.Contains(g.Tools, grant.WriteDocTool) {
		a, err := h.approvals()
		if err != nil {
			return "", err
		}
		g.Approvals = a.Path()
	}
	return grant.Write(g)
}
