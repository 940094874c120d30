package acp

import (
	"context"
	"sync"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
)

// Turn is a conversation's turn: while it is held, the conversation is
// busy. The host's record of held turns (turns) is the one place that
// decides whether a conversation is busy, and a Turn the one owner of what
// a running turn is: its stop signal, the reading budget its plan is
// given, and the permission requests it waits on.
//
// Begin holds a conversation, Run answers one question in it and ends the
// turn, End ends a turn that will not run. A turn that ends frees its
// conversation before its last event (agent:completed or agent:error) is
// sent, so whoever reacts to that event can start the next turn.
type Turn struct {
	h  *Host
	id string // the conversation
	// budget is the reading budget of the turn's plan, the host's when
	// the turn began: a change in Settings applies to the next turn.
	budget grant.Budget

	// These are guarded by the host's turns.mu. stop cancels the running
	// turn's context, set while Run runs; stopped records a Cancel, which
	// a turn not yet running sees when it runs. asks are the permission
	// requests of the running turn, set while the agent answers.
	stop    context.CancelFunc
	stopped bool
	asks    *asking
}

// turns are the conversations held by a turn.
type turns struct {
	// mu guards held and the fields of the Turns in it that say so; it
	// is held only to read or change them, never while blocking.
	mu   sync.Mutex
	held map[string]*Turn // by conversation id
}

// Begin holds the conversation for a turn: ErrBusy when it is held
// already, ErrBadConversationID for an id that cannot name a folder. The
// caller runs it (Run) or ends it (End).
func (h *Host) Begin(conversationID string) (*Turn, error) {
	if !grant.ValidRuntimeID(conversationID) {
		return nil, conversation.ErrBadConversationID
	}
	t := &Turn{h: h, id: conversationID, budget: h.Budget()}
	h.turns.mu.Lock()
	defer h.turns.mu.Unlock()
	if h.turns.held[conversationID] != nil {
		return nil, ErrBusy
	}
	h.turns.held[conversationID] = t
	return t, nil
}

// End frees the turn's conversation; calling it again, or after Run, is
// harmless.
func (t *Turn) End() {
	t.h.turns.mu.Lock()
	if t.h.turns.held[t.id] == t {
		delete(t.h.turns.held, t.id)
	}
	t.h.turns.mu.Unlock()
}

// Cancel stops the turn: a running one ends as cancelled with what the
// agent said so far, one not yet run ends at once when it runs.
func (t *Turn) Cancel() {
	t.h.turns.mu.Lock()
	t.stopped = true
	stop := t.stop
	t.h.turns.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Busy reports whether a turn holds the conversation.
func (h *Host) Busy(conversationID string) bool {
	h.turns.mu.Lock()
	defer h.turns.mu.Unlock()
	return h.turns.held[conversationID] != nil
}

// Cancel stops the conversation's turn, if one holds it.
func (h *Host) Cancel(conversationID string) {
	h.turns.mu.Lock()
	t := h.turns.held[conversationID]
	h.turns.mu.Unlock()
	if t != nil {
		t.Cancel()
	}
}

// asksOf returns the permission requests the conversation's running turn
// waits on, or nil.
func (h *Host) asksOf(conversationID string) *asking {
	h.turns.mu.Lock()
	defer h.turns.mu.Unlock()
	if t := h.turns.held[conversationID]; t != nil {
		return t.asks
	}
	return nil
}

// setAsks records (or, with nil, forgets) the permission requests the
// turn's agent may send while it answers.
func (t *Turn) setAsks(a *asking) {
	t.h.turns.mu.Lock()
	t.asks = a
	t.h.turns.mu.Unlock()
}

// RenameConversation gives a conversation a title ("" = its first
// question again; conversation.Store.Rename), refused while a turn holds it
// (ErrBusy).
func (h *Host) RenameConversation(id, title string) (conversation.Summary, error) {
	t, err := h.Begin(id)
	if err != nil {
		return conversation.Summary{}, err
	}
	defer t.End()
	return h.store.Rename(id, title)
}

// DeleteConversation removes a conversation and its grants from disk
// (conversation.Store.Delete), refused while a turn holds it (ErrBusy).
func (h *Host) DeleteConversation(id string) error {
	t, err := h.Begin(id)
	if err != nil {
		return err
	}
	defer t.End()
	return h.store.Delete(id)
}

// Run answers req in the turn's conversation (req.ConversationID is the
// turn's) and ends the turn; see Host.Turn for what it does and returns.
// ctx and Cancel both stop it. The conversation is free again before the
// turn's last event is sent: emit's agent:completed or agent:error is held
// back until the turn has ended.
func (t *Turn) Run(ctx context.Context, req TurnRequest, emit events.Emitter) (*Result, error) {
	defer t.End()
	if emit == nil {
		emit = func(string, any) {}
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	req.ConversationID = t.id
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t.h.turns.mu.Lock()
	t.stop = cancel
	stopped := t.stopped
	t.h.turns.mu.Unlock()
	if stopped {
		cancel()
	}
	var last func()
	res, err := t.h.run(ctx, t, req, func(name string, payload any) {
		if name == events.AgentCompleted || name == events.AgentError {
			last = func() { emit(name, payload) }
			return
		}
		emit(name, payload)
	})
	t.End()
	if last != nil {
		last()
	}
	return res, err
}
