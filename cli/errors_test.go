package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Bad usage exits 2 with the usage; a failure exits 1 with one line.
func TestCommandLineErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no dir", []string{"index"}, 2, "want 1 arguments"},
		{"no query", []string{"search", dir}, 2, "want 2 arguments"},
		{"limit 0", []string{"search", dir, "x", "--limit", "0"}, 2, "--limit"},
		{"unknown flag", []string{"index", "--bogus", dir}, 2, "bogus"},
		{"missing vault", []string{"index", filepath.Join(dir, "missing")}, 1, "there is no folder"},
		{"add to a mistyped vault", []string{"add", filepath.Join(dir, "valut"), "/etc/hostname"}, 1, "does not exist: check the path, or add --init"},
		{"add to a folder that is not a vault", []string{"add", t.TempDir(), "/etc/hostname"}, 1, "is not a vault (it has no papers/ or .agentero/)"},
		{"init a vault in a missing folder", []string{"add", filepath.Join(dir, "missing", "vault"), "/etc/hostname", "--init"}, 1, "create the vault folder"},
		{"file as vault", []string{"search", "/etc/hostname", "x"}, 1, "not a folder"},
		{"plan without request", []string{"plan", dir}, 2, "--request FILE is required"},
		{"ask with two agents", []string{"ask", dir, "--agent", "a", "--agent-cmd", "b", "q"}, 2, "not both"},
		{"ask an unknown agent", []string{"ask", dir, "--agent", "nobody", "q"}, 1, `no agent named "nobody"`},
		{"ask an empty question", []string{"ask", dir, " "}, 1, "type a question first"},
		{"ask a bad conversation", []string{"ask", dir, "--conversation", "../x", "q"}, 1, "conversation id"},
		{"compact without conversation", []string{"compact", dir}, 2, "--conversation ID is required"},
		{"compact an unknown conversation", []string{"compact", dir, "--conversation", "nope"}, 1, `no conversation "nope"`},
		{"mcp without grant", []string{"--agentero-context-mcp"}, 2, "want the grant file"},
		{"agent with arguments", []string{"--builtin-agent", "x"}, 2, "takes no arguments"},
		{"unknown verb", []string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.contains) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, errOut, tt.code, tt.contains)
			}
			if tt.code == 1 && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("failure should be one line, got %q", errOut)
			}
			if tt.code == 2 && !strings.Contains(errOut, "usage:") {
				t.Errorf("bad usage should print the usage, got %q", errOut)
			}
			if out != "" {
				t.Errorf("a failed command printed %q on stdout", out)
			}
		})
	}
}
