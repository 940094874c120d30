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

// TestTurns: every Write opens a new turn, EndTurn closes it and keeps the
// grant, and a turn id that Write would not stamp is refused.
func TestTurns(t *testing.T) {
	vault := t.TempDir()
	g := grantFor(vault, "q1.s1")
	p, err := Write(g)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Load(p)
	if err != nil || first.Turn == "" {
		t.Fatalf("first turn %+v, %v; want a turn id", first, err)
	}
	Write(g)
	second, _ := Load(p)
	if second.Turn == "" || second.Turn == first.Turn {
		t.Errorf("second turn %q after %q; want a new one", second.Turn, first.Turn)
	}
	if err := EndTurn(vault, "q1.s1"); err != nil {
		t.Fatal(err)
	}
	ended, err := Load(p)
	if err != nil || ended.Turn != "" || ended.Fingerprint != g.Fingerprint || len(ended.Allowed) != 1 {
		t.Errorf("after EndTurn: %+v, %v; want the grant with no turn open", ended, err)
	}
	if err := EndTurn(vault, "q1.s9"); err != nil {
		t.Errorf("EndTurn of a runtime id with no grant: %v", err)
	}
	if err := EndTurn(vault, "../x"); err == nil {
		t.Error("EndTurn of a bad runtime id: no error")
	}
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), `"runtimeId"`, `"turn": "../../x", "runtimeId"`, 1)), 0o600)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "turn") {
		t.Errorf("a grant with a bad turn id: %v", err)
	}
}
