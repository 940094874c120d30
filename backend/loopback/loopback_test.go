package loopback_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentero/agentero/internal/proctest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/loopback"
)

// slowServer has one tool, slow, that runs until its call is cancelled:
// started gets a value when it begins, ended when it returns.
func slowServer() (s *sdk.Server, started, ended chan struct{}) {
	started, ended = make(chan struct{}, 10), make(chan struct{}, 10)
	s = sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			started <- struct{}{}
			defer func() { ended <- struct{}{} }()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Minute):
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "late"}}}, nil
			}
		})
	s.AddTool(&sdk.Tool{Name: "quick", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		})
	return s, started, ended
}

const token = "0123456789abcdef0123456789abcdef-test"

func call(ctx context.Context, url, tool string) (*http.Response, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, tool)
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	return client.Do(req)
}

// settle waits until the goroutine count is back to at most base.
func settle(t *testing.T, base int, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%s: %d goroutines, baseline %d\n%s", what, runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDisconnectMidCall: a client that hangs up while its call runs gets
// the call cancelled, and leaves no goroutine behind.
func TestDisconnectMidCall(t *testing.T) {
	s, started, ended := slowServer()
	srv, err := loopback.Start(loopback.Options{Token: token, Server: s})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, err := call(context.Background(), srv.URL(), "quick")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"ok"`) {
		t.Fatalf("quick: %d %s", resp.StatusCode, body)
	}
	base := runtime.NumGoroutine()
	for i := range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			resp, err := call(ctx, srv.URL(), "slow")
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			done <- err
		}()
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatal("the slow call never started")
		}
		cancel()
		if err := <-done; err == nil {
			t.Errorf("call %d: no error after the client hung up", i)
		}
		select {
		case <-ended:
		case <-time.After(20 * time.Second):
			t.Fatalf("call %d: the tool still runs after its client hung up", i)
		}
		settle(t, base, fmt.Sprintf("after disconnect %d", i))
	}
}

// TestCloseEndsCalls: Close cancels a call in flight, waits for it, and
// stops listening; nothing of the server is left running.
func TestCloseEndsCalls(t *testing.T) {
	base := runtime.NumGoroutine()
	s, started, ended := slowServer()
	srv, err := loopback.Start(loopback.Options{Token: token, Server: s})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if resp, err := call(context.Background(), srv.URL(), "slow"); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-started
	start := time.Now()
	srv.Close()
	select {
	case <-ended:
	default:
		t.Error("Close returned while a call still ran")
	}
	t.Logf("Close with a call in flight: %v", time.Since(start))
	if c, err := net.Dial("tcp", net.JoinHostPort(loopback.Host, strconv.Itoa(srv.Port()))); err == nil {
		c.Close()
		t.Error("the port still accepts after Close")
	}
	settle(t, base, "after Close")
	srv.Close() // twice is fine
}

// TestBoundToLoopback: the listening socket's local address in
// /proc/net/tcp is 127.0.0.1, and nothing listens on the port in tcp6.
func TestBoundToLoopback(t *testing.T) {
	s, _, _ := slowServer()
	srv, err := loopback.Start(loopback.Options{Token: token, Server: s})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if got := proctest.Listeners(t, srv.Port()); strings.Join(got, ",") != "0100007F" {
		t.Errorf("port %d listens on %v (hex), want 0100007F (127.0.0.1) only", srv.Port(), got)
	}
	// A port in use is an error that says so.
	_, err = loopback.Start(loopback.Options{Port: srv.Port(), Token: token, Server: s})
	if err == nil || !strings.Contains(err.Error(), "taken by another program") {
		t.Errorf("a taken port: %v", err)
	}
	for _, bad := range []loopback.Options{{Token: "short", Server: s}, {Port: 70000, Token: token, Server: s}} {
		if srv, err := loopback.Start(bad); err == nil {
			srv.Close()
			t.Errorf("%+v: started", bad)
		}
	}
}

// TestGuard: the checks in front of the MCP handler, each alone.
func TestGuard(t *testing.T) {
	reached := 0
	h := loopback.Guard(token, 4242, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ }))
	for _, c := range []struct {
		name, path, host, origin string
		auth                     []string
		status                   int
	}{
		{"ok", "/mcp", "127.0.0.1:4242", "", []string{"Bearer " + token}, 200},
		{"localhost", "/mcp", "localhost:4242", "", []string{"Bearer " + token}, 200},
		{"LOCALHOST", "/mcp", "LOCALHOST:4242", "", []string{"Bearer " + token}, 200},
		{"bearer in lower case", "/mcp", "127.0.0.1:4242", "", []string{"bearer " + token}, 200},
		{"loopback origin", "/mcp", "127.0.0.1:4242", "http://127.0.0.1:3000", []string{"Bearer " + token}, 200},
		{"ipv6 loopback origin", "/mcp", "127.0.0.1:4242", "http://[::1]:3000", []string{"Bearer " + token}, 200},
		{"other path", "/", "127.0.0.1:4242", "", []string{"Bearer " + token}, 404},
		{"other path under mcp", "/mcp/x", "127.0.0.1:4242", "", []string{"Bearer " + token}, 404},
		{"foreign host", "/mcp", "evil.example:4242", "", []string{"Bearer " + token}, 421},
		{"LAN address", "/mcp", "192.168.1.2:4242", "", []string{"Bearer " + token}, 421},
		{"wrong port", "/mcp", "127.0.0.1:80", "", []string{"Bearer " + token}, 421},
		{"no port", "/mcp", "localhost", "", []string{"Bearer " + token}, 421},
		{"localhost subdomain", "/mcp", "localhost.evil.example:4242", "", []string{"Bearer " + token}, 421},
		{"foreign origin", "/mcp", "127.0.0.1:4242", "https://evil.example", []string{"Bearer " + token}, 403},
		{"foreign origin on a loopback-like name", "/mcp", "127.0.0.1:4242", "http://127.0.0.1.evil.example", []string{"Bearer " + token}, 403},
		{"null origin", "/mcp", "127.0.0.1:4242", "null", []string{"Bearer " + token}, 403},
		{"file origin", "/mcp", "127.0.0.1:4242", "file://", []string{"Bearer " + token}, 403},
		{"no token", "/mcp", "127.0.0.1:4242", "", nil, 401},
		{"empty bearer", "/mcp", "127.0.0.1:4242", "", []string{"Bearer "}, 401},
		{"wrong token", "/mcp", "127.0.0.1:4242", "", []string{"Bearer " + strings.ToUpper(token)}, 401},
		{"token with more", "/mcp", "127.0.0.1:4242", "", []string{"Bearer " + token + "x"}, 401},
		{"two authorizations", "/mcp", "127.0.0.1:4242", "", []string{"Bearer " + token, "Bearer " + token}, 401},
		{"token without scheme", "/mcp", "127.0.0.1:4242", "", []string{token}, 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := reached
			r := httptest.NewRequest("POST", "http://x"+c.path, strings.NewReader("{}"))
			r.Host = c.host
			if c.origin != "" {
				r.Header.Set("Origin", c.origin)
			}
			for _, a := range c.auth {
				r.Header.Add("Authorization", a)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != c.status {
				t.Errorf("status %d %q, want %d", w.Code, w.Body.String(), c.status)
			}
			if (reached > before) != (c.status == 200) {
				t.Errorf("reached the handler: %v, status %d", reached > before, c.status)
			}
			if c.status == 401 && w.Header().Get("WWW-Authenticate") != `Bearer realm="agentero"` {
				t.Errorf("401 without WWW-Authenticate: %q", w.Header().Get("WWW-Authenticate"))
			}
		})
	}
}

// TestNewToken: tokens are long, URL-safe and differ.
func TestNewToken(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok, err := loopback.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if loopback.CheckToken(tok) != nil || strings.ContainsAny(tok, "+/= ") || seen[tok] {
			t.Fatalf("token %q", tok)
		}
		seen[tok] = true
	}
}
