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
	"sync/atomic"
	"time"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/sandbox"
	"github.com/agentero/agentero/backend/subprocess"
	sdk "github.com/coder/acp-go-sdk"
)

// Capabilities are what an agent said it can do at initialize.
type Capabilities struct {
	LoadSession bool `json:"loadSession"`
	Resume      bool `json:"resume"`
	Close       bool `json:"close"`
	// The MCP transports the agent takes in session/new: stdio (which
	// every ACP agent must), HTTP and SSE.
	MCPStdio bool `json:"mcpStdio"`
	MCPHTTP  bool `json:"mcpHttp"`
	MCPSSE   bool `json:"mcpSse"`
}

// How long an agent gets to exit by itself after its input is closed, and
// again after SIGTERM, before its process group is killed; also how long
// its pipes may stay open after it exited (see wait).
const exitGrace = 2 * time.Second

// DefaultStartTimeout bounds initialize: an agent that has not answered by
// then is not an ACP agent, or is hung. Check gives session/new as long
// again.
const DefaultStartTimeout = 30 * time.Second

// writeStall is how long a write to the agent's input may block. An agent
// that takes none of its input for this long has stopped reading: it is
// killed, which fails the write and every request waiting on the connection
// instead of leaving them (and the SDK's write lock) blocked for good.
const writeStall = 30 * time.Second

// StartOptions tunes Start and Check. Zero values mean defaults.
type StartOptions struct {
	Logger  *slog.Logger
	Timeout time.Duration // for initialize, and for Check's session/new; 0 = DefaultStartTimeout
}

func (o StartOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultStartTimeout
	}
	return o.Timeout
}

// Process is one running agent and its ACP connection. Updates for a session
// go to the sink registered for it while a request on that session runs.
//
// The agent leads a process group of its own, so that stopping it stops
// what it started (npx runs the real agent as its child). Its three pipes
// are plain files, read by goroutines the process owns: the SDK's reader
// for stdout, and one for stderr. The process's own goroutine (wait) reaps
// the agent, kills what is left of its group, gives the pipes exitGrace to
// end and then closes them — a process that left the group and holds them
// cannot keep anything waiting — and closes exited. Stop and Kill return
// only after that.
type Process struct {
	agent      agentconf.Agent
	jail       *jail // how it is confined; nil for the built-in agent
	cmd        *exec.Cmd
	stdin      *os.File // our end of the agent's input
	stdout     *os.File // our end of the agent's output, which the connection reads through out
	stderrPipe *os.File // our end of the agent's stderr, copied into stderr
	out        *sniffer
	conn       *sdk.ClientSideConnection
	init       initialized // set by initialize, before the process is shared; read-only after
	log        *slog.Logger
	stderr     *tailBuffer
	stderrDone chan struct{} // closed when the stderr copy has ended
	exited     chan struct{} // closed once the agent has exited and its pipes are closed

	reaped      atomic.Bool // the agent's process has been reaped: its pid is no longer ours to signal
	writeFailed atomic.Bool // a write to the agent's input failed: the agent is gone or was killed

	// mu guards the fields below. It is held only to read or update them:
	// sinks are called after it is released, so a sink may block.
	mu    sync.Mutex
	sinks map[sdk.SessionId]func(sdk.SessionUpdate)
	// commands are what the agent advertised per session
	// (available_commands_update), lastCommands its latest.
	commands     map[sdk.SessionId][]Command
	lastCommands []Command
	live         map[sdk.SessionId]bool // sessions opened or continued on this process
	err          error                  // why the process exited; set before exited is closed

	askers map[sdk.SessionId]asker // guarded by mu too: the running turns' permission deciders (client.go); made on first use
}

// initialized is what an agent said about itself at initialize.
type initialized struct {
	caps     Capabilities
	name     string // agentInfo
	title    string
	version  string
	protocol int
	auth     []AuthMethod
}

// Start spawns the agent and initializes the connection (within
// opts.Timeout and ctx): protocol 1, no file system and no terminal offered,
// since a turn may only read through its grant. A failure is told in the
// user's words (see startError) and leaves nothing running. The caller owns
// the process and ends it with Stop or Kill.
func Start(ctx context.Context, ag agentconf.Agent, opts StartOptions) (*Process, error) {
	p, err := spawn(ag, opts.Logger, nil)
	if err != nil {
		return nil, err
	}
	if err := p.initialize(ctx, opts.timeout()); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// spawn starts the agent's command, in a process group of its own, and
// connects to it, without a request. The command is resolved first
// (ResolveCommand), so that one not found is reported as such. confine,
// when given, decides how the agent is confined (Host.jailFor).
func spawn(ag agentconf.Agent, log *slog.Logger, confine func(agentconf.Agent, string) (*jail, error)) (*Process, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path, err := agentconf.ResolveCommand(ag.Command, ag.Env)
	if err != nil {
		return nil, fail(err.Error(), ErrNotStarted, err)
	}
	var j *jail
	if confine != nil {
		if j, err = confine(ag, path); err != nil {
			return nil, fail(fmt.Sprintf("%s could not be started: %v", ag.Label(), err), ErrNotStarted, err)
		}
	}
	var cmd *exec.Cmd
	if j.confined() {
		if cmd, err = sandbox.Command(j.report.Kind, j.spec, j.self, path, ag.Args); err != nil {
			return nil, fail(fmt.Sprintf("%s could not be started: %v", ag.Label(), err), ErrNotStarted, err)
		}
		log.Debug("agent confined", "agent", ag.Name, "sandbox", j.report.Kind, "read", j.spec.Read, "write", j.spec.Write)
	} else {
		cmd = exec.Command(path, ag.Args...)
		cmd.Env = os.Environ()
		for k, v := range ag.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		cmd.Dir = os.TempDir()
	}
	inOwnGroup(cmd)
	var pipes [3][2]*os.File // [stdin, stdout, stderr][read end, write end]
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			for _, p := range pipes[:i] {
				p[0].Close()
				p[1].Close()
			}
			log.Error("make a pipe for an agent", "agent", ag.Name, "err", err)
			return nil, fail(fmt.Sprintf("%s could not be started: the system refused a pipe", ag.Label()), ErrNotStarted, err)
		}
		pipes[i] = [2]*os.File{r, w}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0][0], pipes[1][1], pipes[2][1]
	err = subprocess.Start(cmd)
	// The agent has its own copies of its ends.
	pipes[0][0].Close()
	pipes[1][1].Close()
	pipes[2][1].Close()
	if err != nil {
		pipes[0][1].Close()
		pipes[1][0].Close()
		pipes[2][0].Close()
		return nil, runError(ag, path, err, log)
	}
	p := &Process{agent: ag, jail: j, cmd: cmd, stdin: pipes[0][1], stdout: pipes[1][0], stderrPipe: pipes[2][0],
		out: &sniffer{r: pipes[1][0]}, log: log, stderr: &tailBuffer{max: 8 << 10},
		stderrDone: make(chan struct{}), exited: make(chan struct{}),
		sinks: map[sdk.SessionId]func(sdk.SessionUpdate){}, live: map[sdk.SessionId]bool{}}
	go func() {
		defer close(p.stderrDone)
		io.Copy(p.stderr, p.stderrPipe)
	}()
	p.conn = sdk.NewClientSideConnection(&client{p: p}, stdinWriter{p}, bufio.NewReader(p.out))
	p.conn.SetLogger(log)
	go p.wait()
	return p, nil
}

// wait is the process's goroutine. It reaps the agent and kills what is
// left of its process group. The agent's output and stderr then end at
// once, unless a process outside the group still holds them: after
// exitGrace they are closed on our side, which ends the SDK's reader and
// the stderr copy all the same. Then the process is marked exited.
func (p *Process) wait() {
	err := p.cmd.Wait()
	p.reaped.Store(true)
	killGroup(p.cmd)
	p.stdin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), exitGrace)
	defer cancel()
	select {
	case <-p.conn.Done():
	case <-ctx.Done():
	}
	p.stdout.Close()
	<-p.conn.Done()
	select {
	case <-p.stderrDone:
	case <-ctx.Done():
	}
	p.stderrPipe.Close()
	<-p.stderrDone
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.exited)
}

// initialize opens the ACP connection within timeout and ctx, and keeps
// what the agent said about itself.
func (p *Process) initialize(ctx context.Context, timeout time.Duration) error {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := call(ctx, p, func(ctx context.Context) (sdk.InitializeResponse, error) {
		return p.conn.Initialize(ctx, sdk.InitializeRequest{
			ProtocolVersion:    sdk.ProtocolVersionNumber,
			ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: false, WriteTextFile: false}, Terminal: false},
			ClientInfo:         &sdk.Implementation{Name: "agentero", Version: "1"},
		})
	})
	if err != nil {
		deadline, _ := ctx.Deadline() // ours, or the caller's when sooner
		return p.startError(err, deadline.Sub(began))
	}
	p.out.stop()
	if int(resp.ProtocolVersion) > sdk.ProtocolVersionNumber {
		return fail(fmt.Sprintf("%s speaks version %d of ACP, and Agentero version %d: update Agentero, or use an older version of the agent",
			p.agent.Label(), resp.ProtocolVersion, sdk.ProtocolVersionNumber), ErrNotStarted, ErrNotACP)
	}
	ac := resp.AgentCapabilities
	p.init = initialized{
		caps: Capabilities{LoadSession: ac.LoadSession, Resume: ac.SessionCapabilities.Resume != nil, Close: ac.SessionCapabilities.Close != nil,
			MCPStdio: true, MCPHTTP: ac.McpCapabilities.Http, MCPSSE: ac.McpCapabilities.Sse},
		protocol: int(resp.ProtocolVersion),
		auth:     authMethods(resp.AuthMethods, p.cmd.Path),
	}
	if i := resp.AgentInfo; i != nil {
		p.init.name, p.init.version = i.Name, i.Version
		if i.Title != nil {
			p.init.title = *i.Title
		}
	}
	return nil
}

// call runs one request in the caller's goroutine and says what went wrong
// in the user's terms. The SDK returns when the answer arrives, when ctx
// ends (it then sends $/cancel_request) or when the connection closes; a
// closed connection, or a request that could not be written, means the
// agent is exiting, so call waits for the exit (within exitGrace, then
// kills it) and reports why it ended. An ended ctx is returned as
// ctx.Err(), so that callers can tell a deadline from a cancellation with
// errors.Is.
func call[T any](ctx context.Context, p *Process, f func(context.Context) (T, error)) (T, error) {
	v, err := f(ctx)
	if err == nil {
		return v, nil
	}
	if ctx.Err() == nil && p.writeFailed.Load() {
		t := time.NewTimer(exitGrace)
		select {
		case <-p.conn.Done():
		case <-t.C:
		}
		t.Stop()
	}
	select {
	case <-p.conn.Done():
		if !p.waitExit(exitGrace) {
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
	if err != nil {
		w.p.writeFailed.Store(true)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		w.p.log.Warn("the agent stopped reading its input: killing it", "agent", w.p.agent.Name)
		if !w.p.reaped.Load() {
			killGroup(w.p.cmd)
		}
	}
	return n, err
}

// Capabilities reports what the agent can do.
func (p *Process) Capabilities() Capabilities { return p.init.caps }

// Agent is the configuration the process was started from.
func (p *Process) Agent() agentconf.Agent { return p.agent }

// Exited reports whether the agent process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitError is ErrAgentExited with how the agent ended.
func (p *Process) exitError() error { return fmt.Errorf("%w%s", ErrAgentExited, p.exitDetail()) }

// Kill ends the agent's process group at once and waits until the agent
// has exited.
func (p *Process) Kill() {
	if !p.reaped.Load() { // after the reap, wait has ended the group
		killGroup(p.cmd)
	}
	<-p.exited
}

// Stop ends the agent politely, then less so: its input is closed (an ACP
// agent exits when its input ends); after exitGrace its process group gets
// SIGTERM, and after another exitGrace SIGKILL. It returns once the agent
// has exited and its pipes are closed; calling it again is harmless.
func (p *Process) Stop() {
	p.stdin.Close()
	if p.waitExit(exitGrace) {
		return
	}
	if !p.reaped.Load() {
		terminateGroup(p.cmd)
	}
	if p.waitExit(exitGrace) {
		return
	}
	p.Kill()
}

// waitExit waits at most d for the agent to exit and reports whether it did.
func (p *Process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
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
	if u.AvailableCommandsUpdate != nil {
		p.noteCommands(id, u.AvailableCommandsUpdate.AvailableCommands)
	}
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
