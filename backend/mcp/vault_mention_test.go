package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

// TestVaultMentionCoversRootFiles: @vault in a context request (through
// `agentero plan`, as the app's turns do) grants the text files at the
// vault's root too (AGENTS.md, README.md, notes.md), searched and read
// through the real agentero-context server like any granted file; hidden
// files, links out, non-text files and .agentero stay out.
func TestVaultMentionCoversRootFiles(t *testing.T) {
	needVault(t)
	root := t.TempDir()
	outside := t.TempDir()
	data, err := os.ReadFile(filepath.Join(vaultDir, filepath.FromSlash(pdfOf(paxos))))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		pdfOf(paxos):  string(data),
		"notes/a.md":  "A note in a folder about quorums.\n",
		"AGENTS.md":   "Agents: cite pages. The marmalade convention applies.\n",
		"README.md":   "This vault holds papers on consensus; the gooseberry index.\n",
		"notes.md":    "Loose notes at the root: the quince heuristic.\n",
		".hidden.md":  "hidden at the root: the tamarind secret.\n",
		"picture.png": "\x89PNG\r\n\x1a\n\x00\x00binary",
	}
	for p, text := range files {
		if err := write(root, p, text); err != nil {
			t.Fatal(err)
		}
	}
	if err := write(outside, "secret.md", "outside the vault: the kumquat secret.\n"); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"leak.md":   filepath.Join(outside, "secret.md"), // a link out of the vault
		"inside.md": "notes/a.md",                        // a link at the root: links are not granted
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	index := exec.Command(binary, "index", root)
	index.Env = testEnv()
	if out, err := index.CombinedOutput(); err != nil {
		t.Fatalf("agentero index: %v\n%s", err, out)
	}
	req := filepath.Join(t.TempDir(), "request.json")
	if err := os.WriteFile(req, []byte(`{"surface":"quickChat","selections":[],"mentions":[{"kind":"vault"}],"remote":false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	plan := exec.Command(binary, "plan", root, "--request", req, "--runtime-id", "vault-mention-1", "--json")
	plan.Env = testEnv()
	if out, err := plan.CombinedOutput(); err != nil {
		t.Fatalf("agentero plan: %v\n%s", err, out)
	}
	g, err := grant.Load(grant.Path(root, "vault-mention-1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"AGENTS.md", "README.md", "notes.md"} {
		if !g.Has(grant.KindFile, f) {
			t.Errorf("@vault does not grant the root file %s: %+v", f, g.Allowed)
		}
	}
	if !g.Has(grant.KindDirectory, "notes") || !g.Has(grant.KindPaper, paxos) {
		t.Errorf("@vault grant lacks the folders and papers: %+v", g.Allowed)
	}
	for _, s := range g.Allowed {
		if s.Ref == "." || strings.HasPrefix(s.Ref, ".") || s.Ref == "leak.md" || s.Ref == "inside.md" || s.Ref == "picture.png" {
			t.Errorf("@vault grants %+v", s)
		}
	}

	s := start(t, *g)
	// ok is session.ok for this vault (session.ok opens citations in the
	// shared test vault).
	ok := func(tool string, args map[string]any, v any) {
		t.Helper()
		text, isErr := s.call(tool, args)
		if isErr {
			t.Fatalf("%s %v: tool error %q", tool, args, text)
		}
		if err := json.Unmarshal([]byte(text), v); err != nil {
			t.Fatalf("%s: %v\n%s", tool, err, text)
		}
	}
	var found searchT
	ok("context_search", map[string]any{"query": "marmalade convention"}, &found)
	if len(found.Cards) == 0 || found.Cards[0].Ref != "AGENTS.md" || found.Cards[0].CitationURI != "AGENTS.md" {
		t.Errorf("search for the words of the root AGENTS.md: %+v", found.Cards)
	}
	for f, words := range map[string]string{"README.md": "gooseberry index", "notes.md": "quince heuristic", "AGENTS.md": "marmalade"} {
		var r struct{ Text, CitationURI string }
		ok("context_read", map[string]any{"ref": f}, &r)
		if !strings.Contains(r.Text, words) || r.CitationURI != f {
			t.Errorf("read %s: %+v", f, r)
		}
	}
	for _, ref := range []string{".hidden.md", "leak.md", "inside.md", "picture.png", ".agentero/index.sqlite", "../secret.md"} {
		if got := s.fails("context_read", map[string]any{"ref": ref}); got != grant.ErrRefused.Error() {
			t.Errorf("read %s: %q, want the uniform refusal", ref, got)
		}
	}
	for _, q := range []string{"tamarind secret", "kumquat secret"} {
		var r searchT
		ok("context_search", map[string]any{"query": q}, &r)
		if len(r.Cards) != 0 {
			t.Errorf("search %q reached %+v", q, r.Cards)
		}
	}
}
