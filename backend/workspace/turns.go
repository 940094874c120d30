package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
)

// AskRequest is one question from the sidebar, Quick Chat or `agentero ask`.
type AskRequest struct {
	ConversationID string       `json:"conversationId"`
	Agent          string       `json:"agent"` // "" = the default agent
	Request        plan.Request `json:"request"`
	Question       string       `json:"question"`
}

// check refuses what no turn can run: an empty question, a conversation id
// that cannot name a folder, an agents file that cannot be read.
func (w *Workspace) check(req AskRequest) error {
	if strings.TrimSpace(req.Question) == "" {
		return invalid(errors.New("type a question first"))
	}
	if !grant.ValidRuntimeID(req.ConversationID) {
		return invalid(conversation.ErrBadConversationID)
	}
	return w.errNoAgents()
}

// Ask starts a turn in the background and returns at once: the answer
// streams as agent:* events and ends with agent:completed or agent:error,
// sent once the conversation takes the next question (a handler of either
// may Ask again). A conversation runs one turn at a time (ErrBusy, decided
// by the host); CancelTurn and Close stop it, and Close waits for it.
func (w *Workspace) Ask(req AskRequest) error {
	if err := w.check(req); err != nil {
		return err
	}
	t, err := w.host.Begin(req.ConversationID)
	if err != nil {
		return err
	}
	_, err = w.tasks.start(func(ctx context.Context) {
		_, err := t.Run(ctx, w.turnRequest(req), w.emit)
		var te *acp.TurnError
		if err != nil && !errors.As(err, &te) { // the host already sent the turn's own errors
			w.emit(events.AgentError, events.AgentErrorEvent{ConversationID: req.ConversationID, Code: Code(err), Error: err.Error()})
		}
	})
	if err != nil {
		t.End()
		return err
	}
	return nil
}

// Turn runs one turn in the foreground (`agentero ask`); emit receives its
// events as they stream. No one watches it: the agent's permission
// requests other than for the turn's context tools are rejected, and the
// result lists every decision. Like Ask, it is refused while the
// conversation is answering, and CancelTurn and Close stop it.
func (w *Workspace) Turn(ctx context.Context, req AskRequest, emit events.Emitter) (*acp.Result, error) {
	if err := w.check(req); err != nil {
		return nil, err
	}
	return call(ctx, w, func(ctx context.Context) (*acp.Result, error) {
		tr := w.turnRequest(req)
		tr.Unattended = true
		return w.host.Turn(ctx, tr, emit)
	})
}

func (w *Workspace) turnRequest(req AskRequest) acp.TurnRequest {
	return acp.TurnRequest{ConversationID: req.ConversationID, Agent: req.Agent, Request: req.Request, Question: req.Question}
}

// CancelTurn stops the conversation's running turn, if any.
func (w *Workspace) CancelTurn(conversationID string) { w.host.Cancel(conversationID) }

// AnswerPermission answers a permission request the conversation's running
// turn waits on (an agent:permission event without outcome) with one of
// the options the agent offered. An id that waits nowhere fails with the
// not-found code, an option the agent did not offer with invalid.
func (w *Workspace) AnswerPermission(conversationID, requestID, optionID string) error {
	_, err := call(context.Background(), w, func(context.Context) (struct{}, error) {
		if !grant.ValidRuntimeID(conversationID) {
			return struct{}{}, invalid(conversation.ErrBadConversationID)
		}
		return struct{}{}, w.host.AnswerPermission(conversationID, requestID, optionID)
	})
	return err
}

// Conversation returns a stored conversation (empty when new).
func (w *Workspace) Conversation(id string) (*conversation.Conversation, error) {
	return call(context.Background(), w, func(context.Context) (*conversation.Conversation, error) {
		return w.host.Store().Load(id)
	})
}

// Compaction is what a new session of a stored conversation would be handed
// of its history: the tiers applied and the turns kept whole, pruned and
// summarized, for the window of agentName ("" = the conversation's agent)
// or window tokens (0 = the agent's). It changes nothing.
func (w *Workspace) Compaction(ctx context.Context, conversationID, agentName string, window int) (compact.Result, error) {
	return call(ctx, w, func(ctx context.Context) (compact.Result, error) {
		if !grant.ValidRuntimeID(conversationID) {
			return compact.Result{}, invalid(conversation.ErrBadConversationID)
		}
		if _, err := os.Stat(w.host.Store().Dir(conversationID)); err != nil {
			return compact.Result{}, notFound(fmt.Errorf("no conversation %q in this vault", conversationID))
		}
		return w.host.Compaction(ctx, conversationID, agentName, window, false)
	})
}

// AgentView is what a new session of a conversation would be given: the
// frozen context, then the history as compacted for the agent's window.
type AgentView struct {
	Snapshot   string         `json:"snapshot"`
	Issues     []string       `json:"issues"`
	History    compact.Result `json:"history"`
	Transcript string         `json:"transcript"`
	// LastPrompt is what the last turn actually sent (snapshot as that
	// session got it, plan with its selections and evidence, handover,
	// question); nil before the first turn.
	LastPrompt *conversation.SentPrompt `json:"lastPrompt"`
	// LastTools are the last turn's tool calls and their results.
	LastTools []events.AgentToolEvent `json:"lastTools"`
}

// WhatAgentSees shows what the agent gets for a conversation ("what the
// agent sees" in the UI): the conversation's frozen snapshot, or the one a
// first session would get, and its compacted history. It changes nothing.
func (w *Workspace) WhatAgentSees(ctx context.Context, conversationID string) (*AgentView, error) {
	return call(ctx, w, func(ctx context.Context) (*AgentView, error) {
		if !grant.ValidRuntimeID(conversationID) {
			return nil, invalid(conversation.ErrBadConversationID)
		}
		dir := w.host.Store().Dir(conversationID)
		snap, err := snapshot.Load(dir)
		if err != nil {
			if snap, err = snapshot.Build(w.Root(), snapshot.Options{}); err != nil {
				return nil, err
			}
		}
		view := &AgentView{Snapshot: snap.Render(), Issues: []string{}, Transcript: filepath.Join(dir, "transcript.jsonl")}
		for _, is := range snap.Issues {
			view.Issues = append(view.Issues, is.Path+": "+is.Problem)
		}
		if view.History, err = w.host.Compaction(ctx, conversationID, "", 0, false); err != nil {
			return nil, err
		}
		if view.LastPrompt, err = w.host.Store().LastPrompt(conversationID); err != nil {
			return nil, err
		}
		view.LastTools = []events.AgentToolEvent{}
		if conv, err := w.host.Store().Load(conversationID); err == nil {
			for i := len(conv.Messages) - 1; i >= 0; i-- {
				if conv.Messages[i].Role == "assistant" {
					view.LastTools = append(view.LastTools, conv.Messages[i].Tools...)
					break
				}
			}
		}
		return view, nil
	})
}
