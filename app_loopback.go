package main

import "github.com/agentero/agentero/backend/workspace"

// The loopback MCP server's methods (SPEC §9), thin over the workspace:
// the server belongs to the open vault, and its settings to the user.
// They hold switching, so that a vault opening or closing meanwhile
// cannot leave a server behind.

// LoopbackStatus says whether the loopback MCP server is on and running,
// its URL, token and the vault it serves.
func (a *App) LoopbackStatus() workspace.LoopbackStatus {
	a.switching.Lock()
	defer a.switching.Unlock()
	if ws, err := a.current(); err == nil {
		return ws.LoopbackStatus()
	}
	return a.cfg.LoopbackStatus()
}

// SetLoopback switches the server on or off and sets its port (0: a free
// one, then kept); the open vault's server follows at once.
func (a *App) SetLoopback(enabled bool, port int) (workspace.LoopbackStatus, error) {
	a.switching.Lock()
	defer a.switching.Unlock()
	if _, err := a.cfg.SetLoopback(enabled, port); err != nil {
		return a.cfg.LoopbackStatus(), err
	}
	return a.applyLoopback()
}

// RotateLoopbackToken makes a new token; clients with the old one are
// refused from then on.
func (a *App) RotateLoopbackToken() (workspace.LoopbackStatus, error) {
	a.switching.Lock()
	defer a.switching.Unlock()
	if _, err := a.cfg.RotateLoopbackToken(); err != nil {
		return a.cfg.LoopbackStatus(), err
	}
	return a.applyLoopback()
}

func (a *App) applyLoopback() (workspace.LoopbackStatus, error) {
	ws, err := a.current()
	if err != nil {
		return a.cfg.LoopbackStatus(), nil
	}
	return ws.ApplyLoopback()
}
