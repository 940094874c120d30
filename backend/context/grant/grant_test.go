package grant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func grantFor(vault, runtimeID string) Grant {
	return Grant{Version: Version, Vault: vault, RuntimeID: runtimeID, CreatedAt: time.Unix(0, 0).UTC(), Mode: ModeMCP,
		Tools: []string{"context_search"}, Allowed: []Source{{Kind: KindPaper, Ref: "papers/raft"}}, Budget: DefaultBudget()}
}

// TestLoadChecksWhereItIs: a grant's vault and runtime id must name the
// file it was read from; one copied, planted or edited to point elsewhere
// is refused, so the MCP server never serves another vault or logs usage
// outside the vault.
func TestLoadChecksWhereItIs(t *testing.T) {
	vault, other := t.TempDir(), t.TempDir()
	p, err := Write(grantFor(vault, "q1.s1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err != nil {
		t.Fatalf("the grant as written: %v", err)
	}
	plant := func(dir string, g Grant) string {
		os.MkdirAll(dir, 0o700)
		data, _ := os.ReadFile(p)
		s := strings.Replace(string(data), `"vault": "`+vault+`"`, `"vault": "`+g.Vault+`"`, 1)
		s = strings.Replace(s, `"runtimeId": "q1.s1"`, `"runtimeId": "`+g.RuntimeID+`"`, 1)
		f := filepath.Join(dir, "grant.json")
		os.WriteFile(f, []byte(s), 0o600)
		return f
	}
	sessions := filepath.Join(vault, ".agentero", "context-sessions")
	for _, c := range []struct{ name, path string }{
		{"copied outside its vault", plant(t.TempDir(), grantFor(vault, "q1.s1"))},
		{"runtime id not its folder's", plant(filepath.Join(sessions, "q1.s2"), grantFor(vault, "q1.s1"))},
		{"naming another vault", plant(filepath.Join(sessions, "q1.s3"), grantFor(other, "q1.s3"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Load(c.path); err == nil || !strings.Contains(err.Error(), "not the grant its vault keeps") {
				t.Errorf("Load: %v, want a refusal", err)
			}
		})
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("grant mode %v, want 0600", st.Mode().Perm())
	}
}

// TestUsagePath: a usage log is always beside a grant of the vault.
func TestUsagePath(t *testing.T) {
	for id, want := range map[string]string{
		"q1.s1":       "/v/.agentero/context-sessions/q1.s1/usage.jsonl",
		"":            "",
		"../../x":     "",
		"q1/../../..": "",
	} {
		if got := UsagePath("/v", id); got != filepath.FromSlash(want) {
			t.Errorf("UsagePath(%q) = %q, want %q", id, got, want)
		}
	}
}
