package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
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
// approval of the user a call (held in the host's memory and taken through
// its socket), returns a receipt, and refuses a stale revision without
// writing. An approval file shipped in the vault's state folder, where
// earlier releases kept them, is not an approval.
func TestWriteDocNeedsApproval(t *testing.T) {
	needVault(t)
	approvals, err := grant.ListenApprovals(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { approvals.Close() })
	g := usual()
	g.Tools = append(g.Tools, grant.WriteDocTool)
	g.Approvals = approvals.Path()
	id := "written-by-test.md"
	path := filepath.Join(vaultDir, ".agentero", "context", id)
	t.Cleanup(func() { os.Remove(path) })
	// What an earlier release took for an approval, as a vault from
	// someone else could hold it.
	shipped, err := vault.StateFolder(vaultDir, "context-sessions", g.RuntimeID, "approvals")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shipped) })
	for _, name := range []string{"00000000000000000001-" + grant.WriteDocTool + "-aaaaaaaaaaaa", grant.WriteDocTool} {
		os.WriteFile(filepath.Join(shipped, name), []byte(grant.WriteDocTool+"\n"), 0o600)
	}
	s := start(t, g)
	doc := "---\ndescription: Written by an agent\n---\nFirst version.\n"
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": doc}); !strings.Contains(msg, "not approved") {
		t.Fatalf("a write with only shipped approval files: %q", msg)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a write approved only by files in the vault was written")
	}
	approvals.Approve("another-runtime", grant.WriteDocTool)
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": doc}); !strings.Contains(msg, "not approved") {
		t.Fatalf("a write approved for another session: %q", msg)
	}
	approvals.Approve(g.RuntimeID, grant.WriteDocTool)
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
	approvals.Approve(g.RuntimeID, grant.WriteDocTool)
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": "---\n---\nOverwritten.\n", "expectedRevision": "rev-0000000000000000"}); !strings.Contains(msg, "conflict") || !strings.Contains(msg, r.Revision) {
		t.Fatalf("stale revision: %q", msg)
	}
	if got, _ := os.ReadFile(path); string(got) != doc {
		t.Fatalf("a conflicting write changed the document:\n%s", got)
	}
	// The turn ended: what the user approved for it is gone.
	approvals.Approve(g.RuntimeID, grant.WriteDocTool)
	approvals.Forget(g.RuntimeID)
	if msg := s.fails(grant.WriteDocTool, map[string]any{"id": id, "content": "---\n---\nLater.\n", "expectedRevision": r.Revision}); !strings.Contains(msg, "not approved") {
		t.Fatalf("a write on an approval of an ended turn: %q", msg)
	}
}

// TestDefaultGrantIsReadOnly: the grant a turn gets by default (resolved
// from a request by the plan, as the host resolves it) offers no tool that
// writes, through the real server; an agent the user allowed to write gets
// context_write_doc.
func TestDefaultGrantIsReadOnly(t *testing.T) {
	needVault(t)
	db, err := index.Open(index.Path(vaultDir), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	req := plan.Request{Surface: plan.SurfaceSidebar, CurrentPaper: raft}
	listed := func(writes bool) []*mcpsdk.Tool {
		r := &plan.Resolver{Vault: vaultDir, Papers: db, WriteDocs: writes}
		p, err := r.Resolve(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		g := usual()
		g.Tools, g.Allowed, g.Fingerprint = p.Tools, p.Allowed, p.Fingerprint
		tools, err := start(t, g).cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return tools.Tools
	}
	var names []string
	for _, tool := range listed(false) {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("a default grant offers %s, which is not read-only", tool.Name)
		}
	}
	if slices.Contains(names, grant.WriteDocTool) || !slices.Contains(names, "context_read") {
		t.Errorf("a default grant offers %v", names)
	}
	names = nil
	for _, tool := range listed(true) {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, grant.WriteDocTool) {
		t.Errorf("the grant of an agent allowed to write offers %v, without %s", names, grant.WriteDocTool)
	}
}
