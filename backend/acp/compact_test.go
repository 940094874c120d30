package acp_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
)

// TestHandoverIsCompacted runs a conversation with the built-in agent, then
// changes what the turn may read with a small window: the new session gets
// a compacted history — summarized by the agent in a call of its own — and
// the transcript is left byte for byte as it was.
func TestHandoverIsCompacted(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	h := newHost(t, root, db)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/in-search-of-an-understandable-consensus-algorithm"}
	questions := []string{"How is a leader elected?", "What is a term?", "How are logs replicated?", "What is the commit index?",
		"How does membership change work?", "What about log compaction?", "How do clients interact?", "What is the election timeout?"}
	for i, q := range questions {
		ask(t, h, "long", "", req, q)
		if i == 0 {
			continue
		}
	}
	transcript := filepath.Join(h.Store().Dir("long"), "transcript.jsonl")
	before, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}

	// A dry run at a small window: every tier fires, nothing is written.
	res, err := h.Compaction(context.Background(), "long", "", 3000, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Tiers, "prune") || !slices.Contains(res.Tiers, "summarize") || res.TokensAfter > 3000 {
		t.Fatalf("tiers = %v (notes %v), %d tokens: want prune and summarize, within the window", res.Tiers, res.Notes, res.TokensAfter)
	}
	for _, q := range questions[:res.SummarizedN] {
		if !strings.Contains(res.Summary, fmt.Sprintf("%q", q)) {
			t.Errorf("summarized question %q is not verbatim in the summary", q)
		}
	}
	for _, n := range res.Whole {
		if !strings.Contains(res.Text, "User: "+questions[n-1]) {
			t.Errorf("turn %d is listed whole but not sent", n)
		}
	}
	if _, err := os.Stat(filepath.Join(h.Store().Dir("long"), "compaction.json")); err == nil {
		t.Error("a dry run stored a summary")
	}

	// The real handover: a new session because the grant changed.
	cfg := &agentconf.Agents{Default: agentconf.BuiltinName, List: []agentconf.Agent{agentconf.Builtin(binary)}}
	// A window the history alone would fill: the tiers are taken against
	// the whole window, with the rest of the prompt counted.
	cfg.List[0].ContextWindow = res.TokensBefore
	h.SetAgents(cfg)
	wider := req
	wider.Mentions = []plan.Mention{{Kind: "paper", Path: "papers/bitcoin"}}
	r := ask(t, h, "long", "", wider, "And what does the bitcoin paper say about timestamps?")
	if r.Session.Action != "new" || !strings.Contains(r.Session.Note, "compacted") {
		t.Errorf("session = %+v, want a new session whose note says the history was compacted", r.Session)
	}
	if _, err := os.Stat(filepath.Join(h.Store().Dir("long"), "compaction.json")); err != nil {
		t.Errorf("the summary was not kept for the next compaction: %v", err)
	}
	after, _ := os.ReadFile(transcript)
	if !bytes.HasPrefix(after, before) {
		t.Error("compaction rewrote the transcript: the old bytes are not a prefix of the new file")
	}
}
