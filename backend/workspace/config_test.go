package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/workspace"
)

// The agents and settings belong to the user, not the vault: they are kept
// in the config folder, the built-in agent is always there, and a change
// made through an open workspace reaches its next turn.
func TestAgentsAndSettings(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	agents, err := f.ws.Agents()
	if err != nil || agents.Default != agentconf.BuiltinName || agents.Find(agentconf.BuiltinName).Command != binary {
		t.Fatalf("fresh agents = %+v, %v", agents, err)
	}
	if _, err := f.ws.SaveAgent(background(), workspace.SaveAgentRequest{Agent: agentconf.Agent{Name: "", Command: "x"}}); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("nameless agent: %v", err)
	}
	if _, err := f.ws.DeleteAgent(agentconf.BuiltinName); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("delete the built-in agent: %v", err)
	}
	if _, err := f.ws.SetDefaultAgent("nobody"); workspace.Code(err) != events.CodeNotFound {
		t.Errorf("default an unknown agent: %v", err)
	}

	ag, rec := peer(t, "peer", "")
	if _, err := f.ws.SaveAgent(background(), workspace.SaveAgentRequest{Agent: ag, MakeDefault: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.cfg.Dir(), "agents.json")); err != nil {
		t.Errorf("agents not saved in the config folder: %v", err)
	}
	// The open workspace's next turn goes to the new default.
	res, err := f.ws.Turn(background(), workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Hello?"}, nil)
	if err != nil || res.Completed.Agent != "peer" {
		t.Fatalf("turn after SaveAgent = %+v, %v", res, err)
	}
	received(t, rec, "session/prompt")
	if agents, _ := f.ws.DeleteAgent("peer"); agents.Default != agentconf.BuiltinName {
		t.Errorf("deleting the default leaves default %q, want the built-in agent", agents.Default)
	}

	// Settings: checked, saved, and the budget is in the next plan.
	s := settings.Defaults()
	s.Budget.SearchCards = 0
	if err := f.ws.SaveSettings(s); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("out-of-range budget: %v", err)
	}
	before, err := f.ws.PreviewPlan(background(), workspace.QuickChat())
	if err != nil {
		t.Fatal(err)
	}
	s = settings.Defaults()
	s.Budget.SearchCards = 3
	if err := f.ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	after, err := f.ws.PreviewPlan(background(), workspace.QuickChat())
	if err != nil || after.Budget.SearchCards != 3 || after.Fingerprint == before.Fingerprint {
		t.Errorf("plan after SaveSettings: budget %+v, fingerprint changed %v (%v)", after.Budget, after.Fingerprint != before.Fingerprint, err)
	}
	if got, err := f.cfg.Settings(); err != nil || got.Budget.SearchCards != 3 {
		t.Errorf("settings read back = %+v, %v", got, err)
	}
}

// A broken agents file does not keep the vault from opening; turns say
// what is wrong with it.
func TestBrokenAgentsFile(t *testing.T) {
	cfg := t.TempDir()
	os.WriteFile(filepath.Join(cfg, "agents.json"), []byte("{not json"), 0o644)
	ws, err := workspace.Open(t.TempDir(), workspace.Options{Config: workspace.NewConfig(cfg, binary), PoolSize: -1, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("Open with a broken agents file: %v", err)
	}
	defer ws.Close()
	err = ws.Ask(workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Hello?"})
	if workspace.Code(err) != events.CodeNotConfigured {
		t.Errorf("Ask = %v (code %q), want not-configured", err, workspace.Code(err))
	}
}

// The vault opened last is remembered in the config folder, and forgotten
// when it is gone.
func TestLastVault(t *testing.T) {
	cfg := workspace.NewConfig(t.TempDir(), binary)
	if got := cfg.LastVault(); got != "" {
		t.Errorf("fresh LastVault = %q", got)
	}
	root := t.TempDir()
	if err := cfg.RememberVault(root); err != nil {
		t.Fatal(err)
	}
	if got := cfg.LastVault(); got != root {
		t.Errorf("LastVault = %q, want %q", got, root)
	}
	os.RemoveAll(root)
	if got := cfg.LastVault(); got != "" {
		t.Errorf("LastVault of a removed folder = %q", got)
	}
}
