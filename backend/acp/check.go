package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentero/agentero/backend/agentconf"
)

// Report is what Test connection found out about an agent that started,
// answered initialize and opened a session: who it says it is, what it
// can do and how one logs in to it.
type Report struct {
	Command         string       `json:"command"` // the absolute path that was run
	Name            string       `json:"name"`    // agentInfo.name; "" when the agent does not say
	Title           string       `json:"title"`   // agentInfo.title
	Version         string       `json:"version"` // agentInfo.version
	ProtocolVersion int          `json:"protocolVersion"`
	Capabilities    Capabilities `json:"capabilities"`
	AuthMethods     []AuthMethod `json:"authMethods"`
	Seconds         float64      `json:"seconds"` // how long the start, initialize and session/new took
}

// Kinds of AuthMethod.
const (
	AuthAgent    = "agent"    // the agent logs in by itself (usually: run it in a terminal once)
	AuthEnvVar   = "env_var"  // set environment variables in the agent's env
	AuthTerminal = "terminal" // run a command in a terminal
)

// AuthMethod is one way of logging in that an agent offers at initialize.
type AuthMethod struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Kind        string   `json:"kind"`              // AuthAgent, AuthEnvVar or AuthTerminal
	Vars        []string `json:"vars,omitempty"`    // env_var: the variables to set
	Link        string   `json:"link,omitempty"`    // env_var: where to get the credentials
	Command     string   `json:"command,omitempty"` // terminal: what to run in a terminal
}

// authRequired is ACP's JSON-RPC error code for "log in first".
const authRequired = -32000

// Check is Test connection: it starts the agent, initializes it and opens
// a session — in an empty temporary folder, with no MCP server — which is
// where an agent that needs a login says so; then it stops the agent.
// initialize and session/new have opts.Timeout each, and ctx cancels the
// whole. A failure is told in the user's words, is its domain error for
// ErrorCode, and leaves nothing of the agent running.
func Check(ctx context.Context, ag agentconf.Agent, opts StartOptions) (*Report, error) {
	began := time.Now()
	p, err := Start(ctx, ag, opts)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agentero-check-")
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("make a folder for the test: %w", err)
	}
	defer os.RemoveAll(dir)
	asked := time.Now()
	sctx, cancel := context.WithTimeout(ctx, opts.timeout())
	deadline, _ := sctx.Deadline()
	_, err = call(sctx, p, func(ctx context.Context) (sdk.NewSessionResponse, error) {
		return p.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
	})
	cancel()
	if err != nil {
		p.Kill()
		return nil, p.sessionError(err, deadline.Sub(asked))
	}
	p.Stop()
	in := p.init
	return &Report{Command: p.cmd.Path, Name: in.name, Title: in.title, Version: in.version, ProtocolVersion: in.protocol,
		Capabilities: in.caps, AuthMethods: in.auth, Seconds: math.Round(time.Since(began).Seconds()*10) / 10}, nil
}

// runError says why the agent's command, found at path, could not be run.
// The system's own words go to the log.
func runError(ag agentconf.Agent, path string, err error, log *slog.Logger) error {
	msg := fmt.Sprintf("the command %q could not be run", path)
	switch {
	case errors.Is(err, syscall.ENOEXEC):
		msg += ": it is not a program this system can run (a script needs a #! line)"
	case errors.Is(err, fs.ErrPermission):
		msg += ": permission denied"
	}
	log.Warn("run an agent", "agent", ag.Name, "command", path, "err", err)
	return fail(msg, ErrNotStarted, ErrCommandNotFound)
}

// startError says why initialize failed, in the user's words (allowed is
// the time it was given): the start
// was cancelled; the program printed something that is not ACP; it exited
// first; it did not answer in time; it answered with an error (it wants a
// login first, or it is not an ACP agent).
func (p *Process) startError(err error, allowed time.Duration) error {
	label := p.agent.Label()
	junk := p.out.firstJunk()
	var re *sdk.RequestError
	switch {
	case errors.Is(err, context.Canceled):
		return fail(fmt.Sprintf("starting %s was cancelled", label), ErrNotStarted, context.Canceled)
	case junk != "" && (errors.Is(err, ErrAgentExited) || errors.Is(err, context.DeadlineExceeded)):
		return fail(fmt.Sprintf("%s is not an ACP agent: it does not answer initialize (it printed “%s”)", label, junk), ErrNotStarted, ErrNotACP)
	case errors.Is(err, ErrAgentExited):
		return fail(fmt.Sprintf("%s exited before answering initialize%s", label, p.exitDetail()), ErrNotStarted, ErrAgentExited)
	case errors.Is(err, context.DeadlineExceeded):
		return fail(fmt.Sprintf("%s did not answer initialize in %s", label, seconds(allowed)), ErrNotStarted, context.DeadlineExceeded)
	case errors.As(err, &re) && re.Code == authRequired:
		return p.needsLogin()
	case errors.As(err, &re):
		return fail(fmt.Sprintf("%s is not an ACP agent: it does not answer initialize (it answered “%s”)", label, rpcText(re)), ErrNotStarted, ErrNotACP)
	}
	p.log.Warn("initialize an agent", "agent", p.agent.Name, "err", err)
	return fail(fmt.Sprintf("%s could not be started", label), ErrNotStarted, err)
}

// sessionError says why Check's session/new failed (allowed is the time it
// was given): cancelled, no answer in time, the agent stopped, it needs a
// login, or it refused.
func (p *Process) sessionError(err error, allowed time.Duration) error {
	label := p.agent.Label()
	var re *sdk.RequestError
	switch {
	case errors.Is(err, context.Canceled):
		return fail(fmt.Sprintf("the test of %s was cancelled", label), context.Canceled)
	case errors.Is(err, context.DeadlineExceeded):
		return fail(fmt.Sprintf("%s answered initialize but did not open a session in %s", label, seconds(allowed)), ErrTimeout, context.DeadlineExceeded)
	case errors.Is(err, ErrAgentExited):
		return fail(fmt.Sprintf("%s stopped before it opened a session%s", label, p.exitDetail()), ErrAgentExited)
	case errors.As(err, &re):
		return p.refusal(re)
	}
	p.log.Warn("open a session", "agent", p.agent.Name, "err", err)
	return fail(fmt.Sprintf("%s could not open a session", label), ErrRefused, err)
}

// refusal is an agent's error answer to session/new: a login it needs
// (ErrNeedsLogin), or a refusal (ErrRefused) in its own words.
func (p *Process) refusal(re *sdk.RequestError) error {
	if re.Code == authRequired {
		return p.needsLogin()
	}
	return fail(fmt.Sprintf("%s refused a new session: %s", p.agent.Label(), rpcText(re)), ErrRefused, re)
}

// needsLogin says that the agent wants a login: the ways it offers, and
// how to log in.
func (p *Process) needsLogin() error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s needs you to log in", p.agent.Label())
	var ways []string
	for _, m := range p.init.auth {
		ways = append(ways, m.describe())
	}
	if len(ways) > 0 {
		fmt.Fprintf(&b, "; it offers: %s", strings.Join(ways, "; "))
	}
	fmt.Fprintf(&b, ". %s Then try again.", loginHint(p.agent, p.init.auth))
	return fail(b.String(), ErrNeedsLogin)
}

// describe names a login method and what it takes.
func (m AuthMethod) describe() string {
	name := m.Name
	if name == "" {
		name = m.ID
	}
	switch {
	case m.Kind == AuthEnvVar && len(m.Vars) > 0:
		return fmt.Sprintf("%s (set %s)", name, strings.Join(m.Vars, ", "))
	case m.Kind == AuthTerminal && m.Command != "":
		return fmt.Sprintf("%s (run %s in a terminal)", name, m.Command)
	}
	return name
}

// loginHint says how to log in to ag: its preset's words when it is a
// known agent, else what its login methods ask for.
func loginHint(ag agentconf.Agent, methods []AuthMethod) string {
	if pr := agentconf.PresetOf(ag); pr != nil {
		return pr.Login
	}
	for _, m := range methods {
		switch {
		case m.Kind == AuthTerminal && m.Command != "":
			return fmt.Sprintf("Run %s in a terminal and log in.", m.Command)
		case m.Kind == AuthEnvVar && len(m.Vars) > 0:
			return fmt.Sprintf("Set %s in the agent's environment (its env in Settings).", strings.Join(m.Vars, ", "))
		}
	}
	return "Run the agent's command in a terminal and log in there, or set the API key it asks for in its env in Settings."
}

// authMethods turns the login methods of initialize into ours; command is
// the agent's program, which a terminal login runs.
func authMethods(ms []sdk.AuthMethod, command string) []AuthMethod {
	out := []AuthMethod{}
	for _, m := range ms {
		switch {
		case m.EnvVar != nil:
			a := AuthMethod{ID: m.EnvVar.Id, Name: m.EnvVar.Name, Description: deref(m.EnvVar.Description), Kind: AuthEnvVar, Link: deref(m.EnvVar.Link)}
			for _, v := range m.EnvVar.Vars {
				a.Vars = append(a.Vars, v.Name)
			}
			out = append(out, a)
		case m.Terminal != nil:
			cmd := append([]string{filepath.Base(command)}, m.Terminal.Args...)
			out = append(out, AuthMethod{ID: m.Terminal.Id, Name: m.Terminal.Name, Description: deref(m.Terminal.Description), Kind: AuthTerminal,
				Command: strings.Join(cmd, " ")})
		case m.Agent != nil:
			out = append(out, AuthMethod{ID: m.Agent.Id, Name: m.Agent.Name, Description: deref(m.Agent.Description), Kind: AuthAgent})
		}
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// rpcText is a JSON-RPC error told plainly: its message, and the details
// the agent sent with it when they are words, capped.
func rpcText(re *sdk.RequestError) string {
	text := re.Message
	var detail string
	switch d := re.Data.(type) {
	case string:
		detail = d
	case map[string]any:
		for _, k := range []string{"details", "message", "error"} {
			if s, ok := d[k].(string); ok {
				detail = s
				break
			}
		}
	}
	if detail != "" && !strings.Contains(text, detail) {
		text += ": " + detail
	}
	if text = printable([]byte(text)); len(text) > 200 {
		text = strings.ToValidUTF8(text[:200], "") + "…"
	}
	if text == "" {
		text = fmt.Sprintf("error %d", re.Code)
	}
	return text
}

// exitDetail is how the agent ended, to follow a message: its exit status
// and the last line of its stderr.
func (p *Process) exitDetail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := ""
	if p.err != nil {
		msg += " (" + p.err.Error() + ")"
	}
	if tail := printable([]byte(lastLine(p.stderr.String()))); tail != "" {
		if len(tail) > 300 {
			tail = strings.ToValidUTF8(tail[:300], "") + "…"
		}
		msg += ": " + tail
	}
	return msg
}

// seconds renders a duration in whole seconds, at least one.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", max(1, int(d.Round(time.Second)/time.Second)))
}
