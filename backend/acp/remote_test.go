package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
)

// TestRemoteAgentsGetNoSensitiveDocuments: every agent but the built-in
// one is taken as remote unless the user marks it local, and a sensitive
// always-on context document is never preloaded into a remote agent's
// session; the rest of the standing context is.
func TestRemoteAgentsGetNoSensitiveDocuments(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ctxDir := filepath.Join(root, ".agentero", "context")
	os.MkdirAll(ctxDir, 0o700)
	os.WriteFile(filepath.Join(ctxDir, "accounts.md"), []byte("---\ndescription: Lab accounts\ntrigger: always_on\npriority: critical\nsensitivity: sensitive\n---\nThe lab password is hunter2.\n"), 0o600)
	os.WriteFile(filepath.Join(ctxDir, "lab.md"), []byte("---\ndescription: Lab rules\ntrigger: always_on\n---\nAlways cite the page.\n"), 0o600)
	cloud, _ := peer(t, "cloud", "", "")
	local, _ := peer(t, "local", "", "")
	local.Local = true
	h := newHost(t, root, db, cloud, local)

	tests := []struct {
		agent     string
		sensitive bool // the sensitive body is in the prompt
	}{
		{agentconf.BuiltinName, true},
		{"cloud", false},
		{"local", true},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			conv := "remote-" + tt.agent
			ask(t, h, conv, tt.agent, sidebar, "What is double spending?")
			sent, err := h.Store().LastPrompt(conv)
			if err != nil {
				t.Fatal(err)
			}
			snap := part(sent, "snapshot")
			if got := strings.Contains(snap, "hunter2"); got != tt.sensitive {
				t.Errorf("the sensitive body in %s's prompt: %v, want %v:\n%.2000s", tt.agent, got, tt.sensitive, snap)
			}
			if !strings.Contains(snap, "Always cite the page.") || !strings.Contains(snap, "Lab accounts") {
				t.Errorf("%s's prompt lost the rest of the standing context:\n%.2000s", tt.agent, snap)
			}
		})
	}
	if (agentconf.Agent{Name: "anything"}).Remote() != true || (agentconf.Agent{Name: "anything", Local: true}).Remote() || agentconf.Builtin("/bin/agentero").Remote() {
		t.Error("Remote: every agent but the built-in one, unless marked local")
	}
}
