package main

import (
	"errors"
	"path/filepath"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/userdir"
	"github.com/agentero/agentero/backend/usererr"
	"github.com/agentero/agentero/backend/workspace"
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
	dir, err := userdir.Folder(a.cfg.Dir())
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "agents.json")
	ag, err := agentconf.PrepareNew(path, req.Agent)
	if err != nil {
		return refusedAgent(err)
	}
	if !req.Force {
		if _, err := a.cfg.TestAgent(a.ctx, req.CheckID, ag, a.log); err != nil {
			if workspace.Code(err) == events.CodeCancelled {
				return err
			}
			return usererr.Mark(workspace.ErrUnverified, err)
		}
	}
	if _, err := agentconf.Add(path, ag, req.MakeDefault); err != nil {
		return refusedAgent(err)
	}
	if ws, err := a.current(); err == nil {
		if _, err := ws.Agents(); err != nil { // reads agents.json again and hands it to the vault's turns
			a.log.Warn("agents file added to and not read back", "err", err)
		}
	}
	return nil
}

// refusedAgent gives the configuration's refusals of an agent (agentconf's
// errors, each a sentence for the user) the code "invalid".
func refusedAgent(err error) error {
	for _, kind := range []error{agentconf.ErrInvalidAgent, agentconf.ErrRelativeCommand, agentconf.ErrCommandNotFound, agentconf.ErrDuplicateAgent} {
		if errors.Is(err, kind) {
			return usererr.Mark(workspace.ErrInvalid, err)
		}
	}
	return err
}
