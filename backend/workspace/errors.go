package workspace

import (
	"errors"
	"io/fs"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/usererr"
	"github.com/agentero/agentero/backend/vault"
)

// Domain errors: what the user is told went wrong, each with its code
// (Code). Everything else is internal.
var (
	// ErrNoVault is a call that needs an open vault when none is open.
	ErrNoVault = errors.New("no vault is open")
	// ErrClosed is a call on a workspace after Close (the vault was
	// switched or the app is quitting).
	ErrClosed = errors.New("the vault was closed")
	// ErrBusy is a question to a conversation that is still answering.
	// It is the host's own (acp.ErrBusy): one error whichever refused.
	ErrBusy = acp.ErrBusy
	// ErrInvalid marks a request the user can fix; the message says how.
	ErrInvalid = errors.New("invalid request")
	// ErrNotFound marks a paper, conversation, agent or file that does not
	// exist.
	ErrNotFound = errors.New("not found")
	// ErrNotConfigured marks an agent that is unknown or badly configured.
	ErrNotConfigured = errors.New("agent not configured")
)

// invalid, notFound and notConfigured give err the kind of a domain error
// while keeping its own message.
func invalid(err error) error       { return usererr.Mark(ErrInvalid, err) }
func notFound(err error) error      { return usererr.Mark(ErrNotFound, err) }
func notConfigured(err error) error { return usererr.Mark(ErrNotConfigured, err) }

// Code says what kind of failure err is, as one of the events.Code*
// constants the UI switches on: the one place that decides it.
func Code(err error) string {
	var inputErr *docs.InputError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrUnverified): // before the check's own failure, which it wraps
		return events.CodeUnverified
	case errors.Is(err, ErrNoVault), errors.Is(err, ErrClosed):
		return events.CodeNoVault
	case errors.Is(err, ErrNotVault):
		return events.CodeNotVault
	case errors.Is(err, ErrBusy):
		return events.CodeBusy
	case errors.Is(err, ErrInvalid), errors.Is(err, plan.ErrBadRequest), errors.Is(err, conversation.ErrBadConversationID),
		errors.As(err, &inputErr), errors.Is(err, docs.ErrManifestTooLarge), errors.Is(err, vault.ErrStateLink),
		errors.Is(err, intake.ErrRefused):
		return events.CodeInvalid
	case errors.Is(err, ErrNotConfigured):
		return events.CodeNotConfigured
	case errors.Is(err, ErrNotFound), errors.Is(err, index.ErrNotFound), errors.Is(err, docs.ErrNotFound):
		return events.CodeNotFound
	}
	if code := acp.ErrorCode(err); code != events.CodeInternal {
		return code // the agent's errors, cancellation and timeouts
	}
	if errors.Is(err, fs.ErrNotExist) {
		return events.CodeNotFound
	}
	return events.CodeInternal
}

// Public is how err reaches the UI: its code and a message to show. An
// internal error keeps its message (it is often the most precise thing to
// show); the caller logs it in full.
func Public(err error) events.Error {
	return events.Error{Code: Code(err), Message: err.Error()}
}
