package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
)

// TestWriteDocEveryCallApproved: an agent (playing Claude Code) writes a
// context document twice in one turn. Unlike the turn's read tools, each
// write waits for the user's card, which offers no "always"; the user
// allows the first and rejects the second: only the first is written, with
// a receipt.
func TestWriteDocEveryCallApproved(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := styled(t, "claude", map[string]string{"PEER_WRITE_DOC": "---\ndescription: Peer notes\n---\nWritten by the agent"})
	ag.WriteDocs = true // the user allowed this agent to write context documents
	cfg := &agentconf.Agents{Default: "claude", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), TurnTimeout: 30 * time.Second, PoolSize: -1})
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var s sink
	var asked []events.AgentPermissionEvent
	s.on = func(p any) {
		ev, ok := p.(events.AgentPermissionEvent)
		if !ok || ev.Outcome != "" || ev.Auto {
			return
		}
		asked = append(asked, ev)
		answer := "allow"
		if len(asked) == 2 {
			answer = "reject"
		}
		go h.AnswerPermission("writer", ev.RequestID, answer)
	}
	if _, err := h.Turn(ctx, acp.TurnRequest{ConversationID: "writer", Agent: "claude", Request: sidebar, Question: "Note down what you found"}, s.emit); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 {
		t.Fatalf("the user was asked %d times, want once for each write: %+v", len(asked), asked)
	}
	for _, ev := range asked {
		if !strings.Contains(ev.Title, "context_write_doc") {
			t.Errorf("asked about %q, want only the writes", ev.Title)
		}
		for _, o := range ev.Options {
			if o.Kind == "allow_always" {
				t.Errorf("the write's card offers %q: every call must be approved", o.Name)
			}
		}
	}
	type result struct {
		Tool    string `json:"tool"`
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
	}
	var writes []result
	for _, r := range peerLogged[result](t, rec, "tool-result") {
		if r.Tool == "context_write_doc" {
			writes = append(writes, r)
		}
	}
	if len(writes) != 1 || writes[0].IsError || !strings.Contains(writes[0].Text, `"sha256"`) || !strings.Contains(writes[0].Text, `"revision"`) {
		t.Fatalf("write results %+v: want one receipt (the rejected call never reaches the server)", writes)
	}
	got, err := os.ReadFile(filepath.Join(root, ".agentero", "context", "peer-notes.md"))
	if err != nil || !strings.Contains(string(got), "(write 1)") {
		t.Fatalf("the approved write is not on disk: %q, %v", got, err)
	}
	// Approvals live in the host's memory: none is written to the vault.
	left, _ := os.ReadDir(filepath.Join(root, ".agentero", "context-sessions"))
	for _, d := range left {
		if _, err := os.Stat(filepath.Join(root, ".agentero", "context-sessions", d.Name(), "approvals")); err == nil {
			t.Errorf("approvals were written to the vault under %s", d.Name())
		}
	}
	if !slices.ContainsFunc(asked, func(e events.AgentPermissionEvent) bool { return e.ConversationID == "writer" }) {
		t.Error("the cards are not the conversation's")
	}
}

// TestWriteToolOnlyForAgentsAllowedToWrite: an agent the user did not
// allow to write context documents gets a read-only grant (and the grant
// file its server follows says so); one allowed to gets the write tool.
func TestWriteToolOnlyForAgentsAllowedToWrite(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	reader, _ := styled(t, "claude", nil)
	writer, _ := styled(t, "claude", nil)
	writer.Name, writer.WriteDocs = "writer", true
	h := newHost(t, root, db, reader, writer)
	for _, tt := range []struct {
		agent string
		write bool
	}{{"claude", false}, {"writer", true}, {agentconf.BuiltinName, false}} {
		r := ask(t, h, "grant-"+tt.agent, tt.agent, sidebar, "How is the chain secured?")
		if slices.Contains(r.Plan.Tools, "context_write_doc") != tt.write || len(r.Plan.Tools) == 0 {
			t.Errorf("%s's grant offers %v; the write tool wanted: %v", tt.agent, r.Plan.Tools, tt.write)
		}
		c, _ := h.Store().Load("grant-" + tt.agent)
		data, err := os.ReadFile(filepath.Join(root, ".agentero", "context-sessions", c.RuntimeID, "grant.json"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "context_write_doc") != tt.write {
			t.Errorf("%s's grant file:\n%s", tt.agent, data)
		}
	}
}
