package acp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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

// How long an agent gets to exit by itself after its input is closed or its
// connection drops, before it is killed.
const exitGrace = 2 * time.Second

// initTimeout bounds initialize: an agent that has not answered by then is
// not an ACP agent, or is hung.
const initTimeout = 60 * time.Second

// writeStall is how long a write to the agent's input may block. An agent
// that takes none of its input for this long has stopped reading: it is
// killed, which fails the write and every request waiting on the connection
// instead of leaving them (and the SDK's write lock) blocked for good.
const writeStall = 30 * time.Second

// Process is one running agent and its ACP connection. Updates for a session
// go to the sink registered for it while a request on that session runs.
//
// The process owns one goroutine, which waits for the agent to exit and
// then closes exited; Stop and Kill return only after it has. The SDK
// connection's own goroutines end when the agent's output closes, which
// happens when the agent exits.
type Process struct {
	agent  Agent
	cmd    *exec.Cmd
	stdin  *os.File // our end of the agent's input
	conn   *sdk.ClientSideConnection
	caps   Capabilities // set by initialize, before the process is shared; read-only after
	log    *slog.Logger
	stderr *tailBuffer
	exited chan struct{} // closed once the agent has exited and its connection is closed

	// mu guards the fields below. It is held only to read or update them:
	// sinks are called after it is released, so a sink may block.
	mu    sync.Mutex
	sinks map[sdk.SessionId]func(sdk.SessionUpdate)
	live  map[sdk.SessionId]bool // sessions opened or continued on this process
	err   error                  // why the process exited; set before exited is closed

	askers map[sdk.SessionId]asker // guarded by mu too: the running turns' permission deciders (client.go); made on first use
}

// Start spawns the agent and initializes the connection: protocol 1, no
// file system and no terminal offered, since a turn may only read through
// its grant. The caller owns the process and ends it with Stop or Kill.
func Start(ctx context.Context, ag Agent, log *slog.Logger) (*Process, error) {
	p, err := spawn(ag, log)
	if err != nil {
		return nil, err
	}
	if err := p.initialize(ctx); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// spawn starts the agent's command and connects to it, without a request.
func spawn(ag Agent, log *slog.Logger) (*Process, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(ag.Command, ag.Args...)
	cmd.Env = os.Environ()
	for k, v := range ag.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = os.TempDir()
	// Children of the agent (its MCP servers) may hold its output open
	// after it exits: Wait does not wait for them longer than this.
	cmd.WaitDelay = exitGrace
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrNotStarted, ag.Name, err)
	}
	cmd.Stdin = inR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%w: %q: %w", ErrNotStarted, ag.Name, err)
	}
	p := &Process{agent: ag, cmd: cmd, stdin: inW, log: log, stderr: &tailBuffer{max: 8 << 10}, exited: make(chan struct{}),
		sinks: map[sdk.SessionId]func(sdk.SessionUpdate){}, live: map[sdk.SessionId]bool{}}
	cmd.Stderr = p.stderr
	err = cmd.Start()
	inR.Close() // the agent has its own copy
	if err != nil {
		inW.Close()
		return nil, fmt.Errorf("%w: %q: %w", ErrNotStarted, ag.Name, err)
	}
	p.conn = sdk.NewClientSideConnection(&client{p: p}, stdinWriter{p}, bufio.NewReader(stdout))
	p.conn.SetLogger(log)
	go p.wait()
	return p, nil
}

// wait is the process's goroutine: it reaps the agent, then waits for the
// connection to close (Wait closes the agent's output, which ends the SDK's
// reader) and marks the process exited.
func (p *Process) wait() {
	err := p.cmd.Wait()
	p.stdin.Close()
	<-p.conn.Done()
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.exited)
}

// initialize opens the ACP connection (within initTimeout and ctx).
func (p *Process) initialize(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, initTimeout)
	defer cancel()
	resp, err := call(ctx, p, func(ctx context.Context) (sdk.InitializeResponse, error) {
		return p.conn.Initialize(ctx, sdk.InitializeRequest{
			ProtocolVersion:    sdk.ProtocolVersionNumber,
			ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: false, WriteTextFile: false}, Terminal: false},
			ClientInfo:         &sdk.Implementation{Name: "agentero", Version: "1"},
		})
	})
	if err != nil {
		return fmt.Errorf("%w: initialize %q: %w", ErrNotStarted, p.agent.Name, err)
	}
	sc := resp.AgentCapabilities.SessionCapabilities
	p.caps = Capabilities{LoadSession: resp.AgentCapabilities.LoadSession, Resume: sc.Resume != nil, Close: sc.Close != nil}
	return nil
}

// call runs one request in the caller's goroutine and says what went wrong
// in the user's terms. The SDK returns when the answer arrives, when ctx
// ends (it then sends $/cancel_request) or when the connection closes; a
// closed connection means the agent is exiting, so call waits for the exit
// (within exitGrace, then kills it) and reports why it ended. An ended ctx
// is returned as ctx.Err(), so that callers can tell a deadline from a
// cancellation with errors.Is.
func call[T any](ctx context.Context, p *Process, f func(context.Context) (T, error)) (T, error) {
	v, err := f(ctx)
	if err == nil {
		return v, nil
	}
	select {
	case <-p.conn.Done():
		select {
		case <-p.exited:
		case <-time.After(exitGrace):
			p.Kill()
		}
		return v, p.exitError()
	default:
	}
	if ctx.Err() != nil {
		return v, ctx.Err()
	}
	return v, err
}

// stdinWriter is the connection's writer: each write may block for at most
// writeStall, after which the agent is killed (see writeStall). A write
// cut off midway leaves the agent's input unparseable, so killing it is
// the only way on.
type stdinWriter struct{ p *Process }

func (w stdinWriter) Write(b []byte) (int, error) {
	w.p.stdin.SetWriteDeadline(time.Now().Add(writeStall))
	n, err := w.p.stdin.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		w.p.log.Warn("the agent stopped reading its input: killing it", "agent", w.p.agent.Name)
		w.p.cmd.Process.Kill()
	}
	return n, err
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
	msg := ""
	if p.err != nil {
		msg += " (" + p.err.Error() + ")"
	}
	if tail := p.stderr.String(); tail != "" {
		msg += ": " + lastLine(tail)
	}
	return fmt.Errorf("%w%s", ErrAgentExited, msg)
}

// Kill ends the agent process and waits until it has exited.
func (p *Process) Kill() {
	p.cmd.Process.Kill()
	<-p.exited
}

// Stop closes the agent's input, gives it exitGrace to exit, then kills it.
// It returns once the agent has exited; calling it again is harmless.
func (p *Process) Stop() {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
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

// markLive records that session id is open on this process.
func (p *Process) markLive(id sdk.SessionId) {
	p.mu.Lock()
	p.live[id] = true
	p.mu.Unlock()
}

// isLive reports whether session id is open on this process and the
// process still runs.
func (p *Process) isLive(id sdk.SessionId) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live[id] && !p.Exited()
}

// tailBuffer keeps the last max bytes written to it (an agent's stderr).
type tailBuffer struct {
	max int

	mu  sync.Mutex // guards buf; held only to append or copy it
	buf []byte
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
