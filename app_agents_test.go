package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
)

// TestAddAgentCodes: Settings' Add agent is refused with the code the form
// switches on — "invalid" for what the user must fix (a relative command,
// one not found, a name taken), "unverified" for an agent that fails its
// check (the form then offers Save anyway) — and nothing is written until
// it is added; forced, it is, and the configuration lists it.
func TestAddAgentCodes(t *testing.T) {
	dir := t.TempDir()
	app := &App{cfg: workspace.NewConfig(dir, "/app/agentero"), log: slog.New(slog.DiscardHandler), ctx: t.Context()}
	quits := filepath.Join(t.TempDir(), "quits")
	if err := os.WriteFile(quits, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "agents.json")
	for _, tc := range []struct {
		name  string
		agent agentconf.Agent
		code  string
		says  string
	}{
		{"a relative command", agentconf.Agent{Name: "rel", Command: "bin/quits"}, events.CodeInvalid, "is a relative path"},
		{"a command not found", agentconf.Agent{Name: "gone", Command: "no-such-acp-agent"}, events.CodeInvalid, "was not found"},
		{"no name", agentconf.Agent{Command: quits}, events.CodeInvalid, "needs a name"},
		{"an agent that fails its check", agentconf.Agent{Name: "quits", Command: quits}, events.CodeUnverified, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := app.AddAgent(AddAgentRequest{Agent: tc.agent, CheckID: "test"})
			if got := workspace.Code(err); got != tc.code || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("AddAgent(%+v): %v (code %q), want code %q saying %q", tc.agent, err, got, tc.code, tc.says)
			}
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Errorf("agents.json was written: %v", err)
			}
		})
	}
	if err := app.AddAgent(AddAgentRequest{Agent: agentconf.Agent{Name: "quits", Command: quits}, Force: true, MakeDefault: true}); err != nil {
		t.Fatalf("forced: %v", err)
	}
	a, err := app.cfg.Agents()
	if err != nil || a.Find("quits") == nil || a.Default != "quits" {
		t.Fatalf("after the forced add: %+v, %v", a, err)
	}
	err = app.AddAgent(AddAgentRequest{Agent: agentconf.Agent{Name: "Quits", Command: quits}, Force: true})
	if workspace.Code(err) != events.CodeInvalid || !strings.Contains(err.Error(), `there is already an agent named "Quits"`) {
		t.Errorf("a name taken: %v (code %q)", err, workspace.Code(err))
	}
}
