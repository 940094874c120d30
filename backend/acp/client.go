package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// client answers the agent's requests. Agentero offers no file system and no
// terminal; permission requests go to the turn running in their session
// (its asking), which decides them by the policy of SPEC §6 or waits for
// the user. The SDK calls it from the connection's goroutines:
// notifications one at a time in order, requests each in its own.
type client struct{ p *Process }

var _ sdk.Client = (*client)(nil)

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.p.deliver(n.SessionId, n.Update)
	return nil
}

// RequestPermission hands the request to the turn running in its session.
// A request outside any turn (while a session loads, or after its turn
// ended) has no one to decide it and is refused.
func (c *client) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	if ask := c.p.asker(req.SessionId); ask != nil {
		return ask(ctx, req), nil
	}
	if o, ok := rejectOption(req.Options); ok {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(o.OptionId)}, nil
	}
	return cancelledResponse(), nil
}

// asker decides the permission requests of one session's turn.
type asker func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionResponse

// setAsker sets (or, with nil, removes) the asker of a session, as
// setSink does its sink.
func (p *Process) setAsker(id sdk.SessionId, a asker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if a == nil {
		delete(p.askers, id)
		return
	}
	if p.askers == nil {
		p.askers = map[sdk.SessionId]asker{}
	}
	p.askers[id] = a
}

func (p *Process) asker(id sdk.SessionId) asker {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.askers[id]
}

func (c *client) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsReadTextFile)
}

func (c *client) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsWriteTextFile)
}

func (c *client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalCreate)
}

func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalKill)
}

func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalOutput)
}

func (c *client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalRelease)
}

func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalWaitForExit)
}
