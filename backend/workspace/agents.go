package workspace

import (
	"context"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/settings"
)

// Agents reads the configured agents.
func (w *Workspace) Agents() (*acp.Agents, error) { return w.cfg.Agents() }

// SaveAgent adds or changes an agent (and optionally makes it the default)
// as Config.SaveAgent does; the vault's next turns use it.
func (w *Workspace) SaveAgent(ctx context.Context, req SaveAgentRequest) (*acp.Agents, error) {
	return w.useAgents(w.cfg.SaveAgent(ctx, req))
}

// SetDefaultAgent makes a configured agent the default.
func (w *Workspace) SetDefaultAgent(name string) (*acp.Agents, error) {
	return w.useAgents(w.cfg.SetDefaultAgent(name))
}

// DeleteAgent removes an agent (never the built-in one).
func (w *Workspace) DeleteAgent(name string) (*acp.Agents, error) {
	return w.useAgents(w.cfg.DeleteAgent(name))
}

// AddAgent makes ag available to this workspace's turns without saving it
// (the command line's --agent-cmd).
func (w *Workspace) AddAgent(ag acp.Agent) {
	w.mu.Lock()
	agents := &acp.Agents{Default: w.agents.Default, List: append(w.agents.List[:len(w.agents.List):len(w.agents.List)], ag)}
	w.mu.Unlock()
	w.useAgents(agents, nil)
}

// Agent returns the agent a turn would use for name ("" = the default), or
// nil.
func (w *Workspace) Agent(name string) *acp.Agent {
	w.mu.Lock()
	defer w.mu.Unlock()
	if name == "" {
		name = w.agents.Default
	}
	return w.agents.Find(name)
}

// useAgents hands a saved configuration to the host: turns after this use it.
func (w *Workspace) useAgents(a *acp.Agents, err error) (*acp.Agents, error) {
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.agents, w.agentsErr = a, nil
	w.mu.Unlock()
	w.host.SetAgents(a)
	return a, nil
}

// Settings reads the user's settings.
func (w *Workspace) Settings() (settings.Settings, error) { return w.cfg.Settings() }

// SaveSettings checks and stores the settings; later plans and turns use
// the new budget (and so start new sessions: the budget is part of the
// fingerprint).
func (w *Workspace) SaveSettings(s settings.Settings) error {
	if err := w.cfg.SaveSettings(s); err != nil {
		return err
	}
	w.mu.Lock()
	w.budget = s.Budget
	w.mu.Unlock()
	w.host.SetBudget(s.Budget)
	if _, err := w.ApplyLoopback(); err != nil { // the loopback server reads with the new budget
		w.log.Warn("loopback MCP server", "err", err)
	}
	return nil
}
