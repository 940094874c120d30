package main

import (
	"github.com/agentero/agentero/backend/agentconf"
)

// AddAgentRequest is Settings' "Add agent" form: the agent as typed, and
// what Save on it means.
type AddAgentRequest struct {
	Agent       agentconf.Agent `json:"agent"`
	MakeDefault bool            `json:"makeDefault"`
	// Force adds the agent without its check, or after the check failed:
	// the user saw why and chose "Save anyway".
	Force bool `json:"force"`
	// CheckID names the check, so that CancelTestAgent(CheckID) stops it.
	CheckID string `json:"checkId"`
}

// AddAgent adds a new agent to agents.json (agentconf.Add: the file's other
// entries and the fields Agentero does not know are kept). A relative
// command, a command not found, and a name that is taken are refused with
// code "invalid" and a sentence that says so. Unless req.Force, the agent
// is then checked as Test connection does (CancelTestAgent(req.checkId)
// stops it), and one that fails is not added: code "unverified", with the
// check's message. The open vault's turns can use the agent at once.
func (a *App) AddAgent(req AddAgentRequest) error {
	if err := a.cfg.AddAgent(a.ctx, req.CheckID, req.Agent, req.MakeDefault, req.Force); err != nil {
		return err
	}
	if ws, err := a.current(); err == nil {
		if _, err := ws.Agents(); err != nil { // reads agents.json again and hands it to the vault's turns
			a.log.Warn("agents file added to and not read back", "err", err)
		}
	}
	return nil
}
