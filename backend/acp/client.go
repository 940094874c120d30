package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// client answers the agent's requests. Agentero offers no file system and no
// terminal, and refuses every permission request: a turn reads only through
// its read-only grant. The SDK calls it from the connection's goroutines:
// notifications one at a time in order, requests each in its own.
type client struct{ p *Process }

var _ sdk.Client = (*client)(nil)

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.p.deliver(n.SessionId, n.Update)
	return nil
}

// RequestPermission shows the request in the turn and answers it with
// refuse: the one place that decides, for when the user can be asked.
func (c *client) RequestPermission(_ context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.p.deliver(req.SessionId, permissionRefused(req))
	return refuse(req), nil
}

// refuse picks the reject option the agent offered, or cancels the request
// when it offered none.
func refuse(req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	for _, o := range req.Options {
		if o.Kind == sdk.PermissionOptionKindRejectOnce || o.Kind == sdk.PermissionOptionKindRejectAlways {
			return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(o.OptionId)}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
}

// permissionRefused turns a refused permission request into an update the
// turn can record and show.
func permissionRefused(req sdk.RequestPermissionRequest) sdk.SessionUpdate {
	title := "a tool"
	if req.ToolCall.Title != nil {
		title = *req.ToolCall.Title
	}
	return sdk.UpdateAgentThoughtText("[Agentero refused a permission request for " + title + ": this turn is read-only and limited to its grant]")
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
