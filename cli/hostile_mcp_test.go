//go:build unix

package cli_test

import (
	"context"
	"os/exec"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/internal/hostilevault"
)

// TestHostileVaultMCP serves the hostile vault of issue 13 to a user's MCP
// client (`agentero mcp`, the real binary): every planted path and its
// folder is read, listed, searched and asked for relations; nothing hangs,
// the marker of the files outside the vault never shows, and every path
// that leaves the vault or reaches .agentero gets the one refusal. A vault
// whose .agentero links out is not served at all.
func TestHostileVaultMCP(t *testing.T) {
	v := hostilevault.Build(t)
	before := v.Snapshot(t)
	if _, _, code := runIn(t, env(t), "index", v.Root, "--json"); code != 0 {
		t.Fatalf("index exit %d", code)
	}
	cmd := exec.Command(binary, "mcp", v.Root)
	cmd.Env = append(cmd.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if strings.Contains(strings.ToLower(text), hostilevault.Marker) {
			t.Errorf("%s %v shows the marker of a file outside the vault:\n%.1000s", tool, args, text)
		}
		return text, res.IsError
	}
	refused := mcp.ErrVaultRefused.Error()
	reads, stateRefusals := 0, 0
	for _, p := range v.Plants {
		if p.Vault != "root" {
			continue
		}
		for _, ref := range []string{p.Path, path.Dir(p.Path)} {
			start := time.Now()
			text, isErr := call("read", map[string]any{"ref": ref})
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("read %s (%s) took %v", ref, p.What, d)
			}
			reads++
			if strings.HasPrefix(ref, ".agentero") {
				stateRefusals++
				if !isErr || text != refused {
					t.Errorf("read %s (%s): %.200q, want the refusal", ref, p.What, text)
				}
			}
			call("relations", map[string]any{"ref": ref})
			call("read", map[string]any{"ref": ref, "mode": "full"})
		}
	}
	t.Logf("%d planted paths and folders read, %d of them in .agentero refused", reads, stateRefusals)
	if reads < 40 || stateRefusals < 10 {
		t.Errorf("only %d reads, %d state refusals: the fixture changed?", reads, stateRefusals)
	}
	for _, q := range []string{hostilevault.Marker, "sentinel", "private"} {
		text, _ := call("search", map[string]any{"query": q, "limit": 50})
		if strings.Contains(text, ".agentero") {
			t.Errorf("search %q reached the state folder: %.300s", q, text)
		}
	}
	call("list_papers", map[string]any{"limit": 50})
	call("read", map[string]any{"ref": "."})
	cs.Close()

	// A vault whose .agentero links out is refused before anything is served.
	linked := exec.Command(binary, "mcp", v.Linked)
	linked.Env = cmd.Env
	out, err := linked.CombinedOutput()
	if err == nil || strings.Contains(strings.ToLower(string(out)), hostilevault.Marker) {
		t.Errorf("agentero mcp on a vault whose .agentero links out: %v\n%s", err, out)
	}
	if d := cmp.Diff(before, v.Snapshot(t)); d != "" {
		t.Errorf("files appeared or changed outside the vaults (-before +after):\n%s", d)
	}
	for _, dir := range []string{v.Root, v.Linked} {
		if leaks := hostilevault.Leaks(t, dir); len(leaks) > 0 {
			t.Errorf("the marker of a file outside the vault is in %s: %v", dir, leaks)
		}
	}
}
