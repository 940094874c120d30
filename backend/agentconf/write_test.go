package agentconf_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/agentconf"
)

// handWritten is an agents.json as a user keeps it: fields Agentero does
// not know, around the list and in an entry.
const handWritten = `{
  "default": "peer",
  "comment": "my agents, do not lose",
  "agents": [
    {"name": "peer", "command": "/usr/bin/env", "args": ["node", "agent.mjs"], "env": {"PEER_STYLE": "claude"}, "x-note": "the test agent", "paths": ["/opt/peer"]}
  ]
}
`

// program is an executable script in a folder of the test, and that folder.
func program(t *testing.T, name string) (path, dir string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, dir
}

// fields reads a JSON object's fields as generic values.
func fields(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return out
}

// TestAdd: an agent added goes into agents.json after the entries there,
// with its command as an absolute path, in a file private to the user;
// the file's other entries and the fields Agentero does not know are kept
// as they were; LoadAgents then has it.
func TestAdd(t *testing.T) {
	exe, bin := program(t, "my-acp-agent")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	path := filepath.Join(t.TempDir(), "agents.json")
	if err := os.WriteFile(path, []byte(handWritten), 0o600); err != nil {
		t.Fatal(err)
	}

	got, err := agentconf.Add(path, agentconf.Agent{Name: " mine ", Command: "my-acp-agent", Args: []string{"--acp"}, Env: map[string]string{"TOKEN": "x"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "mine" || got.Command != exe {
		t.Errorf("stored as %+v, want the name trimmed and the command %s", got, exe)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("agents.json is %v, want 0600", fi.Mode().Perm())
	}
	want := fields(t, []byte(handWritten))
	want["agents"] = append(want["agents"].([]any), map[string]any{"name": "mine", "command": exe, "args": []any{"--acp"}, "env": map[string]any{"TOKEN": "x"}})
	if diff := cmp.Diff(want, fields(t, data)); diff != "" {
		t.Errorf("agents.json after Add (-want +got):\n%s", diff)
	}
	a, err := agentconf.LoadAgents(path, "/app/agentero")
	if err != nil {
		t.Fatal(err)
	}
	if ag := a.Find("mine"); ag == nil || ag.Command != exe || a.Default != "peer" {
		t.Errorf("LoadAgents after Add: %+v", a)
	}

	// As the default, into a file that does not exist yet.
	fresh := filepath.Join(t.TempDir(), "agentero", "agents.json")
	if _, err := agentconf.Add(fresh, agentconf.Agent{Name: "mine", Command: exe}, true); err != nil {
		t.Fatal(err)
	}
	if a, err := agentconf.LoadAgents(fresh, "/app/agentero"); err != nil || a.Default != "mine" || a.Find("mine") == nil {
		t.Errorf("LoadAgents of a new file: %+v, %v", a, err)
	}
}

// TestAddRefuses: what the form cannot add is refused with one sentence
// that says why, of the kind the UI tells apart, and the file is left as
// it was.
func TestAddRefuses(t *testing.T) {
	exe, _ := program(t, "agent")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		file  string
		agent agentconf.Agent
		kind  error
		says  string
	}{
		{"a relative command", handWritten, agentconf.Agent{Name: "rel", Command: "./bin/agent"}, agentconf.ErrRelativeCommand, `the command "./bin/agent" is a relative path`},
		{"a command not on PATH", handWritten, agentconf.Agent{Name: "gone", Command: "no-such-agent-anywhere"}, agentconf.ErrCommandNotFound, `the command "no-such-agent-anywhere" was not found`},
		{"an absolute command that is missing", handWritten, agentconf.Agent{Name: "gone", Command: "/no/such/agent"}, agentconf.ErrCommandNotFound, `the command "/no/such/agent" was not found`},
		{"a folder as the command", handWritten, agentconf.Agent{Name: "dir", Command: filepath.Dir(exe)}, agentconf.ErrCommandNotFound, "is a folder, not a program"},
		{"a name taken", handWritten, agentconf.Agent{Name: "peer", Command: sh}, agentconf.ErrDuplicateAgent, `there is already an agent named "peer"`},
		{"a name taken in another case", handWritten, agentconf.Agent{Name: "Peer", Command: sh}, agentconf.ErrDuplicateAgent, `there is already an agent named "Peer"`},
		{"the built-in agent's name", handWritten, agentconf.Agent{Name: "builtin", Command: sh}, agentconf.ErrInvalidAgent, "the built-in agent cannot be changed"},
		{"no name", handWritten, agentconf.Agent{Name: "  ", Command: sh}, agentconf.ErrInvalidAgent, "an agent needs a name"},
		{"no command", handWritten, agentconf.Agent{Name: "x"}, agentconf.ErrInvalidAgent, "an agent needs a command"},
		{"a file that is not JSON", "{not json", agentconf.Agent{Name: "x", Command: sh}, nil, "is not a JSON object"},
		{"a file without a list", `{"agents": {"name": "x"}}`, agentconf.Agent{Name: "x", Command: sh}, nil, "has no list of agents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "agents.json")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := agentconf.Add(path, tc.agent, true)
			if err == nil {
				t.Fatalf("Add(%+v) succeeded, want %q", tc.agent, tc.says)
			}
			if tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Errorf("Add(%+v): %v, want %v", tc.agent, err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.says) || strings.Count(err.Error(), ". ") > 0 {
				t.Errorf("Add(%+v) says %q, want one sentence with %q", tc.agent, err, tc.says)
			}
			if data, _ := os.ReadFile(path); string(data) != tc.file {
				t.Errorf("the file changed:\n%s", data)
			}
			if tc.kind != nil {
				if _, err := agentconf.PrepareNew(path, tc.agent); !errors.Is(err, tc.kind) {
					t.Errorf("PrepareNew(%+v): %v, want %v as Add", tc.agent, err, tc.kind)
				}
			}
		})
	}
}

// TestSaveKeepsUnknown: Settings' other edits (Save) keep the fields of
// the file Agentero does not know too, and drop those of a removed agent.
func TestSaveKeepsUnknown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.json")
	file := strings.Replace(handWritten, `"agents": [`, `"agents": [
    {"name": "old", "command": "/bin/true", "args": [], "x-gone": 1},`, 1)
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := agentconf.LoadAgents(path, "/app/agentero")
	if err != nil {
		t.Fatal(err)
	}
	a.Default = agentconf.BuiltinName
	a.List = []agentconf.Agent{a.List[0], *a.Find("peer")} // "old" removed
	a.Find("peer").Args = []string{"agent.mjs"}
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"default": "builtin",
		"comment": "my agents, do not lose",
		"agents": []any{map[string]any{"name": "peer", "command": "/usr/bin/env", "args": []any{"agent.mjs"}, "env": map[string]any{"PEER_STYLE": "claude"},
			"x-note": "the test agent", "paths": []any{"/opt/peer"}}},
	}
	if diff := cmp.Diff(want, fields(t, data)); diff != "" {
		t.Errorf("agents.json after Save (-want +got):\n%s", diff)
	}
}
