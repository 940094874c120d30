package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/refs"
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

// TestInProcessParallel runs the server in this process, so that `go test
// -race` watches the turn meter and the usage log under parallel calls.
func TestInProcessParallel(t *testing.T) {
	needVault(t)
	db, err := index.Open(index.Path(vaultDir), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := usual()
	g.Budget.TurnChars = 30000
	usagePath := filepath.Join(t.TempDir(), "usage.jsonl")
	srv := mcp.NewServer(&g, db, slog.New(slog.NewTextHandler(io.Discard, nil)), mcp.Options{UsagePath: usagePath})
	defer srv.Close()
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var mu sync.Mutex
	returned, spent := 0, 0
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			args := map[string]any{"ref": raft, "mode": "page", "page": i%17 + 1}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "context_read", Arguments: args})
			if err != nil {
				t.Error(err)
				return
			}
			text := res.Content[0].(*sdk.TextContent).Text
			mu.Lock()
			defer mu.Unlock()
			if res.IsError {
				spent++
				return
			}
			returned += utf8.RuneCountInString(text)
		})
	}
	wg.Wait()
	if returned > g.Budget.TurnChars || spent == 0 {
		t.Errorf("returned %d characters of a %d budget; %d calls refused", returned, g.Budget.TurnChars, spent)
	}
	data, _ := os.ReadFile(usagePath)
	if lines := strings.Count(string(data), "\n"); lines != 40-spent {
		t.Errorf("%d usage lines for %d results", lines, 40-spent)
	}
}
