package acp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	sdk "github.com/coder/acp-go-sdk"
)

func TestErrorCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"cancelled", fmt.Errorf("prompt: %w", context.Canceled), events.CodeCancelled},
		{"host closed", ErrClosed, events.CodeCancelled},
		{"busy", ErrBusy, events.CodeBusy},
		{"empty question", ErrEmptyQuestion, events.CodeInvalid},
		{"bad conversation id", conversation.ErrBadConversationID, events.CodeInvalid},
		{"bad request", fmt.Errorf("%w: surface", plan.ErrBadRequest), events.CodeInvalid},
		{"unknown agent", fmt.Errorf("%w: %q", ErrUnknownAgent, "x"), events.CodeNotConfigured},
		{"command missing", fmt.Errorf("%w: %q: %w", ErrNotStarted, "x", errors.New("exec: not found")), events.CodeNotConfigured},
		{"initialize timed out", fmt.Errorf("%w: initialize: %w", ErrNotStarted, context.DeadlineExceeded), events.CodeNotConfigured},
		{"initialize crashed", fmt.Errorf("%w: initialize: %w", ErrNotStarted, ErrAgentExited), events.CodeNotConfigured},
		{"cancelled while starting", fmt.Errorf("%w: initialize: %w", ErrNotStarted, context.Canceled), events.CodeCancelled},
		{"not found", fail("not found", ErrNotStarted, ErrCommandNotFound), events.CodeNotConfigured},
		{"relative command", fail("relative", ErrRelativeCommand), events.CodeNotConfigured},
		{"not ACP", fail("not ACP", ErrNotStarted, ErrNotACP), events.CodeNotConfigured},
		{"form incomplete", fail("no name", ErrInvalidAgent), events.CodeInvalid},
		{"needs a login at initialize", fail("log in", ErrNeedsLogin), events.CodeAuthRequired},
		{"needs a login in a turn", &TurnError{Err: fail("log in", ErrNeedsLogin)}, events.CodeAuthRequired},
		{"test cancelled", fail("the test was cancelled", context.Canceled), events.CodeCancelled},
		{"timeout", fmt.Errorf("%w (waited 3s)", ErrTimeout), events.CodeTimeout},
		{"deadline", context.DeadlineExceeded, events.CodeTimeout},
		{"refused", fmt.Errorf("%w: %w", ErrRefused, sdk.NewInternalError(nil)), events.CodeRefused},
		{"crashed", fmt.Errorf("%w (exit status 3)", ErrAgentExited), events.CodeCrashed},
		{"turn error", &TurnError{Err: fmt.Errorf("%w: boom", ErrAgentExited)}, events.CodeCrashed},
		{"anything else", errors.New("disk full"), events.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErrorCode(tt.err); got != tt.want {
				t.Errorf("ErrorCode(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}
