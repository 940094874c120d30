package mcp_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestToolsList holds the tool schemas to a golden file: they are the
// server's contract, and a cost paid on every request an agent makes.
func TestToolsList(t *testing.T) {
	s := start(t, usual())
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if diff := cmp.Diff([]string{"context_read", "context_search", "paper_relations"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	compact, _ := json.Marshal(res.Tools)
	t.Logf("tools/list: %d bytes of tool definitions", len(compact))
	golden := filepath.Join("testdata", "tools.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
		t.Errorf("tool schemas changed (-golden +got); run with -update if intended:\n%s", diff)
	}
}

// TestToolsOfTheGrant: the server offers only the tools the grant names.
func TestToolsOfTheGrant(t *testing.T) {
	g := usual()
	g.Tools = []string{"context_search", "context_read"}
	s := start(t, g)
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 {
		t.Errorf("%d tools, want the 2 the grant names", len(res.Tools))
	}
	if _, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "paper_relations", Arguments: map[string]any{"ref": raft}}); err == nil {
		t.Error("a tool the grant does not name answered")
	}
}
