package mcp_test

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/grant"
)

// TestTurnBudget: reads stop at the turn's budget, cut what they can, and
// then say the budget is spent; nothing returned passes it.
func TestTurnBudget(t *testing.T) {
	b := grant.DefaultBudget()
	b.TurnChars = 12000
	s := start(t, grantOf(b, grant.Source{Kind: grant.KindPaper, Ref: raft}))
	returned, cut, spent := 0, false, false
	for page := 1; page <= 17; page++ {
		text, isErr := s.call("context_read", map[string]any{"ref": raft, "mode": "page", "page": page})
		if isErr {
			if !strings.Contains(text, "budget") || !strings.Contains(text, "spent") {
				t.Fatalf("page %d: %q", page, text)
			}
			spent = true
			break
		}
		returned += utf8.RuneCountInString(text)
		var r textT
		json.Unmarshal([]byte(text), &r)
		if r.Truncated && strings.Contains(r.Note, "budget") {
			cut = true
			if r.NextCursor == "" {
				t.Errorf("page %d cut by the budget without a cursor", page)
			}
		}
	}
	if returned > b.TurnChars {
		t.Errorf("returned %d characters in a turn of %d", returned, b.TurnChars)
	}
	if !cut || !spent {
		t.Errorf("cut %v, spent %v: want a read cut to the budget, then the budget spent", cut, spent)
	}
	// Searches are refused too once it is spent.
	if msg := s.fails("context_search", map[string]any{"query": "leader"}); !strings.Contains(msg, "spent") {
		t.Errorf("search after the budget: %q", msg)
	}
}

// TestUsageParallel runs tool calls in parallel and checks that usage.jsonl
// holds one whole line per citation URI returned, each once per call.
func TestUsageParallel(t *testing.T) {
	b := grant.DefaultBudget()
	b.TurnChars = 1000000
	g := usual()
	g.Budget = b
	s := start(t, g)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"context_search", map[string]any{"query": "leader election"}},
		{"context_search", map[string]any{"query": "consensus"}},
		{"context_search", map[string]any{"query": "attention heads"}},
		{"context_read", map[string]any{"ref": raft}},
		{"context_read", map[string]any{"ref": raft, "mode": "page", "page": 2}},
		{"context_read", map[string]any{"ref": attention, "mode": "section", "section": "Training"}},
		{"context_read", map[string]any{"ref": paxos, "mode": "excerpt", "quote": "the synod algorithm"}},
		{"context_read", map[string]any{"ref": "notes/consensus/raft.md"}},
		{"context_read", map[string]any{"ref": "notes/consensus"}}, // no location: no line
		{"paper_relations", map[string]any{"ref": paxos}},
		{"context_read", map[string]any{"ref": bitcoin}}, // refused: no line
	}
	var mu sync.Mutex
	var want []string
	var wg sync.WaitGroup
	for round := range 4 {
		for i, c := range calls {
			wg.Go(func() {
				text, isErr := s.call(c.tool, c.args)
				if isErr {
					if c.args["ref"] != bitcoin {
						t.Errorf("round %d call %d: %s", round, i, text)
					}
					return
				}
				seen := map[string]bool{}
				mu.Lock()
				defer mu.Unlock()
				for _, u := range citationURIs(text) {
					if !seen[u] {
						seen[u] = true
						want = append(want, c.tool+" "+u)
					}
				}
			})
		}
	}
	wg.Wait()
	var got []string
	for _, line := range s.usage() {
		if line["at"] == "" || line["ref"] == "" || !strings.HasPrefix(line["citationUri"], strings.SplitN(line["ref"], "#", 2)[0]) {
			t.Errorf("usage line %v", line)
		}
		got = append(got, line["tool"]+" "+line["citationUri"])
	}
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("usage.jsonl (-returned +logged):\n%s", diff)
	}
	if len(got) < 40 {
		t.Errorf("only %d usage lines from %d calls", len(got), 4*len(calls))
	}
}
