package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `agentero mcp`: bad usage exits 2, a vault it cannot serve 1; an address
// beyond this machine is refused before anything listens.
func TestMCPCommandErrors(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short-token")
	os.WriteFile(short, []byte("abc\n"), 0o600)
	// A strong token others may read, and a private one of one letter: the
	// two that were served before.
	shared := filepath.Join(dir, "shared-token")
	os.WriteFile(shared, []byte("q3Zr-8_kLp0XyWm4Tb2HvNq3Zr-8_kLp0XyWm4Tb2H\n"), 0o600)
	os.Chmod(shared, 0o644)
	repeated := filepath.Join(dir, "repeated-token")
	os.WriteFile(repeated, []byte(strings.Repeat("a", 43)+"\n"), 0o600)
	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no vault", []string{"mcp"}, 2, "want 1 arguments"},
		{"all interfaces", []string{"mcp", dir, "--http", "0.0.0.0:8765", "--token-file", short}, 2, "127.0.0.1 only"},
		{"a LAN address", []string{"mcp", dir, "--http", "192.168.1.5:8765", "--token-file", short}, 2, "127.0.0.1 only"},
		{"IPv6 any", []string{"mcp", dir, "--http", "[::]:8765", "--token-file", short}, 2, "127.0.0.1 only"},
		{"no port", []string{"mcp", dir, "--http", "127.0.0.1"}, 2, "127.0.0.1:PORT"},
		{"bad port", []string{"mcp", dir, "--http", "127.0.0.1:99999", "--token-file", short}, 2, "port"},
		{"http without a token file", []string{"mcp", dir, "--http", "127.0.0.1:0"}, 2, "--token-file"},
		{"a token file without http", []string{"mcp", dir, "--token-file", short}, 2, "goes with --http"},
		{"a vault without an index", []string{"mcp", dir}, 1, "no index yet"},
		{"a short token", []string{"mcp", dir, "--http", "127.0.0.1:0", "--token-file", short}, 1, "fewer than 128"},
		{"a token others may read", []string{"mcp", dir, "--http", "127.0.0.1:0", "--token-file", shared}, 1, "may be read or written by others (mode 0644)"},
		{"a token of one letter", []string{"mcp", dir, "--http", "127.0.0.1:0", "--token-file", repeated}, 1, "does not look random"},
		{"a missing vault", []string{"mcp", filepath.Join(dir, "missing")}, 1, "is not a folder"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.contains) || out != "" {
				t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit %d mentioning %q", tt.args, code, errOut, out, tt.code, tt.contains)
			}
		})
	}
}
