package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContextCommand(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"CLAUDE.md":                   "Cite pages.\n<!-- @import notes/style.md -->\n<!-- @import ../../etc/passwd -->\n",
		"notes/style.md":              "Be brief.\n",
		".agentero/context/safety.md": "---\ndescription: Lab safety\ntrigger: always_on\npriority: critical\n---\nNo open flames.\n",
		".agentero/context/map.md":    "---\ndescription: Map of the notes\ntrigger: model_decision\n---\nsecret map body\n",
		".agentero/context/bad.md":    "---\ntrigger: sometimes\n---\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}

	out, errOut, code := run(t, "context", root, "--json")
	if code != 0 {
		t.Fatalf("context exit %d: %s", code, errOut)
	}
	var got struct {
		Guidance struct{ Path, Text string }
		Imports  []struct{ Path, From, Problem string }
		Manifest struct {
			Budget, Bytes int
			Entries       []struct{ ID, Priority, Load, Text string }
		}
		Index struct {
			Entries []struct{ ID, Description string }
		}
		Bytes  struct{ Guidance, Manifest, Index, Total int }
		Issues []struct{ Path, Problem string }
		Hash   string
		Prompt string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("context --json: %v\n%s", err, out)
	}
	if got.Guidance.Path != "CLAUDE.md" || !strings.Contains(got.Guidance.Text, "Cite pages.\nBe brief.\n") {
		t.Errorf("guidance = %+v", got.Guidance)
	}
	if len(got.Imports) != 2 || got.Imports[0].Path != "notes/style.md" || got.Imports[1].Problem != "the path leaves the vault" {
		t.Errorf("imports = %+v", got.Imports)
	}
	if len(got.Manifest.Entries) != 1 || got.Manifest.Entries[0].ID != "safety.md" || got.Manifest.Entries[0].Load != "full" || got.Manifest.Budget != 16000 {
		t.Errorf("manifest = %+v", got.Manifest)
	}
	if len(got.Index.Entries) != 1 || got.Index.Entries[0].ID != "map.md" || strings.Contains(got.Prompt, "secret map body") {
		t.Errorf("index = %+v", got.Index)
	}
	if len(got.Issues) != 2 || got.Issues[1].Path != ".agentero/context/bad.md" {
		t.Errorf("issues = %+v", got.Issues)
	}
	if got.Bytes.Total != len(got.Prompt) || !strings.HasPrefix(got.Hash, "sha256:") || !strings.HasPrefix(got.Prompt, `<vault-guidance file="CLAUDE.md">`) {
		t.Errorf("bytes %+v, hash %q, prompt:\n%s", got.Bytes, got.Hash, got.Prompt)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "chats")); err == nil {
		t.Error("agentero context wrote into the vault")
	}

	out, errOut, code = run(t, "context", root)
	if code != 0 || !strings.Contains(out, "guidance: CLAUDE.md") || !strings.Contains(out, "safety.md  critical, full") ||
		!strings.Contains(out, "issue: .agentero/context/bad.md") {
		t.Errorf("human output, exit %d (%s):\n%s", code, errOut, out)
	}

	// A manifest that cannot fit fails loudly, in one line.
	os.WriteFile(filepath.Join(root, ".agentero", "context", "rules.json"), []byte(`{"manifestByteBudget": 100}`), 0o644) // the entries alone are over it
	_, errOut, code = run(t, "context", root, "--json")
	if code != 1 || !strings.Contains(errOut, "does not fit its budget") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("too-large manifest: exit %d, stderr %q", code, errOut)
	}

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"context"}, 2, "want 1 arguments"},
		{[]string{"context", root, "--bogus"}, 2, "bogus"},
		{[]string{"context", filepath.Join(root, "missing")}, 1, "is not a vault folder"},
	} {
		_, errOut, code := run(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d mentioning %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}
