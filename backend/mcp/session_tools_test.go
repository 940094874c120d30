package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/vault"
)

// historyGrant is a grant of conversation conv that names context_history.
func historyGrant(t *testing.T, conv string, entries []map[string]any) grant.Grant {
	t.Helper()
	g := usual()
	g.RuntimeID = conv + "." + strings.TrimPrefix(g.RuntimeID, "test-")
	g.Conversation = conv
	g.Tools = append(g.Tools, "context_history")
	dir, err := vault.StateFolder(vaultDir, "chats", conv)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		line, _ := json.Marshal(e)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "transcript.jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return g
}

type historyPage struct {
	Conversation string `json:"conversation"`
	Turns        int    `json:"turns"`
	Turn         int    `json:"turn"`
	Text         string `json:"text"`
	FromLine     int    `json:"fromLine"`
	ToLine       int    `json:"toLine"`
	TotalLines   int    `json:"totalLines"`
	NextOffset   int    `json:"nextOffset"`
}

// TestContextHistory reads a conversation's earlier turns: the list, one
// turn whole and line-numbered, a page at a time; this conversation only,
// read-only, and only for a grant that names the tool.
func TestContextHistory(t *testing.T) {
	needVault(t)
	long := strings.Repeat("A line of the answer.\n", 30)
	g := historyGrant(t, "hist-mcp", []map[string]any{
		{"turn": "m1", "kind": "user", "text": "What is a term in Raft?"},
		{"turn": "m1", "kind": "tool_call", "toolCallId": "c1", "text": "context_read"},
		{"turn": "m1", "kind": "tool_update", "toolCallId": "c1", "data": map[string]any{"output": "page text"}},
		{"turn": "m1", "kind": "assistant", "text": "A term is a period of time.", "data": map[string]any{"sources": []string{"papers/raft/raft.pdf#page=5"}}},
		{"turn": "m2", "kind": "user", "text": "And the log?"},
		{"turn": "m2", "kind": "assistant", "text": long},
		{"turn": "m3", "kind": "user", "text": "A turn still running"},
	})
	other := historyGrant(t, "hist-other", []map[string]any{
		{"turn": "o1", "kind": "user", "text": "SECRET question of another conversation"},
		{"turn": "o1", "kind": "assistant", "text": "SECRET answer"},
	})
	_ = other
	s := start(t, g)

	var list historyPage
	s.ok("context_history", map[string]any{}, &list)
	if list.Turns != 2 || !strings.Contains(list.Text, "    1 | Turn 1: What is a term in Raft?") || !strings.Contains(list.Text, "Turn 2: And the log?") {
		t.Fatalf("list = %+v", list)
	}
	if strings.Contains(list.Text, "still running") || strings.Contains(list.Text, "SECRET") {
		t.Errorf("the list shows an unfinished turn or another conversation:\n%s", list.Text)
	}
	var one historyPage
	s.ok("context_history", map[string]any{"turn": 1}, &one)
	for _, want := range []string{"    1 | User: What is a term in Raft?", "[tool result context_read]", "page text", "Assistant: A term is a period of time.", "(sources: papers/raft/raft.pdf#page=5)"} {
		if !strings.Contains(one.Text, want) {
			t.Errorf("turn 1 lacks %q:\n%s", want, one.Text)
		}
	}
	var page historyPage
	s.ok("context_history", map[string]any{"turn": 2, "limit": 10}, &page)
	if page.FromLine != 1 || page.ToLine != 10 || page.NextOffset != 10 || page.TotalLines < 30 {
		t.Fatalf("first page = %+v", page)
	}
	var next historyPage
	s.ok("context_history", map[string]any{"turn": 2, "offset": page.NextOffset, "limit": 10}, &next)
	if next.FromLine != 11 || !strings.HasPrefix(next.Text, "   11 | ") {
		t.Fatalf("second page = %+v", next)
	}
	if msg := s.fails("context_history", map[string]any{"turn": 3}); !strings.Contains(msg, "turns 1–2") {
		t.Errorf("turn 3 (unfinished): %q", msg)
	}
	s.fails("context_history", map[string]any{"conversation": "hist-other"})

	// A grant without the tool gets no such tool.
	plain := start(t, usual())
	tools, err := plain.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "context_history" || tool.Name == "context_read_skill" {
			t.Errorf("a grant without %s offers it", tool.Name)
		}
	}
}

// TestSkills lists nothing in the server (the snapshot lists skills) but
// reads a skill's body by name when the grant names the tool.
func TestSkills(t *testing.T) {
	needVault(t)
	dir := filepath.Join(vaultDir, ".agents", "skills", "cite-check")
	os.MkdirAll(dir, 0o755)
	t.Cleanup(func() { os.RemoveAll(filepath.Join(vaultDir, ".agents")) })
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: cite-check\ndescription: Check that citations open the right page\n---\n# Steps\nOpen each source.\n"), 0o644)
	g := usual()
	g.Tools = append(g.Tools, "context_read_skill")
	s := start(t, g)
	var got struct {
		Name, Description, Path, Instructions string
	}
	s.ok("context_read_skill", map[string]any{"name": "cite-check"}, &got)
	if got.Name != "cite-check" || got.Path != ".agents/skills/cite-check/SKILL.md" || !strings.Contains(got.Instructions, "Open each source.") || strings.Contains(got.Instructions, "description:") {
		t.Errorf("skill = %+v", got)
	}
	if msg := s.fails("context_read_skill", map[string]any{"name": "nope"}); !strings.Contains(msg, "no skill") {
		t.Errorf("unknown skill: %q", msg)
	}
	tools, _ := s.cs.ListTools(context.Background(), nil)
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "context_read_skill") || slices.Contains(names, "context_history") {
		t.Errorf("tools offered %v: want exactly the grant's", names)
	}
}

// TestWriteDocNeedsApproval: context_write_doc writes only with one
// approval of the user a call (recorded by the host when the user allows
// the permission card), returns a receipt, and refuses a stale revision
// without writing.
func TestWriteDocNeedsApproval(t *testing.T) {
	needVault(t)
	g := usual()
	g.Tools = append(g.Tools, grant.WriteDocTool)
	id := "written-by-test.md"
	path := filepath.Join(vaultDir, ".agentero", "context", id)
	t.Cleanup(func() { os.Remove(path) })
	s := start(t, g)
	doc := "---\ndescription: Written by an agent\n---\nFirst version.\n"
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": doc}); !strings.Contains(msg, "not approved") {
		t.Fatalf("an unapproved write: %q", msg)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("an unapproved write was written")
	}
	if err := grant.Approve(vaultDir, g.RuntimeID, grant.WriteDocTool); err != nil {
		t.Fatal(err)
	}
	var r struct {
		ID        string `json:"id"`
		Created   bool   `json:"created"`
		Revision  string `json:"revision"`
		Etag      string `json:"etag"`
		SizeBytes int    `json:"sizeBytes"`
		SHA256    string `json:"sha256"`
	}
	text := s.ok(grant.WriteDocTool, map[string]any{"id": id, "content": doc}, &r)
	if !r.Created || r.SizeBytes != len(doc) || r.Revision == "" || len(r.SHA256) != 64 || strings.Contains(text, "First version.") {
		t.Fatalf("receipt = %s", text)
	}
	// One approval, one call.
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": doc, "expectedRevision": r.Revision}); !strings.Contains(msg, "not approved") {
		t.Fatalf("a second write on one approval: %q", msg)
	}
	// A stale revision is a conflict, and nothing is written.
	grant.Approve(vaultDir, g.RuntimeID, grant.WriteDocTool)
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": "---\n---\nOverwritten.\n", "expectedRevision": "rev-0000000000000000"}); !strings.Contains(msg, "conflict") || !strings.Contains(msg, r.Revision) {
		t.Fatalf("stale revision: %q", msg)
	}
	if got, _ := os.ReadFile(path); string(got) != doc {
		t.Fatalf("a conflicting write changed the document:\n%s", got)
	}
}
