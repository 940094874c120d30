// Package loopback serves an MCP server to the user's own MCP clients over
// streamable HTTP on 127.0.0.1 (SPEC §9): never another interface, a bearer
// token on every request, the Host and Origin headers checked against DNS
// rebinding. The server owns its one goroutine; Close shuts it down and
// waits for it.
package loopback

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Host is the only address the server listens on.
const Host = "127.0.0.1"

// Path is where the MCP endpoint is.
const Path = "/mcp"

// maxBody caps a request's body: MCP requests are small.
const maxBody = 1 << 20

// Options configure Start.
type Options struct {
	Port   int         // 0: any free port
	Token  string      // the bearer token every request must carry
	Server *sdk.Server // what is served
	Logger *slog.Logger
}

// Server is a running loopback server.
type Server struct {
	srv    *http.Server
	port   int
	done   chan struct{}
	cancel context.CancelFunc // ends every call in flight

	closeOnce sync.Once
	closeErr  error
}

// Start listens on 127.0.0.1:port and serves. A port in use is an error
// that says so.
func Start(opts Options) (*Server, error) {
	if err := CheckToken(opts.Token); err != nil {
		return nil, fmt.Errorf("the loopback MCP server needs a strong token: %w", err)
	}
	if opts.Port < 0 || opts.Port > 65535 {
		return nil, fmt.Errorf("port %d is not a TCP port", opts.Port)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp4", net.JoinHostPort(Host, strconv.Itoa(opts.Port)))
	if err != nil {
		if errors.Is(err, syscallEADDRINUSE) {
			return nil, fmt.Errorf("port %d on %s is taken by another program: choose another port", opts.Port, Host)
		}
		return nil, fmt.Errorf("listen on %s:%d: %w", Host, opts.Port, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	calls := &callTable{m: map[string]context.Context{}}
	opts.Server.AddReceivingMiddleware(calls.middleware)
	mcpHandler := calls.track(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return opts.Server },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{port: port, done: make(chan struct{}), cancel: cancel}
	s.srv = &http.Server{
		BaseContext:       func(net.Listener) context.Context { return ctx },
		Handler:           Guard(opts.Token, port, mcpHandler),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			opts.Logger.Error("loopback MCP server stopped", "err", err)
		}
	}()
	return s, nil
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.port }

// URL is the MCP endpoint.
func (s *Server) URL() string { return URL(s.port) }

// URL is the MCP endpoint on a port.
func URL(port int) string { return fmt.Sprintf("http://%s:%d%s", Host, port, Path) }

// Close stops accepting, cancels the calls in flight and waits for them
// (up to 5 s, then cuts their connections) and for the server's
// goroutine. Safe to call twice.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			s.srv.Close()
		}
		<-s.done
	})
	return s.closeErr
}

// Guard is next behind the loopback checks, in this order: the path is
// Path (else 404); Host names 127.0.0.1 or localhost with this port (else
// 421: a DNS-rebinding page's requests carry its own host name); Origin
// is absent or a loopback origin (else 403: a web page's requests carry
// its origin); the bearer token matches (else 401 with WWW-Authenticate).
func Guard(token string, port int, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	hosts := map[string]bool{
		net.JoinHostPort(Host, strconv.Itoa(port)):        true,
		net.JoinHostPort("localhost", strconv.Itoa(port)): true,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path {
			http.Error(w, "not found: the MCP endpoint is "+Path, http.StatusNotFound)
			return
		}
		if !hosts[strings.ToLower(r.Host)] {
			http.Error(w, "refused: the Host header must be 127.0.0.1 or localhost with this server's port", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Values("Origin"); len(o) > 1 || (len(o) == 1 && !loopbackOrigin(o[0])) {
			http.Error(w, "forbidden: requests from web pages are refused (Origin is not a loopback origin)", http.StatusForbidden)
			return
		}
		got := ""
		if a := r.Header.Values("Authorization"); len(a) == 1 {
			if scheme, t, ok := strings.Cut(a[0], " "); ok && strings.EqualFold(scheme, "Bearer") {
				got = strings.TrimSpace(t)
			}
		}
		sum := sha256.Sum256([]byte(got))
		if got == "" || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agentero"`)
			http.Error(w, "unauthorized: send the token from Agentero's settings as Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		next.ServeHTTP(w, r)
	})
}

// loopbackOrigin reports whether an Origin header names this machine:
// http(s) on 127.0.0.1, localhost or [::1], any port.
func loopbackOrigin(o string) bool {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Path != "" && u.Path != "/" {
		return false
	}
	switch strings.ToLower(u.Hostname()) {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// callHeader carries, from the HTTP request to the MCP handler, the id of
// the request whose context the call must end with.
const callHeader = "X-Agentero-Call"

// callTable ties each call to its HTTP request: the SDK's stateless
// handler does not cancel a call whose client hangs up (for protocol
// versions before 2026-07-28), so a call would run on, and its request's
// goroutines with it, after its client is gone. Every request carries an
// id of its own in callHeader (a client's own value is replaced), and the
// middleware cancels the call when that request's context ends: when the
// client disconnects, or Close.
type callTable struct {
	// mu guards next and m; it is held only to add, look up or remove a
	// call, never while one runs.
	mu   sync.Mutex
	next uint64
	m    map[string]context.Context
}

func (c *callTable) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.next++
		id := strconv.FormatUint(c.next, 10)
		c.m[id] = r.Context()
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.m, id)
			c.mu.Unlock()
		}()
		r.Header.Set(callHeader, id)
		next.ServeHTTP(w, r)
	})
}

func (c *callTable) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if ex := req.GetExtra(); ex != nil && ex.Header != nil {
			c.mu.Lock()
			rctx := c.m[ex.Header.Get(callHeader)]
			c.mu.Unlock()
			if rctx != nil {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				defer context.AfterFunc(rctx, cancel)()
			}
		}
		return next(ctx, method, req)
	}
}
