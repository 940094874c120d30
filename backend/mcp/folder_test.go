package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

// TestFolderGrantCoversPapers does what a new user does: @-mention the
// folder papers/ (here through `agentero plan`, which the app's turns use
// too), then the agent searches and reads through the grant that plan
// wrote. The papers inside the folder, at any depth, are searched and read
// as papers; a PDF outside it is still refused.
func TestFolderGrantCoversPapers(t *testing.T) {
	setupOnce.Do(setup)
	needVault(t)
	req := filepath.Join(t.TempDir(), "request.json")
	if err := os.WriteFile(req, []byte(`{"surface":"quickChat","selections":[],"mentions":[{"kind":"directory","path":"papers"}],"remote":false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "plan", vaultDir, "--request", req, "--runtime-id", "folder-grant-1", "--json")
	cmd.Env = testEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agentero plan: %v\n%s", err, out)
	}
	g, err := grant.Load(grant.Path(vaultDir, "folder-grant-1"))
	if err != nil {
		t.Fatal(err)
	}
	if !g.Has(grant.KindPaper, raft) || !g.Has(grant.KindDirectory, "papers") {
		t.Fatalf("the grant of papers/ lists %+v; want the folder and each paper in it", g.Allowed)
	}
	s := start(t, *g)

	var r searchT
	s.ok("context_search", map[string]any{"query": "leader election randomized timeouts"}, &r)
	found := false
	for _, c := range r.Cards {
		if c.Ref == raft && c.Page > 0 && strings.Contains(c.CitationURI, ".pdf#page=") {
			found = true
		}
	}
	if !found {
		t.Fatalf("a search under a grant of papers/ found no page of %s: %+v", raft, r.Cards)
	}
	var page struct{ Text string }
	s.ok("context_read", map[string]any{"ref": raft, "mode": "page", "page": 1}, &page)
	if !strings.Contains(strings.ToLower(page.Text), "raft") {
		t.Errorf("reading page 1 of %s under the folder grant: %.200q", raft, page.Text)
	}

	// A folder grant covers its own folder only.
	s2 := start(t, grantOf(grant.DefaultBudget(), grant.Source{Kind: grant.KindDirectory, Ref: "notes"}))
	s2.fails("context_read", map[string]any{"ref": raft, "mode": "page", "page": 1})
}
