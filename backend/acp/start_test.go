package acp_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/proctest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// quick is the deadline the start tests give initialize (and session/new).
const quick = 2 * time.Second

// stopBound is the longest a failed or finished check may take beyond its
// deadline: a stop that goes through SIGTERM to SIGKILL (two grace periods
// of 2 s) and some slack for a loaded machine.
const stopBound = 8 * time.Second

// startBound is the longest the peer may take to start and answer on a
// machine loaded by -race runs.
const startBound = 10 * time.Second

// wrapped is the peer agent started through a shell wrapper that stays its
// parent, as npx stays the parent of the adapter it runs. env is added to
// the peer's; the pid file names the agent's process group once it runs.
func wrapped(t *testing.T, name, caps, fault string, env map[string]string, extra ...string) (ag agentconf.Agent, rec, pidFile string) {
	t.Helper()
	ag, rec = peer(t, name, caps, fault)
	node, err := exec.LookPath("node")
	if err != nil {
		corpustest.Unavailable(t, "node is not installed (scripts/deps.sh installs it): %v", err)
	}
	script, pidFile := proctest.Wrapper(t, t.TempDir(), node, ag.Args, extra...)
	ag.Command, ag.Args = script, nil
	// These tests follow the agent's processes by their pids, which a
	// sandbox's pid namespace renumbers: they run unconfined
	// (TestConfinedAgent covers the confined ones).
	ag.Sandbox = "off"
	maps.Copy(ag.Env, env)
	return ag, rec, pidFile
}

// agentGone fails the test if anything of a wrapped agent is left: a
// process of its group, or the peer itself (whose pid it recorded), which
// is checked apart so that an agent that never got a group of its own
// cannot pass for gone.
func agentGone(t *testing.T, pidFile, rec string) {
	t.Helper()
	proctest.GroupGone(t, proctest.PID(t, pidFile), time.Second)
	for _, r := range records(t, rec) {
		proctest.Gone(t, r.PID, time.Second)
	}
}

// inGroup fails the test unless the peer that recorded rec runs in the
// process group its wrapper leads.
func inGroup(t *testing.T, pidFile, rec string) {
	t.Helper()
	members := strings.Join(proctest.Group(proctest.PID(t, pidFile)), "\n")
	for _, pid := range pids(t, rec, "initialize") {
		if !strings.Contains("\n"+members, "\n"+strconv.Itoa(pid)+" ") {
			t.Errorf("the agent %d is not in its wrapper's process group: %q", pid, members)
		}
	}
}

// check runs Test connection with a deadline of timeout for each step (0 =
// the default), and says how long it took.
func check(ctx context.Context, ag agentconf.Agent, timeout time.Duration) (*acp.Report, time.Duration, error) {
	began := time.Now()
	rep, err := acp.Check(ctx, ag, acp.StartOptions{Timeout: timeout})
	return rep, time.Since(began), err
}

// TestCheckReports runs Test connection on an agent started through a
// wrapper: it reports who the agent is and what it can do, opened a session
// in a temporary folder with no MCP server, and leaves nothing of the
// agent's process group behind even though the agent ignores SIGTERM and
// its end of input.
func TestCheckReports(t *testing.T) {
	ag, rec, pidFile := wrapped(t, "peer", "load,resume,http", "", map[string]string{"PEER_STUBBORN": "1"})
	rep, took, err := check(context.Background(), ag, 0)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	want := &acp.Report{Command: ag.Command, Name: "peeragent", Title: "Peer Agent", Version: "2.4.0-test", ProtocolVersion: 1,
		Capabilities: acp.Capabilities{LoadSession: true, Resume: true, MCPStdio: true, MCPHTTP: true}, AuthMethods: []acp.AuthMethod{}}
	if diff := cmp.Diff(want, rep, cmpopts.IgnoreFields(acp.Report{}, "Seconds")); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if got := methods(records(t, rec)); !slices.Equal(got, []string{"initialize", "session/new"}) {
		t.Errorf("the agent received %v, want initialize and session/new", got)
	}
	for _, r := range records(t, rec) {
		if r.Method != "session/new" {
			continue
		}
		if servers := mcpServers(t, r); len(servers) != 0 {
			t.Errorf("Test connection passed MCP servers %v", servers)
		}
		if !strings.Contains(string(r.Params), "agentero-check-") {
			t.Errorf("session/new params %s: want the test's temporary folder as cwd", r.Params)
		}
	}
	if took > startBound+stopBound {
		t.Errorf("Check took %v with an agent that ignores SIGTERM, want it killed within %v of its start", took, stopBound)
	}
	agentGone(t, pidFile, rec)
}

// TestStartErrors tries what a new user may configure: each failure says
// what happened in plain words — never a JSON-RPC object or a Go error —
// with its domain error and code, within its deadline, and leaves no
// process of the agent behind.
func TestStartErrors(t *testing.T) {
	notExec := filepath.Join(t.TempDir(), "agent")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	tests := []struct {
		name  string
		agent func(t *testing.T) (agentconf.Agent, string, string) // the agent, its wrapper's pid file and its record ("" = nothing starts)
		want  []string                                             // in the message
		is    error
		code  string
	}{
		{"not found on PATH", plain("agentero-no-such-agent"),
			[]string{`the command "agentero-no-such-agent" was not found: it must be on PATH or given as an absolute path`}, acp.ErrCommandNotFound, events.CodeNotConfigured},
		{"absolute path missing", plain("/nonexistent/agentero/agent"),
			[]string{`the command "/nonexistent/agentero/agent" was not found`}, acp.ErrCommandNotFound, events.CodeNotConfigured},
		{"relative path", plain("bin/agent"),
			[]string{`the command "bin/agent" is a relative path: give its absolute path, or a command name found on PATH`}, acp.ErrRelativeCommand, events.CodeNotConfigured},
		{"not executable", plain(notExec),
			[]string{`the command "` + notExec + `" is not executable`}, acp.ErrCommandNotFound, events.CodeNotConfigured},
		{"prints a usage text", started("garbage"),
			[]string{`"bad" is not an ACP agent: it does not answer initialize (it printed “Usage: peer [--acp] [--verbose]”)`}, acp.ErrNotACP, events.CodeNotConfigured},
		{"answers initialize with an error", started("error"),
			[]string{`"bad" is not an ACP agent: it does not answer initialize (it answered “"Method not found": initialize”)`}, acp.ErrNotACP, events.CodeNotConfigured},
		{"exits before answering", started("exit"),
			[]string{`"bad" exited before answering initialize (exit status 2): peer: no configuration found, cannot start`}, acp.ErrAgentExited, events.CodeNotConfigured},
		{"never answers initialize", started("hang"),
			[]string{`"bad" did not answer initialize in 2 s`}, context.DeadlineExceeded, events.CodeNotConfigured},
		{"needs a login", started("auth"),
			[]string{`"bad" needs you to log in; it offers: Log in with Peer; Peer API key (set PEER_API_KEY).`,
				"Set PEER_API_KEY in the agent's environment"}, acp.ErrNeedsLogin, events.CodeAuthRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ag, pidFile, rec := tt.agent(t)
			// An agent that answers gets the time a loaded machine may need
			// to start it; only the one that never answers is given quick.
			deadline := startBound
			if tt.is == context.DeadlineExceeded {
				deadline = quick
			}
			rep, took, err := check(context.Background(), ag, deadline)
			if err == nil {
				t.Fatalf("Check = %+v, want an error", rep)
			}
			msg := err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q\nwant it to say %q", msg, w)
				}
			}
			if strings.ContainsAny(msg, "{}") || strings.Contains(msg, "exec:") || strings.Contains(msg, "$PATH") {
				t.Errorf("message %q shows a raw JSON-RPC or Go error", msg)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if got := acp.ErrorCode(err); got != tt.code {
				t.Errorf("code %q, want %q", got, tt.code)
			}
			if took > deadline+stopBound {
				t.Errorf("Check took %v, want at most its deadline %v and a stop", took, deadline)
			}
			if pidFile != "" {
				agentGone(t, pidFile, rec)
			}
		})
	}
}

// plain is an agent with command and no process behind it.
func plain(command string) func(*testing.T) (agentconf.Agent, string, string) {
	return func(*testing.T) (agentconf.Agent, string, string) {
		return agentconf.Agent{Name: "bad", Command: command}, "", ""
	}
}

// started is the wrapped peer agent starting the way start says (PEER_START).
func started(start string) func(*testing.T) (agentconf.Agent, string, string) {
	return func(t *testing.T) (agentconf.Agent, string, string) {
		ag, rec, pidFile := wrapped(t, "bad", "", "", map[string]string{"PEER_START": start, "PEER_STUBBORN": "1"})
		return ag, pidFile, rec
	}
}

// TestCancelTestConnection cancels Test connection while the agent, under
// its wrapper, does not answer initialize: Check returns at once as
// cancelled, and the agent's whole process group is gone.
func TestCancelTestConnection(t *testing.T) {
	ag, rec, pidFile := wrapped(t, "slow", "", "", map[string]string{"PEER_START": "hang", "PEER_STUBBORN": "1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		err error
		at  time.Time
	}
	done := make(chan outcome, 1)
	go func() {
		_, err := acp.Check(ctx, ag, acp.StartOptions{Timeout: time.Hour})
		done <- outcome{err, time.Now()}
	}()
	waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), "initialize") })
	inGroup(t, pidFile, rec)
	cancelled := time.Now()
	cancel()
	select {
	case o := <-done:
		if acp.ErrorCode(o.err) != events.CodeCancelled || !strings.Contains(o.err.Error(), `starting "slow" was cancelled`) {
			t.Errorf("cancelled Check: %v (code %q), want it cancelled", o.err, acp.ErrorCode(o.err))
		}
		if d := o.at.Sub(cancelled); d > 3*time.Second {
			t.Errorf("Check returned %v after Cancel", d)
		}
	case <-time.After(stopBound):
		t.Fatal("Check did not return after Cancel")
	}
	agentGone(t, pidFile, rec)
}

// TestStopDoesNotWaitOnAnEscapedPipe starts an agent whose wrapper also
// leaves a process that escaped its group (setsid) holding the agent's
// output and stderr: stopping the agent does not wait for that process.
func TestStopDoesNotWaitOnAnEscapedPipe(t *testing.T) {
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		corpustest.Unavailable(t, "setsid is not installed (util-linux; scripts/deps.sh installs it): %v", err)
	}
	escaped := filepath.Join(t.TempDir(), "escaped.pid")
	ag, rec, pidFile := wrapped(t, "leaky", "", "", nil,
		setsid+` sh -c 'echo $$ > "`+escaped+`"; exec sleep 600' &`)
	t.Cleanup(func() {
		if b, err := os.ReadFile(escaped); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	if _, took, err := check(context.Background(), ag, 0); err != nil || took > startBound+stopBound {
		t.Fatalf("Check = %v after %v, want success within %v", err, took, startBound+stopBound)
	}
	agentGone(t, pidFile, rec)
}

// TestPresets checks PATH detection against a PATH of the test's own: a
// preset is found when its command is an executable file in one of the
// folders, never in a relative folder, and its path is then absolute.
func TestPresets(t *testing.T) {
	bin, other := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(bin, "gemini"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(other, "goose"), []byte("#!/bin/sh\n"), 0o644) // not executable
	os.Mkdir(filepath.Join(other, "opencode"), 0o755)                         // a folder
	os.WriteFile(filepath.Join(other, "npx"), []byte("#!/bin/sh\n"), 0o755)
	t.Chdir(other)
	presets := agentconf.Presets(strings.Join([]string{".", "", bin, filepath.Join(other, "missing")}, string(os.PathListSeparator)))
	got := map[string]string{}
	var ids []string
	for _, p := range presets {
		ids = append(ids, p.ID)
		if p.Found != (p.Path != "") {
			t.Errorf("%s: found %v with path %q", p.ID, p.Found, p.Path)
		}
		if p.Found {
			got[p.ID] = p.Path
		}
		if p.Name == "" || p.Command == "" || p.Install == "" || p.Login == "" {
			t.Errorf("preset %+v lacks a name, command, install or login line", p)
		}
	}
	if want := []string{"claude", "gemini", "codex", "opencode", "goose"}; !slices.Equal(ids, want) {
		t.Errorf("presets %v, want %v", ids, want)
	}
	if diff := cmp.Diff(map[string]string{"gemini": filepath.Join(bin, "gemini")}, got); diff != "" {
		t.Errorf("found on PATH (-want +got):\n%s", diff)
	}
	byID := map[string]agentconf.Preset{}
	for _, p := range presets {
		byID[p.ID] = p
	}
	if c := byID["claude"]; c.Command != "npx" || !slices.Contains(c.Args, "@agentclientprotocol/claude-agent-acp") {
		t.Errorf("Claude Code preset runs %s %v, want the ACP adapter through npx", c.Command, c.Args)
	}
	if g := byID["gemini"]; !slices.Equal(g.Args, []string{"--acp"}) {
		t.Errorf("Gemini CLI preset args %v", g.Args)
	}
}

// TestResolveCommand: commands become absolute paths; a relative one or one
// not found is refused with a message naming it.
func TestResolveCommand(t *testing.T) {
	bin := t.TempDir()
	agent := filepath.Join(bin, "my-agent")
	os.WriteFile(agent, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	tests := []struct {
		name, command string
		env           map[string]string
		want          string
		is            error
	}{
		{"bare name on PATH", "my-agent", nil, agent, nil},
		{"absolute", agent, nil, agent, nil},
		{"absolute, uncleaned", bin + "/./my-agent", nil, agent, nil},
		{"the agent's own PATH", "my-agent", map[string]string{"PATH": t.TempDir()}, "", acp.ErrCommandNotFound},
		{"not on PATH", "other-agent", nil, "", acp.ErrCommandNotFound},
		{"relative", "./my-agent", nil, "", acp.ErrRelativeCommand},
		{"empty", "  ", nil, "", acp.ErrCommandNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agentconf.ResolveCommand(tt.command, tt.env)
			if got != tt.want || !errors.Is(err, tt.is) || (tt.is == nil) != (err == nil) {
				t.Errorf("ResolveCommand(%q) = %q, %v; want %q, %v", tt.command, got, err, tt.want, tt.is)
			}
		})
	}
	ag, err := agentconf.Prepare(agentconf.Agent{Name: "  mine ", Command: "my-agent"})
	if err != nil || ag.Name != "mine" || ag.Command != agent || ag.Args == nil {
		t.Errorf("Prepare = %+v, %v; want the name trimmed and the command %s", ag, err, agent)
	}
	if _, err := agentconf.Prepare(agentconf.Agent{Name: "", Command: "my-agent"}); acp.ErrorCode(err) != events.CodeInvalid {
		t.Errorf("Prepare without a name: %v (code %q)", err, acp.ErrorCode(err))
	}
}

// TestTurnThroughWrapper runs turns on agents started through a wrapper, as
// npx starts an adapter, that ignore SIGTERM and their end of input: a turn
// answers; Cancel ends a turn at once, while the agent answers and while it
// starts; a turn that runs out of time ends within its deadline; and an
// agent stopped for it (hung, or never started) leaves no process of its
// group behind, nor does Close.
func TestTurnThroughWrapper(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	stubborn := map[string]string{"PEER_STUBBORN": "1"}
	good, goodRec, goodPID := wrapped(t, "good", "resume", "", stubborn)
	hang, hangRec, hangPID := wrapped(t, "hang", "", "hang", stubborn)
	slow, slowRec, slowPID := wrapped(t, "slow", "", "", map[string]string{"PEER_START": "hang", "PEER_STUBBORN": "1"})
	const turnTimeout = 15 * time.Second // for a start under a loaded -race run
	cfg := &agentconf.Agents{Default: "good", List: []agentconf.Agent{agentconf.Builtin(binary), good, hang, slow}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: -1, TurnTimeout: turnTimeout})
	defer h.Close()

	// turn runs one turn, cancelled once the agent received cancelAt ("" =
	// never), and reports how it ended and how long after the cancel or
	// the start it returned.
	type ended struct {
		res  *acp.Result
		err  error
		code string
		took time.Duration
	}
	turn := func(conv, agent, rec, cancelAt string) ended {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var code string
		emit := func(_ string, payload any) {
			if e, ok := payload.(events.AgentErrorEvent); ok {
				code = e.Code
			}
		}
		done := make(chan ended, 1)
		began := time.Now()
		go func() {
			res, err := h.Turn(ctx, acp.TurnRequest{ConversationID: conv, Agent: agent, Request: sidebar, Question: "q"}, emit)
			done <- ended{res: res, err: err}
		}()
		if cancelAt != "" {
			waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), cancelAt) })
			began = time.Now()
			cancel()
		}
		select {
		case e := <-done:
			e.code, e.took = code, time.Since(began)
			return e
		case <-time.After(turnTimeout + stopBound + 10*time.Second):
			t.Fatalf("the turn on %s did not end", agent)
			return ended{}
		}
	}

	if e := turn("a", "good", "", ""); e.err != nil || !strings.Contains(e.res.Completed.Content, "peer answer") {
		t.Fatalf("turn on the wrapped agent: %+v, %v", e.res, e.err)
	}

	e := turn("b", "hang", hangRec, "session/prompt")
	if e.err != nil || e.res.Completed.StopReason != "cancelled" || e.took > 3*time.Second {
		t.Errorf("cancelled while answering: %+v, %v, %v after Cancel; want cancelled at once", e.res, e.err, e.took)
	}
	e = turn("c", "hang", hangRec, "")
	if acp.ErrorCode(e.err) != events.CodeTimeout || e.code != events.CodeTimeout || e.took > turnTimeout+stopBound {
		t.Errorf("hung answer: %v (code %q) after %v; want a timeout within %v", e.err, e.code, e.took, turnTimeout)
	}
	agentGone(t, hangPID, hangRec) // a hung agent is killed, not reused

	e = turn("d", "slow", slowRec, "initialize")
	if acp.ErrorCode(e.err) != events.CodeCancelled || e.took > 3*time.Second {
		t.Errorf("cancelled while starting: %v (code %q) %v after Cancel; want cancelled at once", e.err, acp.ErrorCode(e.err), e.took)
	}
	agentGone(t, slowPID, slowRec)
	os.Remove(slowPID)
	e = turn("e", "slow", slowRec, "")
	if e.code != events.CodeNotConfigured || !strings.Contains(e.err.Error(), `"slow" did not answer initialize in 15 s`) || e.took > turnTimeout+stopBound {
		t.Errorf("start that never answers: %v (code %q) after %v; want it to say so within %v", e.err, e.code, e.took, turnTimeout)
	}
	agentGone(t, slowPID, slowRec)

	inGroup(t, goodPID, goodRec)
	h.Close()
	agentGone(t, goodPID, goodRec)
}

// TestTurnNeedsLogin asks an agent that wants a login first: the turn ends
// with code auth-required and a message naming the agent's login methods,
// not the JSON-RPC error it sent.
func TestTurnNeedsLogin(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, _ := peer(t, "locked", "", "")
	ag.Env["PEER_START"] = "auth"
	h := newHost(t, root, db, ag)
	var sent []events.AgentErrorEvent
	_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Agent: "locked", Request: sidebar, Question: "q"},
		func(_ string, payload any) {
			if e, ok := payload.(events.AgentErrorEvent); ok {
				sent = append(sent, e)
			}
		})
	want := `"locked" needs you to log in; it offers: Log in with Peer; Peer API key (set PEER_API_KEY).`
	if !errors.Is(err, acp.ErrNeedsLogin) || !strings.Contains(err.Error(), want) || strings.ContainsAny(err.Error(), "{}") {
		t.Errorf("turn error %v, want one saying %q", err, want)
	}
	if len(sent) != 1 || sent[0].Code != events.CodeAuthRequired || sent[0].Error != err.Error() {
		t.Errorf("agent:error events %+v, want one with code %q", sent, events.CodeAuthRequired)
	}
}
