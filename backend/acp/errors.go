package acp

import (
	"context"
	"errors"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/usererr"
)

// The host's domain errors. Callers classify a failure with errors.Is, or
// with ErrorCode, which maps them onto the codes the UI switches on. Each
// message is written for the user; wrapping adds the details.
var (
	// ErrAgentExited means the agent process ended: it crashed, was
	// killed, or spoke something other than ACP and was dropped.
	ErrAgentExited = errors.New("the agent stopped")
	// ErrTimeout means the agent did not answer within the turn's time.
	ErrTimeout = errors.New("the agent did not answer in time")
	// ErrUnknownAgent means no agent of the requested name is configured.
	ErrUnknownAgent = errors.New("the agent is not configured")
	// ErrNotStarted means the agent's command could not be run or did
	// not complete initialize.
	ErrNotStarted = errors.New("the agent could not be started")
	// ErrRefused means the agent answered session/new with an error.
	ErrRefused = errors.New("the agent refused a new session")
	// ErrBusy means a turn holds the conversation (or a /compact, /clear,
	// rename or delete of it): it is used by one at a time (Begin).
	ErrBusy = errors.New("this conversation is still answering; cancel it or wait")
	// ErrEmptyQuestion means a turn was asked with no question.
	ErrEmptyQuestion = errors.New("the question is empty")
	// ErrClosed means the host was closed: it starts nothing any more.
	ErrClosed = errors.New("the agent host is closed")

	// ErrInvalidAgent, ErrCommandNotFound and ErrRelativeCommand are the
	// agent configuration's (package agentconf).
	ErrInvalidAgent    = agentconf.ErrInvalidAgent
	ErrCommandNotFound = agentconf.ErrCommandNotFound
	ErrRelativeCommand = agentconf.ErrRelativeCommand
	// ErrNotACP means the program does not speak ACP: it answered
	// initialize with an error, or printed something that is not ACP.
	ErrNotACP = errors.New("the program is not an ACP agent")
	// ErrNeedsLogin means the agent will not open a session until the user
	// logs in (ACP's auth_required error).
	ErrNeedsLogin = errors.New("the agent needs you to log in")
)

// fail returns an error that reads msg and is each of kinds (a domain
// error, and the cause underneath: a context error, the agent's exit),
// whose own messages it does not repeat: they are Go's or JSON-RPC's, not
// the user's.
func fail(msg string, kinds ...error) error { return usererr.New(msg, kinds...) }

// ErrorCode returns the events code that classifies err for the UI ("" for
// nil): the user cancelled, the request was invalid, the agent needs a
// login, is not usable, timed out, refused or crashed. Anything else is
// CodeInternal, and its details belong in the log. The order matters where
// an error wraps several: a start that timed out is a configuration
// problem, a refusal to log in is a login to do, and a cancellation is
// never reported as the failure it interrupted.
func ErrorCode(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, context.Canceled), errors.Is(err, ErrClosed):
		return events.CodeCancelled
	case errors.Is(err, ErrBusy):
		return events.CodeBusy
	case errors.Is(err, ErrEmptyQuestion), errors.Is(err, conversation.ErrBadConversationID), errors.Is(err, plan.ErrBadRequest),
		errors.Is(err, ErrInvalidAgent), errors.Is(err, ErrBadOption):
		return events.CodeInvalid
	case errors.Is(err, ErrNoPermission):
		return events.CodeNotFound
	case errors.Is(err, ErrNeedsLogin):
		return events.CodeAuthRequired
	case errors.Is(err, ErrUnknownAgent), errors.Is(err, ErrNotStarted), errors.Is(err, ErrCommandNotFound),
		errors.Is(err, ErrRelativeCommand), errors.Is(err, ErrNotACP):
		return events.CodeNotConfigured
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return events.CodeTimeout
	case errors.Is(err, ErrRefused):
		return events.CodeRefused
	case errors.Is(err, ErrAgentExited):
		return events.CodeCrashed
	default:
		return events.CodeInternal
	}
}
