package workspace_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"testing"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/workspace"
)

// Code is the one place that decides what kind of failure the UI is told
// about.
func TestCode(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{workspace.ErrNoVault, events.CodeNoVault},
		{fmt.Errorf("search: %w", workspace.ErrClosed), events.CodeNoVault},
		{workspace.ErrBusy, events.CodeBusy},
		{fmt.Errorf("%w: surface must be sidebar", plan.ErrBadRequest), events.CodeInvalid},
		{conversation.ErrBadConversationID, events.CodeInvalid},
		{&docs.InputError{}, events.CodeInvalid},
		{fmt.Errorf("relations of papers/x: %w", index.ErrNotFound), events.CodeNotFound},
		{docs.ErrNotFound, events.CodeNotFound},
		{fmt.Errorf("the agent stopped: %w", acp.ErrAgentExited), events.CodeCrashed},
		{&acp.TurnError{Err: acp.ErrAgentExited}, events.CodeCrashed},
		{fmt.Errorf("start agent %q: %w: %w", "x", acp.ErrNotStarted, exec.ErrNotFound), events.CodeNotConfigured},
		{fmt.Errorf(`%w: no agent named "x"`, acp.ErrUnknownAgent), events.CodeNotConfigured},
		{&acp.TurnError{Err: fmt.Errorf("%w within 5m0s", acp.ErrTimeout)}, events.CodeTimeout},
		{&acp.TurnError{Err: fmt.Errorf("%w: nope", acp.ErrRefused)}, events.CodeRefused},
		{acp.ErrBusy, events.CodeBusy},
		// Messages are never matched: an unknown error that reads like a
		// known one is still internal.
		{errors.New("the agent did not answer within 5m0s"), events.CodeInternal},
		{context.Canceled, events.CodeCancelled},
		{context.DeadlineExceeded, events.CodeTimeout},
		{errors.New("disk on fire"), events.CodeInternal},
	} {
		if got := workspace.Code(tt.err); got != tt.want {
			t.Errorf("Code(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
	if e := workspace.Public(workspace.ErrBusy); e.Code != events.CodeBusy || e.Message != workspace.ErrBusy.Error() {
		t.Errorf("Public(ErrBusy) = %+v", e)
	}
}
