package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/conversation"
)

// TestKeptServerBudgetPerTurn: an agent that keeps its agentero-context
// server across turns (the peer keeps one MCP client per grant) gets the
// whole reading budget each turn: the host writes each turn's grant with a
// turn of its own and closes it when the turn ends, so between turns the
// kept server reads nothing. The budget fits one turn's search and page
// read, not two: the second turn's reads, as whole as the first's, could
// only come from a fresh budget.
func TestKeptServerBudgetPerTurn(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "peercoin.pdf")
	ag, rec := styled(t, "claude", nil)
	b := grant.DefaultBudget()
	b.TurnChars = 9000
	cfg := &agentconf.Agents{Default: agentconf.BuiltinName, List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: -1, Budget: b})
	t.Cleanup(h.Close)

	first := ask(t, h, "kept", ag.Name, sidebar, "What does the paper say about the proof-of-work chain?")
	grantPath := grant.Path(root, runtimeID(t, root, "kept"))
	g, err := grant.Load(grantPath)
	if err != nil || g.Turn != "" {
		t.Fatalf("the grant after the turn: turn %q, %v; want the turn closed", g.Turn, err)
	}
	second := ask(t, h, "kept", ag.Name, sidebar, "And what does it say about the chain again?")
	if first.Session.Action != "new" || second.Session.Action != "continue" {
		t.Fatalf("sessions %q then %q; want one session continued", first.Session.Action, second.Session.Action)
	}

	type result struct {
		Tool    string
		IsError bool
		Text    string
	}
	results := peerLogged[result](t, rec, "tool-result")
	if len(results) != 4 {
		t.Fatalf("%d tool results, want a search and a page read in each of two turns: %+v", len(results), results)
	}
	for i, r := range results {
		if r.IsError || strings.Contains(r.Text, `"truncated":true`) {
			t.Errorf("turn %d, %s: %.300s", i/2+1, r.Tool, r.Text)
		}
	}
	if used := len(results[0].Text) + len(results[1].Text); used > b.TurnChars || 2*used <= b.TurnChars {
		t.Fatalf("one turn read %d characters of a %d budget: the test needs a budget that fits one turn and not two", used, b.TurnChars)
	}
	if results[2].Text != results[0].Text || results[3].Text != results[1].Text {
		t.Error("the second turn read less than the first")
	}
	servers := 0
	for _, r := range records(t, rec) {
		if r.Method == "session/new" {
			servers += len(mcpServers(t, r))
		}
	}
	if servers != 1 {
		t.Errorf("%d agentero-context servers given on session/new, want the one kept", servers)
	}
	ledgers, _ := filepath.Glob(filepath.Join(filepath.Dir(grantPath), "budget-*.jsonl"))
	if len(ledgers) != 2 {
		t.Errorf("budget ledgers %v, want one a turn", ledgers)
	}
}

// runtimeID is the runtime id of a conversation's one session: the
// folder under context-sessions that is its own.
func runtimeID(t *testing.T, root, conv string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, ".agentero", "context-sessions"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		if conversation.OwnRuntimeID(conv, e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) != 1 {
		t.Fatalf("runtime ids of %s: %v, want one", conv, ids)
	}
	return ids[0]
}
