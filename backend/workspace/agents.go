package workspace

import (
	"context"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/settings"
)

// Agents reads the configured agents; the vault's turns use them from now
// on (an agents.json changed by hand is taken up when it is asked for).
func (w *Workspace) Agents() (*agentconf.Agents, error) {
	w.reloadAgents()
	return w.cfg.Agents()
}

// agentsFile is what the workspace last took from agents.json, so that a
// turn started after the file changed (by hand, by another window) runs
// with it without a restart.
type agentsFile struct {
	read  bool
	stamp FileStamp
	added []agentconf.Agent // AddAgent's, never saved: kept across reloads
}

// reloadAgents reads agents.json again when it changed since the
// workspace last read it, and hands it to the host; a file that cannot be
// used stops the turns with its error (errNoAgents) until it is fixed. It
// runs before each turn starts and when Settings lists the agents.
func (w *Workspace) reloadAgents() {
	stamp, err := w.cfg.AgentsStamp()
	if err != nil {
		return // the folder is refused: Agents says why
	}
	w.mu.Lock()
	same := w.agentsFile.read && w.agentsFile.stamp == stamp
	w.mu.Unlock()
	if same {
		return
	}
	a, err := w.cfg.Agents()
	w.mu.Lock()
	w.agentsFile.read, w.agentsFile.stamp = true, stamp
	added := w.agentsFile.added
	if err != nil {
		w.agentsErr = err
		w.mu.Unlock()
		w.log.Warn("agents file changed and cannot be used", "err", err)
		return
	}
	w.mu.Unlock()
	for _, ag := range added {
		if a.Find(ag.Name) == nil {
			a.List = append(a.List, ag)
		}
	}
	w.useAgents(a, nil)
}

// SaveAgent adds or changes an agent (and optionally makes it the default)
// as Config.SaveAgent does; the vault's next turns use it.
func (w *Workspace) SaveAgent(ctx context.Context, req SaveAgentRequest) (*agentconf.Agents, error) {
	return w.useAgents(w.cfg.SaveAgent(ctx, req))
}

// SetDefaultAgent makes a configured agent the default.
func (w *Workspace) SetDefaultAgent(name string) (*agentconf.Agents, error) {
	return w.useAgents(w.cfg.SetDefaultAgent(name))
}

// DeleteAgent removes an agent (never the built-in one).
func (w *Workspace) DeleteAgent(name string) (*agentconf.Agents, error) {
	return w.useAgents(w.cfg.DeleteAgent(name))
}

// AddAgent makes ag available to this workspace's turns without saving it
// (the command line's --agent-cmd).
func (w *Workspace) AddAgent(ag agentconf.Agent) {
	w.mu.Lock()
	agents := &agentconf.Agents{Default: w.agents.Default, List: append(w.agents.List[:len(w.agents.List):len(w.agents.List)], ag)}
	w.agentsFile.added = append(w.agentsFile.added, ag)
	w.mu.Unlock()
	w.useAgents(agents, nil)
}

// Agent returns the agent a turn would use for name ("" = the default), or
// nil.
func (w *Workspace) Agent(name string) *agentconf.Agent {
	w.mu.Lock()
	defer w.mu.Unlock()
	if name == "" {
		name = w.agents.Default
	}
	return w.agents.Find(name)
}

// useAgents hands a saved configuration to the host: turns after this use it.
func (w *Workspace) useAgents(a *agentconf.Agents, err error) (*agentconf.Agents, error) {
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
	if w.host.SetBudget(s.Budget) {
		w.restartLoopback() // the loopback server reads with the new budget
	}
	return nil
}
