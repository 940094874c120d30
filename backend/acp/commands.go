package acp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/transcript"
	sdk "github.com/coder/acp-go-sdk"
)

// Command is a slash command the chat offers after "/": Agentero's own
// (/compact, /clear) and those the conversation's agent advertises
// (available_commands_update), which are sent to it as the prompt.
type Command struct {
	Name        string `json:"name"` // without the slash
	Description string `json:"description"`
	Hint        string `json:"hint,omitempty"` // what may follow the name
	Builtin     bool   `json:"builtin"`        // run by Agentero, not sent to the agent
}

// BuiltinCommands are Agentero's own.
var BuiltinCommands = []Command{
	{Name: "compact", Description: "Compact the conversation now: the next turn starts a new session handed the compacted history", Builtin: true},
	{Name: "clear", Description: "Start over: a new session with an empty history (the transcript keeps every turn)", Builtin: true},
}

// noteCommands keeps the commands an agent advertised for a session (and
// as its latest); p.mu is held.
func (p *Process) noteCommands(id sdk.SessionId, cmds []sdk.AvailableCommand) {
	out := make([]Command, 0, len(cmds))
	for _, c := range cmds {
		cmd := Command{Name: strings.TrimPrefix(c.Name, "/"), Description: oneLine(c.Description)}
		if c.Input != nil && c.Input.Unstructured != nil {
			cmd.Hint = c.Input.Unstructured.Hint
		}
		if cmd.Name != "" {
			out = append(out, cmd)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if p.commands == nil {
		p.commands = map[sdk.SessionId][]Command{}
	}
	p.commands[id] = out
	p.lastCommands = out
}

// Commands lists the slash commands of a conversation: Agentero's own,
// then those its agent advertised for its session (or, before it has one,
// for the agent's latest session), leaving out any that shadow ours.
func (h *Host) Commands(conversationID string) ([]Command, error) {
	conv, err := h.store.Load(conversationID)
	if err != nil {
		return nil, err
	}
	out := append([]Command{}, BuiltinCommands...)
	name := conv.Agent
	if name == "" {
		if cfg := h.agentConfig(); cfg != nil {
			name = cfg.Default
		}
	}
	proc := h.procs.running(name)
	if proc == nil {
		return out, nil
	}
	proc.mu.Lock()
	cmds, ok := proc.commands[sdk.SessionId(conv.ProviderSessionID)]
	if !ok {
		cmds = proc.lastCommands
	}
	proc.mu.Unlock()
	for _, c := range cmds {
		if c.Name != "compact" && c.Name != "clear" {
			out = append(out, c)
		}
	}
	return out, nil
}

// CompactNow is /compact: the conversation's history is compacted (and the
// summary kept) as for a new session of the conversation's agent, and its
// session is let go, so that the next turn starts a new session handed
// exactly that. The transcript records it and is otherwise untouched.
func (h *Host) CompactNow(ctx context.Context, conversationID string) (compact.Result, error) {
	t, err := h.Begin(conversationID)
	if err != nil {
		return compact.Result{}, err
	}
	defer t.End()
	conv, err := h.store.Load(conversationID)
	if err != nil {
		return compact.Result{}, err
	}
	if len(conv.Messages) == 0 {
		return compact.Result{}, fmt.Errorf("this conversation has nothing to compact yet")
	}
	res, err := h.compaction(ctx, conversationID, "", 0, 0, true, true)
	if err != nil {
		return res, err
	}
	conv.ProviderSessionID, conv.Fingerprint = "", ""
	if err := h.store.Save(conv); err != nil {
		return res, err
	}
	h.record(conv.ID, transcript.Entry{At: h.opts.Now(), Turn: "compact-" + newID("c")[2:], Kind: "compact",
		Data: map[string]any{"tiers": res.Tiers, "whole": res.Whole, "pruned": res.Pruned, "summarized": res.Summarized, "tokensAfter": res.TokensAfter, "window": res.Window}})
	return res, nil
}

// Clear is /clear: the conversation's next turn starts a new session with
// an empty history. The messages stay on screen and in the transcript
// (which records the clear); they are only no longer handed over.
func (h *Host) Clear(conversationID string) error {
	t, err := h.Begin(conversationID)
	if err != nil {
		return err
	}
	defer t.End()
	conv, err := h.store.Load(conversationID)
	if err != nil {
		return err
	}
	entries, err := h.store.Transcript(conversationID)
	if err != nil {
		return err
	}
	conv.ClearedTurns = len(Turns(entries))
	conv.ProviderSessionID, conv.Fingerprint = "", ""
	conv.SessionSeen = len(conv.Messages)
	if err := h.store.Save(conv); err != nil {
		return err
	}
	h.record(conv.ID, transcript.Entry{At: h.opts.Now(), Turn: "clear-" + newID("c")[2:], Kind: "clear", Data: map[string]any{"clearedTurns": conv.ClearedTurns}})
	return nil
}

// running returns the agent's process when one is running, else nil; it
// never starts one.
func (s *supervisor) running(name string) *Process {
	s.mu.Lock()
	p := s.procs[name]
	s.mu.Unlock()
	if p == nil || p.Exited() {
		return nil
	}
	return p
}
