package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/google/go-cmp/cmp"
)

// planted are state.json files a hostile vault may ship for a conversation
// the user will open (Quick Chat and sidebar ids are predictable). Each
// names a folder other than its own. (The store's own tests load the same
// kind of files: backend/conversation.)
var planted = []struct {
	name, state string
}{
	{"id leaving the vault", `{"id":"../../../elsewhere","messages":[]}`},
	{"absolute id", `{"id":"/tmp/agentero-planted","messages":[]}`},
	{"id of another conversation", `{"id":"other","messages":[]}`},
	{"runtime id leaving the vault", `{"id":"q1","runtimeId":"../../../elsewhere","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
	{"runtime id of another conversation", `{"id":"q1","runtimeId":"other.s1","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
	{"runtime id that is the conversation", `{"id":"q1","runtimeId":"q1","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestPlantedStateTurn asks in a Quick Chat conversation whose state file
// was planted: the transcript, the state, the grant and the agent's working
// folder are the conversation's own, and nothing appears outside the vault
// or the cache.
func TestPlantedStateTurn(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	pa, rec := peer(t, "peer", "load", "")
	parent := filepath.Dir(root) // the test's temporary folders: the vault's, the peer's record
	before := entries(t, parent)
	for i, c := range planted {
		t.Run(c.name, func(t *testing.T) {
			id := "q1"
			if i > 0 {
				id = "q" + string(rune('1'+i))
				c.state = strings.ReplaceAll(c.state, `"q1`, `"`+id)
			}
			dir := filepath.Join(root, ".agentero", "chats", id)
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(c.state), 0o644); err != nil {
				t.Fatal(err)
			}
			cache := t.TempDir()
			cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), pa}}
			h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: cache, PoolSize: -1})
			defer h.Close()
			ask(t, h, id, "peer", wider, "What is proof-of-work?")

			conv, err := h.Store().Load(id)
			if err != nil {
				t.Fatal(err)
			}
			if conv.ID != id || !strings.HasPrefix(conv.RuntimeID, id+".") || len(conv.Messages) != 2 {
				t.Errorf("stored id %q, runtime id %q, %d messages; want %s, %s.…, 2", conv.ID, conv.RuntimeID, len(conv.Messages), id, id)
			}
			for _, f := range []string{"state.json", "transcript.jsonl"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			if _, err := os.Stat(filepath.Join(root, ".agentero", "context-sessions", conv.RuntimeID, "grant.json")); err != nil {
				t.Errorf("grant: %v", err)
			}
			var cwd string
			for _, r := range records(t, rec) {
				if r.Method == "session/new" {
					var p struct{ Cwd string }
					json.Unmarshal(r.Params, &p)
					cwd = p.Cwd
				}
			}
			if want := filepath.Join(cache, "sessions", id); cwd != want {
				t.Errorf("session cwd %q, want %q", cwd, want)
			}
		})
	}
	if diff := cmp.Diff(before, entries(t, parent)); diff != "" {
		t.Errorf("files beside the vault (-before +after):\n%s", diff)
	}
	if _, err := os.Stat("/tmp/agentero-planted"); err == nil {
		t.Error("/tmp/agentero-planted was made")
	}
}
