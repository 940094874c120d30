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
	cfg := &acp.Agents{Default: "claude", List: []acp.Agent{acp.Builtin(binary), ag}}
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
	// No approval is left over for a later call.
	left, _ := os.ReadDir(filepath.Join(root, ".agentero", "context-sessions"))
	for _, d := range left {
		if entries, _ := os.ReadDir(filepath.Join(root, ".agentero", "context-sessions", d.Name(), "approvals")); len(entries) > 0 {
			t.Errorf("unused approvals left: %d", len(entries))
		}
	}
	if !slices.ContainsFunc(asked, func(e events.AgentPermissionEvent) bool { return e.ConversationID == "writer" }) {
		t.Error("the cards are not the conversation's")
	}
}
