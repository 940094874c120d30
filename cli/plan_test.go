package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

func TestPlanWritesGrant(t *testing.T) {
	root := corpustest.Vault(t, "bitcoin.pdf", "peercoin.pdf")
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"surface":"sidebar","currentPaper":"papers/bitcoin",
		"selections":[{"sourcePath":"papers/bitcoin/bitcoin.pdf","page":2,"text":"timestamp server"}],
		"mentions":[{"kind":"paper","path":"papers/peercoin"},{"kind":"directory","path":"../.."}]}`), 0o644)
	out, errOut, code := run(t, "plan", root, "--request", req, "--runtime-id", "conv-7", "--json")
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	var p struct {
		Mode, Fingerprint, Prompt, GrantPath string
		Allowed                              []struct{ Kind, Ref string }
		Evidence                             []struct{ Ref, CitationURI string }
		Refused                              []struct{ Kind, Path string }
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if p.Mode != "mcp" || len(p.Allowed) != 2 || len(p.Refused) != 1 || p.Evidence[0].CitationURI != "papers/bitcoin/bitcoin.pdf#page=2" {
		t.Errorf("plan = %+v", p)
	}
	if want := filepath.Join(root, ".agentero", "context-sessions", "conv-7", "grant.json"); p.GrantPath != want {
		t.Errorf("grantPath = %q, want %q", p.GrantPath, want)
	}
	if _, err := os.Stat(p.GrantPath); err != nil {
		t.Errorf("grant not written: %v", err)
	}
	if !strings.Contains(p.Prompt, "> timestamp server") {
		t.Errorf("prompt lacks the quote:\n%s", p.Prompt)
	}

	os.WriteFile(req, []byte(`{"surface":"quickChat","remote":true,"currentPaper":"papers/bitcoin"}`), 0o644)
	out, _, code = run(t, "plan", root, "--request", req, "--runtime-id", "conv-8", "--json")
	json.Unmarshal([]byte(out), &p)
	if code != 0 || p.Mode != "prompt-only" || !strings.Contains(p.Prompt, "cannot read the vault") {
		t.Errorf("remote plan: exit %d mode %q", code, p.Mode)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "context-sessions", "conv-8")); err == nil {
		t.Error("a prompt-only plan wrote a grant")
	}
	for _, bad := range [][]string{{"plan", root}, {"plan", root, "--request", req, "--runtime-id", "../x"}} {
		if _, _, code := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// A request file is read strictly: a misspelt field would otherwise grant
// less than the user pointed at, silently.
func TestRequestFileIsStrict(t *testing.T) {
	root := t.TempDir()
	for _, tt := range []struct {
		name, body, want string
	}{
		{"unknown field", `{"surface":"sidebar","mention":[{"kind":"paper","path":"papers/a"}]}`, `unknown field "mention"`},
		{"two values", `{"surface":"sidebar"} {"surface":"quickChat"}`, "more than one JSON value"},
		{"not JSON", `surface: sidebar`, "not a ContextRequest"},
		{"bad surface", `{"surface":"desk"}`, `surface must be "sidebar" or "quickChat"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := filepath.Join(t.TempDir(), "req.json")
			os.WriteFile(req, []byte(tt.body), 0o644)
			for _, verb := range []string{"plan", "ask"} {
				args := []string{verb, root, "--request", req}
				if verb == "ask" {
					args = append(args, "a question")
				}
				_, errOut, code := run(t, args...)
				if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
					t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line mentioning %q", verb, code, errOut, tt.want)
				}
			}
		})
	}
}
