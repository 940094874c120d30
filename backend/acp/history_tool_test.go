package acp_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
)

// TestPrunedTurnReadBack: a conversation with the built-in agent is handed
// to a new session with a window so small that its first turn is pruned out
// of the prompt; asked about that turn, the agent reads it back through
// context_history (which is in the turn's grant and fingerprint) and quotes
// the user's words. The transcript is not touched.
func TestPrunedTurnReadBack(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	h := newHost(t, root, db)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/in-search-of-an-understandable-consensus-algorithm"}
	first := "How is a leader elected in Raft?"
	questions := []string{first, "What is a term?", "How are logs replicated?", "What is the commit index?", "How does membership change work?"}
	for _, q := range questions {
		r := ask(t, h, "hist", "", req, q)
		if !slices.Contains(r.Plan.Tools, plan.HistoryTool) {
			t.Fatalf("the turn's tools %v lack %s", r.Plan.Tools, plan.HistoryTool)
		}
	}
	transcript := filepath.Join(h.Store().Dir("hist"), "transcript.jsonl")
	before, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	// A small window: the history must be pruned, and it fits.
	dry, err := h.Compaction(context.Background(), "hist", "", 1500, false)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(dry.Whole, 1) || dry.TokensAfter > 1500 {
		t.Fatalf("turn 1 is sent whole or the history is over the window: %+v", dry)
	}
	cfg := &agentconf.Agents{Default: agentconf.BuiltinName, List: []agentconf.Agent{agentconf.Builtin(binary)}}
	cfg.List[0].ContextWindow = 1500
	h.SetAgents(cfg)
	wider := req
	wider.Mentions = []plan.Mention{{Kind: "paper", Path: "papers/bitcoin"}}
	r := ask(t, h, "hist", "", wider, "What did I ask in turn 1?")
	if r.Session.Action != "new" {
		t.Fatalf("session %+v: want a new session, handed the compacted history", r.Session)
	}
	sent, err := h.Store().LastPrompt("hist")
	if err != nil || sent == nil {
		t.Fatalf("the sent prompt was not kept: %v", err)
	}
	handover := ""
	for _, p := range sent.Parts {
		if p.Kind == "handover" {
			handover = p.Text
		}
	}
	if handover == "" || strings.Contains(handover, "User: "+first) || strings.Contains(handover, ".agentero/") || !strings.Contains(handover, "context_history") {
		t.Fatalf("the handover should hold turn 1 only as a pointer to context_history:\n%s", handover)
	}
	if !slices.Contains(sent.Tools, plan.HistoryTool) {
		t.Errorf("the session's tools %v lack context_history", sent.Tools)
	}
	answer := r.Completed.Content
	if !strings.Contains(answer, "read back with context_history") || !strings.Contains(answer, first) {
		t.Fatalf("the answer does not quote turn 1 read back through context_history:\n%s", answer)
	}
	conv, err := h.Store().Load("hist")
	if err != nil {
		t.Fatal(err)
	}
	last := conv.Messages[len(conv.Messages)-1]
	called := false
	for _, tc := range last.Tools {
		if strings.Contains(tc.Title, "context_history") {
			called = true
		}
	}
	if !called {
		t.Errorf("no context_history call recorded with the answer: %+v", last.Tools)
	}
	after, _ := os.ReadFile(transcript)
	if !bytes.HasPrefix(after, before) {
		t.Error("the transcript was rewritten: its old bytes are not a prefix of the new file")
	}
}

// TestSnapshotNamesOnlyTheSessionsTools: a vault with context documents
// and a skill. An mcp turn's grant names the document and skill tools, and
// its snapshot points at them; a prompt-only turn's snapshot names no tool.
func TestSnapshotNamesOnlyTheSessionsTools(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ctxDir := filepath.Join(root, ".agentero", "context")
	os.MkdirAll(ctxDir, 0o700)
	os.WriteFile(filepath.Join(ctxDir, "lab.md"), []byte("---\ndescription: Lab rules\ntrigger: always_on\n---\n"+strings.Repeat("Always cite the page. ", 2000)+"\n"), 0o600)
	os.WriteFile(filepath.Join(ctxDir, "more.md"), []byte("---\ndescription: More notes\ntrigger: model_decision\n---\nbody\n"), 0o600)
	os.WriteFile(filepath.Join(ctxDir, "accounts.md"), []byte("---\ndescription: Lab accounts\ntrigger: always_on\npriority: critical\nsensitivity: sensitive\n---\nThe lab password is hunter2.\n"), 0o600)
	os.MkdirAll(filepath.Join(root, ".agents", "skills", "cite-check"), 0o755)
	os.WriteFile(filepath.Join(root, ".agents", "skills", "cite-check", "SKILL.md"), []byte("---\nname: cite-check\ndescription: Check every citation opens the right page\n---\nOpen each source and compare.\n"), 0o644)
	h := newHost(t, root, db)

	r := ask(t, h, "tools", "", sidebar, "What is double spending?")
	for _, tool := range append(append([]string{plan.HistoryTool, plan.SkillTool}, plan.DocTools...), plan.Tools...) {
		if !slices.Contains(r.Plan.Tools, tool) {
			t.Errorf("the grant's tools %v lack %s", r.Plan.Tools, tool)
		}
	}
	if r.Plan.Fingerprint != plan.Fingerprint(r.Plan.Tools, r.Plan.Allowed, r.Plan.Budget, r.Plan.Mode) {
		t.Error("the fingerprint is not of the grant's tools")
	}
	sent, _ := h.Store().LastPrompt("tools")
	snap := part(sent, "snapshot")
	for _, want := range []string{"context_read_doc", "context_read_skill", "cite-check: Check every citation", `trust="workspace"`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the mcp session's snapshot lacks %q:\n%.2000s", want, snap)
		}
	}

	if !strings.Contains(snap, "hunter2") {
		t.Error("a local session's snapshot lacks the sensitive always-on document")
	}

	// A remote request: the sensitive body is never sent, the rest is.
	remote := plan.Request{Surface: plan.SurfaceQuickChat, Remote: true}
	ask(t, h, "remote", "", remote, "What is double spending?")
	sent, _ = h.Store().LastPrompt("remote")
	snap = part(sent, "snapshot")
	if strings.Contains(snap, "hunter2") || !strings.Contains(snap, "Lab accounts") || !strings.Contains(snap, "Always cite the page.") {
		t.Errorf("a remote session's snapshot holds the sensitive body or lost the rest:\n%.3000s", snap)
	}

	quick := plan.Request{Surface: plan.SurfaceQuickChat}
	ask(t, h, "prompt-only", "", quick, "What is double spending?")
	sent, _ = h.Store().LastPrompt("prompt-only")
	if len(sent.Tools) != 0 {
		t.Fatalf("a prompt-only session lists tools %v", sent.Tools)
	}
	snap = part(sent, "snapshot")
	if snap == "" || !strings.Contains(snap, "Always cite the page.") {
		t.Fatalf("the prompt-only session got no snapshot:\n%s", snap)
	}
	for _, tool := range []string{"context_read_doc", "context_list_docs", "context_read_skill", "context_history"} {
		if strings.Contains(snap, tool) {
			t.Errorf("a prompt-only session's snapshot names %s, which it cannot call", tool)
		}
	}
}

func part(p *conversation.SentPrompt, kind string) string {
	if p == nil {
		return ""
	}
	for _, x := range p.Parts {
		if x.Kind == kind {
			return x.Text
		}
	}
	return ""
}
