package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/google/go-cmp/cmp"
)

// A turn's answer is checked against the pages it cites: the built-in
// agent quotes sentences it read from their pages, so each of its
// citations is verified; the checks go out with agent:completed and are
// kept with the message and in the transcript.
func TestTurnChecksClaims(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	h := newHost(t, root, db)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/in-search-of-an-understandable-consensus-algorithm"}
	r := ask(t, h, "raft", "", req, "How does Raft elect a leader?")
	content, checks := r.Completed.Content, r.Completed.Checks
	if len(checks) == 0 {
		t.Fatalf("no checks of the answer:\n%s", content)
	}
	if testing.Verbose() {
		for _, c := range checks {
			t.Logf("line %d %s %s: %s", c.Line, c.URI, c.Verdict, c.Why)
		}
	}
	verified := 0
	for _, c := range checks {
		if c.Line < 1 || c.Start < 0 || c.End > len(content) || !strings.Contains(content[c.Start:c.End], strings.SplitN(c.URI, "#", 2)[0]) {
			t.Errorf("check %+v is not where its citation is", c)
		}
		if c.Why == "" {
			t.Errorf("check of %s says nothing", c.URI)
		}
		if c.Verdict == citation.Verified {
			verified++
		}
		if c.Verdict != citation.Verified && c.Verdict != citation.Supported {
			t.Errorf("the built-in agent's citation %s: %s (%s)", c.URI, c.Verdict, c.Why)
		}
	}
	if verified == 0 {
		t.Errorf("no quote verified: %+v", checks)
	}

	conv, err := h.Store().Load("raft")
	if err != nil {
		t.Fatal(err)
	}
	last := conv.Messages[len(conv.Messages)-1]
	if diff := cmp.Diff(checks, last.Checks); diff != "" {
		t.Errorf("stored message's checks (-completed +stored):\n%s", diff)
	}
	tr, err := h.Store().Transcript("raft")
	if err != nil {
		t.Fatal(err)
	}
	var stored []citation.Check
	for _, e := range tr {
		if e.Kind != "assistant" {
			continue
		}
		raw, _ := json.Marshal(e.Data)
		var data struct {
			Checks []citation.Check `json:"checks"`
		}
		if err := json.Unmarshal(raw, &data); err != nil {
			t.Fatal(err)
		}
		stored = data.Checks
	}
	if diff := cmp.Diff(checks, stored); diff != "" {
		t.Errorf("transcript's checks (-completed +transcript):\n%s", diff)
	}
}

// A turn whose answer cites nothing has no checks, as an empty list.
func TestTurnWithoutCitations(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	h := newHost(t, root, db)
	r := ask(t, h, "none", "", nothing, "What is proof of work?")
	if r.Completed.Checks == nil || len(r.Completed.Checks) != 0 {
		t.Errorf("checks = %#v, want an empty list:\n%s", r.Completed.Checks, r.Completed.Content)
	}
}

// An agent's answer is checked whatever it cites: a page outside the
// turn's grant is outside, a figure on another page is wrong-page, a URI
// that does not open is broken. An answer the check cannot take (more
// citations than a text may have checked) still ends its turn, without
// checks.
func TestTurnChecksAnAgentsAnswer(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	const raft = "papers/in-search-of-an-understandable-consensus-algorithm/in-search-of-an-understandable-consensus-algorithm.pdf"
	answer := filepath.Join(t.TempDir(), "answer.md")
	os.WriteFile(answer, []byte("Raft's election timeouts are 150–300 ms ["+raft+"#page=1].\n\n"+
		"Proof-of-work is essentially one-CPU-one-vote [papers/bitcoin/bitcoin.pdf#page=3].\n\n"+
		"See also [the appendix](papers/ghost/ghost.pdf#page=2).\n"), 0o644)
	ag, _ := peer(t, "peer", "", "")
	ag.Env["PEER_ANSWER_FILE"] = answer
	h := newHost(t, root, db, ag)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/in-search-of-an-understandable-consensus-algorithm"}
	r := ask(t, h, "peer", "peer", req, "How long are Raft's election timeouts?")
	type verdict struct {
		Page      int
		Verdict   citation.Verdict
		FoundPage int
	}
	var got []verdict
	for _, c := range r.Completed.Checks {
		got = append(got, verdict{c.Page, c.Verdict, c.FoundPage})
	}
	want := []verdict{{1, citation.WrongPage, 6}, {3, citation.Outside, 0}, {2, citation.Broken, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}

	var many strings.Builder
	for range claim.MaxCitations + 1 {
		many.WriteString("Raft [" + raft + "#page=6]\n")
	}
	os.WriteFile(answer, []byte(many.String()), 0o644)
	r = ask(t, h, "peer-many", "peer", req, "Cite everything")
	if r.Completed.StopReason != "end_turn" || r.Completed.Checks == nil || len(r.Completed.Checks) != 0 {
		t.Errorf("an answer the check cannot take: stop %q, checks %d", r.Completed.StopReason, len(r.Completed.Checks))
	}
}
