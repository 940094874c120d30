package acp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// Capabilities are what an agent said it can do at initialize.
type Capabilities struct {
	LoadSession bool `json:"loadSession"`
	Resume      bool `json:"resume"`
	Close       bool `json:"close"`
}

// Process is one running agent and its ACP connection. Updates for a session
// go to the sink registered for it while a request on that session runs.
type Process struct {
	agent Agent
	cmd   *exec.Cmd
	conn  *sdk.ClientSideConnection
	caps  Capabilities
	log   *slog.Logger

	mu     sync.Mutex
	sinks  map[sdk.SessionId]func(sdk.SessionUpdate)
	stderr *tailBuffer
	exited chan struct{}
	err    error // why the process exited
}

// ErrAgentExited means the agent process ended.
var ErrAgentExited = errors.New("the agent stopped")

// Start spawns the agent and initializes the connection: protocol 1, no
// file system and no terminal offered, since a turn may only read through
// its grant.
func Start(ctx context.Context, ag Agent, log *slog.Logger) (*Process, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(ag.Command, ag.Args...)
	cmd.Env = os.Environ()
	for k, v := range ag.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = os.TempDir()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{agent: ag, cmd: cmd, log: log, sinks: map[sdk.SessionId]func(sdk.SessionUpdate){},
		stderr: &tailBuffer{max: 8 << 10}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start agent %q: %w", ag.Name, err)
	}
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exited)
	}()
	p.conn = sdk.NewClientSideConnection(&client{p: p}, stdin, bufio.NewReader(stdout))
	p.conn.SetLogger(log)

	ictx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	resp, err := call(ictx, p, func(ctx context.Context) (sdk.InitializeResponse, error) {
		return p.conn.Initialize(ctx, sdk.InitializeRequest{
			ProtocolVersion:    sdk.ProtocolVersionNumber,
			ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: false, WriteTextFile: false}, Terminal: false},
			ClientInfo:         &sdk.Implementation{Name: "agentero", Version: "1"},
		})
	})
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("initialize agent %q: %w", ag.Name, err)
	}
	sc := resp.AgentCapabilities.SessionCapabilities
	p.caps = Capabilities{LoadSession: resp.AgentCapabilities.LoadSession, Resume: sc.Resume != nil, Close: sc.Close != nil}
	return p, nil
}

// call runs one request and turns the agent's death or silence into errors
// that say so.
func call[T any](ctx context.Context, p *Process, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f(ctx)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		if r.err == nil {
			return r.v, nil
		}
		// A dropped connection usually means the agent is exiting: give
		// it a moment, so the error says so instead of "disconnected".
		select {
		case <-p.exited:
			return r.v, p.exitError()
		case <-p.conn.Done():
			select {
			case <-p.exited:
			case <-time.After(2 * time.Second):
				p.Kill()
			}
			return r.v, p.exitError()
		case <-time.After(200 * time.Millisecond):
		}
		return r.v, r.err
	case <-p.exited:
		var zero T
		return zero, p.exitError()
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// Capabilities reports what the agent can do.
func (p *Process) Capabilities() Capabilities { return p.caps }

// Agent is the configuration the process was started from.
func (p *Process) Agent() Agent { return p.agent }

// Exited reports whether the agent process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

func (p *Process) exitError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	msg := ErrAgentExited.Error()
	if p.err != nil {
		msg += " (" + p.err.Error() + ")"
	}
	if tail := p.stderr.String(); tail != "" {
		msg += ": " + lastLine(tail)
	}
	return fmt.Errorf("%w%s", ErrAgentExited, msg[len(ErrAgentExited.Error()):])
}

// Kill ends the agent process and waits for it.
func (p *Process) Kill() {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	<-p.exited
}

// Stop closes the agent's input, gives it a moment to exit, then kills it.
func (p *Process) Stop() {
	if c, ok := p.cmd.Stdin.(io.Closer); ok {
		c.Close()
	}
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.Kill()
	}
}

func (p *Process) setSink(id sdk.SessionId, sink func(sdk.SessionUpdate)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if sink == nil {
		delete(p.sinks, id)
		return
	}
	p.sinks[id] = sink
}

func (p *Process) deliver(id sdk.SessionId, u sdk.SessionUpdate) {
	p.mu.Lock()
	sink := p.sinks[id]
	p.mu.Unlock()
	if sink != nil {
		sink(u)
	}
}

// tailBuffer keeps the last max bytes written to it (an agent's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func lastLine(s string) string {
	lines := splitLines(s)
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] != "" {
			return lines[i]
		}
	}
	return ""
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, trimCR(s[start:i]))
			start = i + 1
		}
	}
	return append(out, trimCR(s[start:]))
}

func trimCR(s string) string {
	if len(s) > 0 && s[len(s)-1] == '\r' {
		return s[:len(s)-1]
	}
	return s
}
