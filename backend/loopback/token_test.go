package loopback_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/loopback"
)

// TestCheckToken: a token holds at least 128 bits of a random-looking
// alphabet; what a person types is refused, saying why.
func TestCheckToken(t *testing.T) {
	fresh, err := loopback.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, token, refused string // refused: what the error says; "" = accepted
	}{
		{"a fresh token", fresh, ""},
		{"22 base64 characters", "q3Zr-8_kLp0XyWm4Tb2HvN", ""},
		{"32 hexadecimal digits", "9f86d081884c7d659a2feaa0c55ad015", ""},
		{"padded standard base64", "n4bQgYhMfWWaL+qgxVrQFa==", ""},
		{"21 base64 characters", "q3Zr-8_kLp0XyWm4Tb2Hv", "fewer than 128"},
		{"31 hexadecimal digits", "9f86d081884c7d659a2feaa0c55ad01", "fewer than 128"},
		{"one repeated letter", strings.Repeat("a", 64), "does not look random"},
		{"a repeated pattern", strings.Repeat("Ab3xY9kQ2m", 4), "does not look random"},
		{"few characters", strings.Repeat("abcd", 9) + "e", "does not look random"},
		{"a password with spaces", "correct horse battery staple forever", "characters other than"},
		{"empty", "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := loopback.CheckToken(tt.token)
			switch {
			case tt.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Errorf("CheckToken = %v, want a refusal saying %q", err, tt.refused)
			}
		})
	}
}

// TestReadTokenFile: an existing token file is used only when it is private
// to the user and its token strong; otherwise the error says why.
func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	good := "q3Zr-8_kLp0XyWm4Tb2HvNq3Zr-8_kLp0XyWm4Tb2H"
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, refused string
	}{
		{"private", write("private", good+"\n", 0o600), ""},
		{"read-only for the user", write("readonly", good, 0o400), ""},
		{"world-readable", write("world", good, 0o644), "may be read or written by others (mode 0644)"},
		{"group-writable", write("group", good, 0o620), "mode 0620"},
		{"one repeated letter", write("repeated", strings.Repeat("a", 43), 0o600), "does not look random"},
		{"world-readable and weak", write("both", strings.Repeat("a", 43), 0o666), "may be read or written by others"},
		{"a folder", dir, "not a regular file"},
		{"missing", filepath.Join(dir, "missing"), "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loopback.ReadTokenFile(tt.path)
			switch {
			case tt.refused == "" && (err != nil || got != good):
				t.Errorf("ReadTokenFile = %q, %v; want the token", got, err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Errorf("ReadTokenFile = %q, %v; want a refusal saying %q", got, err, tt.refused)
			}
		})
	}
}
