package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

// `ask` has no one to answer an agent's permission requests: an agent that
// asks before each MCP call, as Claude Code's adapter does, reads through
// its context tools all the same, its request to edit a file of the vault
// is rejected, and the JSON lists every decision.
func TestAskReportsPermissions(t *testing.T) {
	script, _ := filepath.Abs("../test/peeragent/agent.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("AGENTERO_REQUIRE_PEER") != "" {
			t.Fatalf("the peer agent's npm packages are missing: run npm ci in test/peeragent")
		}
		corpustest.Unavailable(t, "peer agent not installed (npm ci in test/peeragent)")
	}
	root := corpustest.Vault(t, "bitcoin.pdf")
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	notes := filepath.Join(root, "notes", "ideas.md")
	os.WriteFile(notes, []byte("Proof-of-stake could replace proof-of-work.\n"), 0o644)
	rec := filepath.Join(t.TempDir(), "peer.jsonl")
	e := env(t)
	if _, err := e.Workspace.Config.SaveAgent(t.Context(), workspace.SaveAgentRequest{Force: true, Agent: agentconf.Agent{Name: "claude", Command: "node",
		Args: []string{script}, Env: map[string]string{"PEER_STYLE": "claude", "PEER_EDIT": "1", "PEER_QUERY": "proof-of-work chain", "PEER_RECORD": rec,
			"PEER_VAULT": root}}}); err != nil {
		t.Fatal(err)
	}
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"surface":"sidebar","currentPaper":"papers/bitcoin","selections":[],"mentions":[]}`), 0o644)

	out, errOut, code := runIn(t, e, "ask", root, "--agent", "claude", "--request", req, "--json", "Note this down")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Content     string   `json:"content"`
		Sources     []string `json:"sources"`
		Consulted   []string `json:"consulted"`
		Permissions []struct {
			Title, Kind, Outcome string
		} `json:"permissions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []struct{ Title, Kind, Outcome string }{
		{"mcp__agentero-context__context_search", "other", "allowed"},
		{"mcp__agentero-context__context_read", "other", "allowed"},
		{"Edit `" + notes + "`", "edit", "rejected"},
	}
	if diff := cmp.Diff(want, got.Permissions); diff != "" {
		t.Errorf("permissions (-want +got):\n%s", diff)
	}
	if !strings.Contains(got.Content, "edit outcome: reject") {
		t.Errorf("the agent did not see the rejection: %q", got.Content)
	}
	if len(got.Sources) == 0 || got.Consulted == nil {
		t.Errorf("sources %v, consulted %v: want what the answer cites, and the consulted list", got.Sources, got.Consulted)
	}
	if !strings.Contains(errOut, "[permission] Edit") {
		t.Errorf("stderr does not show the decisions: %q", errOut)
	}
	if data, _ := os.ReadFile(notes); string(data) != "Proof-of-stake could replace proof-of-work.\n" {
		t.Errorf("the note changed: %q", data)
	}
}
