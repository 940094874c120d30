package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/sandbox"
)

// TestConfinedAgent: an agent that reads files on its own, as Claude Code's
// Read tool does, tries a note and a paper of the vault, the vault's index
// and a private key in the (throwaway) home folder. Confined by bubblewrap
// and by Landlock every one of those reads fails, while its reads through
// the turn's MCP server work and the answer's sources open on the granted
// paper. Unconfined (the user switched it off) the same reads succeed, so
// the probe does read when it can; the turn says which it was.
func TestConfinedAgent(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_rsa")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n"), 0o600)
	t.Setenv("HOME", home)
	probes := []string{
		filepath.Join(root, "notes", "ideas.md"),
		filepath.Join(root, "papers", "bitcoin", "bitcoin.pdf"),
		filepath.Join(root, ".agentero", "index.sqlite"),
		key,
		root,
	}
	for _, p := range probes {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the probe's target is missing, so its refusal would prove nothing: %v", err)
		}
	}
	list, _ := json.Marshal(probes)

	for _, mode := range []string{"bubblewrap", "landlock", "off"} {
		t.Run(mode, func(t *testing.T) {
			want := sandbox.Kind(mode)
			if mode == "off" {
				want = sandbox.None
			} else if r := sandbox.Choose(mode); r.Kind != want {
				if os.Getenv("AGENTERO_TEST_STRICT") != "" {
					t.Fatalf("%s is unavailable on this machine: %s", mode, r.Why)
				}
				t.Skipf("%s is unavailable here: %s", mode, r.Why)
			}
			ag, _ := styled(t, "claude", map[string]string{"PEER_PROBE": string(list)})
			ag.Sandbox = mode
			h := newHost(t, root, db, ag)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := h.Turn(ctx, acp.TurnRequest{ConversationID: "confined-" + mode, Agent: ag.Name, Request: sidebar,
				Question: "How does the chain prove the work?"}, nil)
			if err != nil {
				t.Fatalf("turn: %v", err)
			}
			done := res.Completed
			if done.Sandbox != string(want) || done.SandboxWhy == "" {
				t.Errorf("sandbox = %q (%q), want %q with why", done.Sandbox, done.SandboxWhy, want)
			}
			for _, p := range probes {
				line := ""
				for _, l := range strings.Split(done.Content, "\n") {
					if strings.HasPrefix(l, "probe "+p+":") {
						line = l
					}
				}
				switch {
				case line == "":
					t.Errorf("no probe of %s in the answer:\n%s", p, done.Content)
				case want != sandbox.None && !strings.Contains(line, "refused"):
					t.Errorf("a confined agent read behind its grant: %s", line)
				case want == sandbox.None && !strings.Contains(line, ": read "):
					t.Errorf("unconfined, the probe should read: %s", line)
				}
			}
			// Its MCP reads worked: the answer cites pages of the granted
			// paper, and each source opens on a page of it.
			if len(done.Sources) == 0 {
				t.Fatalf("no sources: the agent's MCP reads did not reach it\n%s", done.Content)
			}
			for _, s := range done.Sources {
				u, err := citation.Parse(s)
				if err != nil || !strings.HasPrefix(u.Path, "papers/bitcoin/") || u.Page < 1 || u.Page > 9 {
					t.Errorf("source %q (%+v, %v) does not open a page of the granted paper", s, u, err)
				}
			}
		})
	}
}
