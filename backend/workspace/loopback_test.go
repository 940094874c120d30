package workspace_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/workspace"
)

type withToken struct{ token string }

func (b withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// readOver reads ref with the loopback server's read tool, as a user's
// MCP client would; it returns the text, or the error the client got.
func readOver(t *testing.T, st workspace.LoopbackStatus, token, ref string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: st.URL, DisableStandaloneSSE: true, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: withToken{token}}}, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"ref": ref}})
	if err != nil {
		return "", err
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError {
		return text, nil
	}
	var r struct{ Text string }
	json.Unmarshal([]byte(text), &r)
	return r.Text, nil
}

func listens(port int) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 2*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestLoopback: off by default; switched on it serves the open vault on
// 127.0.0.1 with the token kept 0600 in the user's configuration; a
// rotated token refuses the old one; switched off it stops; it follows the
// vault the app switches to, on the same port; Close stops it.
func TestLoopback(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(a, "notes"), 0o755)
	os.WriteFile(filepath.Join(a, "notes", "a.md"), []byte("the note of vault A\n"), 0o644)
	os.MkdirAll(filepath.Join(b, "notes"), 0o755)
	os.WriteFile(filepath.Join(b, "notes", "b.md"), []byte("the note of vault B\n"), 0o644)
	f := open(t, a, workspace.Options{})

	st, err := f.ws.ApplyLoopback()
	if err != nil || st.Enabled || st.Running || len(st.Token) < 32 {
		t.Fatalf("by default: %+v %v, want off with a token", st, err)
	}
	if _, err := f.cfg.SetLoopback(true, 0); err != nil {
		t.Fatal(err)
	}
	st, err = f.ws.ApplyLoopback()
	if err != nil || !st.Running || st.Port == 0 || st.URL != "http://127.0.0.1:"+strconv.Itoa(st.Port)+"/mcp" || st.Vault != f.ws.Root() {
		t.Fatalf("switched on: %+v %v", st, err)
	}
	port, token := st.Port, st.Token
	info, err := os.Stat(filepath.Join(f.cfg.Dir(), "loopback.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("loopback.json: %v %v, want mode 0600", err, info.Mode())
	}
	if kept, _ := f.cfg.Loopback(); kept.Port != port || kept.Token != token || !kept.Enabled {
		t.Errorf("kept %+v, want the chosen port %d", kept, port)
	}
	if text, err := readOver(t, st, token, "notes/a.md"); err != nil || text != "the note of vault A\n" {
		t.Errorf("read notes/a.md: %q %v", text, err)
	}
	// Ten clients at once, in process (under the race detector in make test).
	var wg sync.WaitGroup
	got := make([]string, 10)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text, err := readOver(t, st, token, "notes/a.md")
			if err != nil {
				text = err.Error()
			}
			got[i] = text
		}()
	}
	wg.Wait()
	for i, text := range got {
		if text != "the note of vault A\n" {
			t.Errorf("client %d of 10: %q", i, text)
		}
	}
	if text, _ := readOver(t, st, token, ".agentero/index.sqlite"); !strings.HasPrefix(text, "refused") {
		t.Errorf("read the index: %q, want refused", text)
	}

	// Rotating the token refuses the old one.
	if _, err := f.cfg.RotateLoopbackToken(); err != nil {
		t.Fatal(err)
	}
	st, err = f.ws.ApplyLoopback()
	if err != nil || st.Token == token || st.Port != port || !st.Running {
		t.Fatalf("after rotation: %+v %v", st, err)
	}
	if _, err := readOver(t, st, token, "notes/a.md"); err == nil {
		t.Error("the old token still works")
	}
	if text, err := readOver(t, st, st.Token, "notes/a.md"); err != nil || text != "the note of vault A\n" {
		t.Errorf("the new token: %q %v", text, err)
	}

	// The user's reading budget applies per request, from when it is saved.
	prefs := settings.Defaults()
	prefs.Budget.FullChars = 10
	if err := f.ws.SaveSettings(prefs); err != nil {
		t.Fatal(err)
	}
	st = f.ws.LoopbackStatus()
	if text, err := readOver(t, st, st.Token, "notes/a.md"); err != nil || st.Port != port || len(text) > 10 || !strings.HasPrefix("the note of vault A\n", text) {
		t.Errorf("with fullChars 10: %q %v (port %d, want %d)", text, err, st.Port, port)
	}
	if err := f.ws.SaveSettings(settings.Defaults()); err != nil {
		t.Fatal(err)
	}

	// Switched off, it stops; on again, it takes the same port.
	f.cfg.SetLoopback(false, port)
	if st, err = f.ws.ApplyLoopback(); err != nil || st.Running || listens(port) {
		t.Fatalf("switched off: %+v %v, listening %v", st, err, listens(port))
	}
	f.cfg.SetLoopback(true, port)
	if st, err = f.ws.ApplyLoopback(); err != nil || !st.Running || st.Port != port {
		t.Fatalf("on again: %+v %v", st, err)
	}

	// The app switches vaults: the old workspace closes (the server stops),
	// the new one starts it again for its vault.
	if err := f.ws.Close(); err != nil {
		t.Fatal(err)
	}
	if listens(port) {
		t.Fatal("the server still listens after the workspace closed")
	}
	if st := f.ws.LoopbackStatus(); st.Running {
		t.Errorf("status after Close: %+v", st)
	}
	ws, err := workspace.Open(b, workspace.Options{Config: f.cfg, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if st, err = ws.ApplyLoopback(); err != nil || !st.Running || st.Port != port || st.Vault != ws.Root() {
		t.Fatalf("in vault B: %+v %v", st, err)
	}
	if text, err := readOver(t, st, st.Token, "notes/b.md"); err != nil || text != "the note of vault B\n" {
		t.Errorf("read notes/b.md in vault B: %q %v", text, err)
	}
	if text, _ := readOver(t, st, st.Token, "notes/a.md"); !strings.HasPrefix(text, "notes/a.md: not found in the vault") {
		t.Errorf("vault A's note from vault B: %q", text)
	}
	// A port that is taken is an error the status shows.
	ws.Close()
	ln, err := net.Listen("tcp4", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ws2, err := workspace.Open(b, workspace.Options{Config: f.cfg, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	if _, err := ws2.ApplyLoopback(); err == nil || !strings.Contains(ws2.LoopbackStatus().Error, "taken") {
		t.Errorf("a taken port: %v, status %+v", err, ws2.LoopbackStatus())
	}
	// Ports below 1024 are refused.
	if _, err := f.cfg.SetLoopback(true, 80); err == nil {
		t.Error("port 80 accepted")
	}
}
