package acp_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCompactNowAndClear: /compact keeps the summary state and lets the
// session go, so the next turn is a new session handed the compacted
// history; /clear makes the next session start with nothing handed over.
// The transcript only grows.
func TestCompactNowAndClear(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	h := newHost(t, root, db)
	ask(t, h, "cmds", "", sidebar, "How is double spending prevented?")
	ask(t, h, "cmds", "", sidebar, "What is a timestamp server?")
	cmds, err := h.Commands("cmds")
	if err != nil || len(cmds) < 2 || cmds[0].Name != "compact" || cmds[1].Name != "clear" || !cmds[0].Builtin {
		t.Fatalf("commands = %+v, %v", cmds, err)
	}
	transcript := filepath.Join(h.Store().Dir("cmds"), "transcript.jsonl")
	before, _ := os.ReadFile(transcript)

	res, err := h.CompactNow(context.Background(), "cmds")
	if err != nil || len(res.Whole)+len(res.Pruned)+len(res.Summarized) != 2 || res.TokensAfter > res.Window {
		t.Fatalf("compact now: %+v, %v", res, err)
	}
	r := ask(t, h, "cmds", "", sidebar, "Who wrote the paper?")
	if r.Session.Action != "new" {
		t.Errorf("after /compact the session is %q, want new", r.Session.Action)
	}
	if p, _ := h.Store().LastPrompt("cmds"); part(p, "handover") == "" {
		t.Error("after /compact the new session was handed nothing")
	}

	if err := h.Clear("cmds"); err != nil {
		t.Fatal(err)
	}
	r = ask(t, h, "cmds", "", sidebar, "What is proof-of-work?")
	if r.Session.Action != "new" {
		t.Errorf("after /clear the session is %q, want new", r.Session.Action)
	}
	if p, _ := h.Store().LastPrompt("cmds"); part(p, "handover") != "" {
		t.Errorf("after /clear the new session was handed the old turns:\n%s", part(p, "handover"))
	}
	conv, _ := h.Store().Load("cmds")
	if len(conv.Messages) != 8 {
		t.Errorf("the thread keeps %d messages, want all 8", len(conv.Messages))
	}
	after, _ := os.ReadFile(transcript)
	if !bytes.HasPrefix(after, before) {
		t.Error("the transcript was rewritten")
	}
}
