// Package agent is Agentero's built-in ACP agent (SPEC §7): offline, no API
// key. It reads through the agentero-context MCP server it is given, like
// any agent, and answers extractively: it starts from what the user
// selected (the plan's evidence cards in the prompt), reads the pages it
// quotes, and quotes whole sentences of body text, each followed by its
// citation — never running heads, reference lists, captions, figure or
// table debris, or metadata files. It says plainly when nothing relevant
// was found, and when a paper has no readable text.
package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/userdir"
	sdk "github.com/coder/acp-go-sdk"
)

// Options tunes the agent. Zero values mean defaults.
type Options struct {
	StateDir string // where sessions are kept for load/resume; "" = builtin-agent/ in userdir.Cache()
	Logger   *slog.Logger
}

// Agent serves one ACP connection.
type Agent struct {
	conn *sdk.AgentSideConnection
	opts Options
	log  *slog.Logger

	// mu guards sessions, the map; a session's own fields are guarded by
	// its own mu. It is held only to look a session up, add or drop it.
	mu       sync.Mutex
	sessions map[sdk.SessionId]*session
}

// session is one conversation with the agent. History and MCP servers are
// saved so that another process of the agent can load or resume it.
type session struct {
	ID         sdk.SessionId   `json:"id"`
	Cwd        string          `json:"cwd"`
	McpServers []sdk.McpServer `json:"mcpServers"`
	History    []turn          `json:"history"`

	// mu guards the fields above that change after creation (McpServers,
	// History) and the two below. Nothing blocks under it.
	mu     sync.Mutex
	tools  *tools // the agentero-context connection of the turn running, if any
	cancel context.CancelFunc
}

type turn struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

var (
	_ sdk.Agent       = (*Agent)(nil)
	_ sdk.AgentLoader = (*Agent)(nil)
)

// Serve runs the agent over in/out until the client disconnects or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.StateDir == "" {
		dir, err := userdir.Cache()
		if err == nil {
			dir, err = userdir.Folder(dir, "builtin-agent")
		}
		if err != nil {
			return fmt.Errorf("built-in agent's session folder: %w", err)
		}
		opts.StateDir = dir
	}
	a := &Agent{opts: opts, log: opts.Logger, sessions: map[sdk.SessionId]*session{}}
	// The connection reads at once, and its handlers use a.conn: nothing is
	// read before a.conn is set.
	set := make(chan struct{})
	a.conn = sdk.NewAgentSideConnection(a, out, gated{in, set})
	a.conn.SetLogger(opts.Logger)
	close(set)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.sessions {
		s.closeTools()
	}
	return nil
}

func (a *Agent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "agentero-builtin", Title: sdk.Ptr("Agentero (offline, extractive)"), Version: "1"},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession: true,
			SessionCapabilities: sdk.SessionCapabilities{
				Resume: &sdk.SessionResumeCapabilities{},
				Close:  &sdk.SessionCloseCapabilities{},
			},
		},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

func (a *Agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

func (a *Agent) NewSession(_ context.Context, req sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	var b [12]byte
	rand.Read(b[:])
	s := &session{ID: sdk.SessionId("builtin-" + hex.EncodeToString(b[:])), Cwd: req.Cwd, McpServers: req.McpServers, History: []turn{}}
	a.mu.Lock()
	a.sessions[s.ID] = s
	a.mu.Unlock()
	if err := a.save(s); err != nil {
		return sdk.NewSessionResponse{}, err
	}
	return sdk.NewSessionResponse{SessionId: s.ID}, nil
}

// find returns a session of this process, or one saved by another process.
func (a *Agent) find(id sdk.SessionId) (*session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.sessions[id]; s != nil {
		return s, nil
	}
	if !validID(string(id)) {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": "unknown session"})
	}
	data, err := os.ReadFile(a.path(id))
	if err != nil {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": "unknown session"})
	}
	s := &session{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("session %s is damaged: %w", id, err)
	}
	a.sessions[id] = s
	return s, nil
}

func (a *Agent) LoadSession(ctx context.Context, req sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	s, err := a.find(req.SessionId)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	s.reconnect(req.McpServers)
	// Loading replays the conversation to the client.
	for _, t := range s.History {
		u := sdk.UpdateAgentMessageText(t.Text)
		if t.Role == "user" {
			u = sdk.UpdateUserMessageText(t.Text)
		}
		if err := a.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: s.ID, Update: u}); err != nil {
			return sdk.LoadSessionResponse{}, err
		}
	}
	return sdk.LoadSessionResponse{}, a.save(s)
}

func (a *Agent) ResumeSession(_ context.Context, req sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	s, err := a.find(req.SessionId)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	s.reconnect(req.McpServers)
	return sdk.ResumeSessionResponse{}, a.save(s)
}

func (a *Agent) CloseSession(_ context.Context, req sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	a.mu.Lock()
	s := a.sessions[req.SessionId]
	delete(a.sessions, req.SessionId)
	a.mu.Unlock()
	if s != nil {
		s.closeTools()
	}
	return sdk.CloseSessionResponse{}, nil
}

func (a *Agent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

func (a *Agent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, nil
}

func (a *Agent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

func (a *Agent) Cancel(_ context.Context, n sdk.CancelNotification) error {
	a.mu.Lock()
	s := a.sessions[n.SessionId]
	a.mu.Unlock()
	if s != nil {
		s.mu.Lock()
		if s.cancel != nil {
			s.cancel()
		}
		s.mu.Unlock()
	}
	return nil
}

func (a *Agent) path(id sdk.SessionId) string {
	return filepath.Join(a.opts.StateDir, string(id)+".json")
}

func (a *Agent) save(s *session) error {
	s.mu.Lock()
	data, err := json.Marshal(s)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return atomicfile.Write(a.path(s.ID), data, atomicfile.Private)
}

func validID(id string) bool {
	if len(id) == 0 || len(id) > 100 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// reconnect makes the session use the MCP servers of the request: a resumed
// or loaded session reads through the grant it is given now.
func (s *session) reconnect(servers []sdk.McpServer) {
	s.closeTools()
	s.mu.Lock()
	s.McpServers = servers
	s.mu.Unlock()
}

// setTools makes t the session's connection for the turn that runs.
func (s *session) setTools(t *tools) {
	s.mu.Lock()
	s.tools = t
	s.mu.Unlock()
}

func (s *session) closeTools() {
	s.mu.Lock()
	t := s.tools
	s.tools = nil
	s.mu.Unlock()
	if t != nil {
		t.close()
	}
}

// gated is a reader that reads nothing until open is closed.
type gated struct {
	r    io.Reader
	open <-chan struct{}
}

func (g gated) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}

var errNoContext = errors.New("no agentero-context server was given to this session")
