package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/refs"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestContextDocTools: a vault with context documents gets two small read
// tools for them; one without gets none (see TestToolsList).
func TestContextDocTools(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agentero", "context")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "style.md"), []byte("---\ndescription: How to cite\ntrigger: model_decision\n---\n"+strings.Repeat("Cite pages. ", 1000)), 0o644)
	os.MkdirAll(filepath.Join(root, "papers"), 0o755)
	db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := &grant.Grant{Version: 1, Vault: root, RuntimeID: "r1", Mode: grant.ModeMCP, Budget: grant.DefaultBudget(),
		Allowed: []grant.Source{{Kind: grant.KindDirectory, Ref: "papers"}}}
	s := mcp.NewServer(g, db, nil, mcp.Options{})
	defer s.Close()
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) (string, bool) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	text, isErr := call("context_list_docs", map[string]any{})
	var page struct {
		Docs []struct{ ID, Description string }
	}
	if isErr || json.Unmarshal([]byte(text), &page) != nil || len(page.Docs) != 1 || page.Docs[0].ID != "style.md" {
		t.Fatalf("list = %s", text)
	}
	text, isErr = call("context_read_doc", map[string]any{"id": "style.md"})
	var seg struct {
		Text       string
		NextOffset int
	}
	if isErr || json.Unmarshal([]byte(text), &seg) != nil || len(seg.Text) != 8192 || seg.NextOffset != 8192 {
		t.Errorf("first segment: %d bytes, next %d (%.100s)", len(seg.Text), seg.NextOffset, text)
	}
	for _, bad := range []string{"../../papers/x", "missing.md", "/etc/passwd"} {
		if text, isErr := call("context_read_doc", map[string]any{"id": bad}); !isErr || strings.Contains(text, "passwd") {
			t.Errorf("read %q: %s", bad, text)
		}
	}
}
