package workspace_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"log/slog"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/workspace"
)

// binary is the real agentero program: the built-in agent and the
// agentero-context MCP server run from it.
var binary string

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	dir, err := os.MkdirTemp("", "agentero-workspace-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, "../..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build agentero: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// logBuffer keeps what a workspace logged.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// recorder keeps the events a workspace emitted, in order, and lets a test
// wait for one.
type recorder struct {
	mu     sync.Mutex
	events []event
	signal chan struct{} // a value after each event
	// then, when set before the workspace emits, runs after each event is
	// recorded, in the emitter's goroutine: a handler of the UI's.
	then func(name string, payload any)
}

type event struct {
	name    string
	payload any
}

func newRecorder() *recorder { return &recorder{signal: make(chan struct{}, 1)} }

func (r *recorder) emit(name string, payload any) {
	r.mu.Lock()
	r.events = append(r.events, event{name, payload})
	r.mu.Unlock()
	select {
	case r.signal <- struct{}{}:
	default:
	}
	if r.then != nil {
		r.then(name, payload)
	}
}

// count is the number of events of that name so far.
func (r *recorder) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.name == name {
			n++
		}
	}
	return n
}

// all lists the payloads of the events of that name so far.
func (r *recorder) all(name string) []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []any
	for _, e := range r.events {
		if e.name == name {
			out = append(out, e.payload)
		}
	}
	return out
}

// last is the last event of that name, or nil.
func (r *recorder) last(name string) any {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.events) - 1; i >= 0; i-- {
		if r.events[i].name == name {
			return r.events[i].payload
		}
	}
	return nil
}

// wait waits until ok holds, re-checking after each event.
func (r *recorder) wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for !ok() {
		select {
		case <-r.signal:
		case <-timeout:
			t.Fatalf("%s: never happened", what)
		}
	}
}

// fixture is an open workspace with its events and log, and what ran
// before it opened (which nothingRuns does not blame on it).
type fixture struct {
	before map[string]bool
	ws     *workspace.Workspace
	root   string
	cfg    *workspace.Config
	rec    *recorder
	log    *logBuffer
}

// open opens a workspace on root with a config folder of the test's own;
// opts may set more options. The test closes it (Close is idempotent, so
// the cleanup is only a guard).
func open(t *testing.T, root string, opts workspace.Options, agents ...agentconf.Agent) *fixture {
	t.Helper()
	f := &fixture{root: root, cfg: workspace.NewConfig(t.TempDir(), binary), rec: newRecorder(), log: &logBuffer{},
		before: map[string]bool{}}
	for _, g := range ours() {
		f.before[goroutineID(g)] = true
	}
	for _, c := range children(t) {
		f.before[c] = true
	}
	// The tests' agents include broken ones on purpose: they are saved as
	// "Save anyway" would, without the check.
	for _, ag := range agents {
		if _, err := f.cfg.SaveAgent(background(), workspace.SaveAgentRequest{Agent: ag, MakeDefault: true, Force: true}); err != nil {
			t.Fatal(err)
		}
	}
	opts.Config = f.cfg
	opts.Emit = f.rec.emit
	opts.Logger = slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	ws, err := workspace.Open(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	f.ws = ws
	t.Cleanup(func() { ws.Close() })
	return f
}

// peer is the scripted ACP agent on the official TypeScript SDK
// (test/peeragent), with a fault to play; rec is the file it records what
// it received in.
func peer(t *testing.T, name, fault string) (ag agentconf.Agent, rec string) {
	t.Helper()
	script, _ := filepath.Abs("../../test/peeragent/agent.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		if os.Getenv("AGENTERO_REQUIRE_PEER") != "" {
			t.Fatalf("the peer agent's npm packages are missing: run npm ci in test/peeragent")
		}
		t.Skip("peer agent not installed (npm ci in test/peeragent)")
	}
	rec = filepath.Join(t.TempDir(), name+".jsonl")
	return agentconf.Agent{Name: name, Command: "node", Args: []string{script},
		Env: map[string]string{"PEER_RECORD": rec, "PEER_FAULT": fault}}, rec
}

// received waits until the peer recorded a request of that method. The
// peer is another process that only writes a file, so this polls it.
func received(t *testing.T, rec, method string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(rec)
		if bytes.Contains(data, []byte(`"method":"`+method+`"`)) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the peer never received %s", method)
}

// children lists this process's child processes (agents, PDF workers).
func children(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		return nil
	}
	me := strconv.Itoa(os.Getpid())
	procs, _ := filepath.Glob("/proc/[0-9]*/status")
	var out []string
	for _, p := range procs {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		var name, ppid string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Name:"); ok {
				name = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(sc.Text(), "PPid:"); ok {
				ppid = strings.TrimSpace(v)
			}
		}
		f.Close()
		if ppid == me {
			out = append(out, name+" "+filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}

// ours lists the goroutines running code of this repository's backend or
// the libraries it starts goroutines in (database/sql, os/exec, the ACP
// and MCP SDKs), other than the test's own.
func ours() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*T).Run") {
			continue
		}
		for _, mark := range []string{"agentero/backend/", "database/sql.", "os/exec.", "acp-go-sdk", "fsnotify"} {
			if strings.Contains(g, mark) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// goroutineID is the "goroutine N" line start of a stack.
func goroutineID(stack string) string {
	id, _, _ := strings.Cut(stack, " [")
	return id
}

// nothingRuns fails the test if a goroutine or a child process started
// since the fixture opened outlived the workspace's Close.
func (f *fixture) nothingRuns(t *testing.T) {
	t.Helper()
	fresh := func() []string {
		var out []string
		for _, g := range ours() {
			if !f.before[goroutineID(g)] {
				out = append(out, g)
			}
		}
		return out
	}
	// A goroutine that closed the channel Close waited on may still be on
	// its way out: give such ones a moment, as goroutine-leak checks do.
	g := fresh()
	for i := 0; i < 50 && len(g) > 0; i++ {
		time.Sleep(10 * time.Millisecond)
		g = fresh()
	}
	if len(g) > 0 {
		t.Errorf("%d goroutines outlived Close:\n%s", len(g), strings.Join(g, "\n\n"))
	}
	var procs []string
	for _, c := range children(t) {
		if !f.before[c] {
			procs = append(procs, c)
		}
	}
	if len(procs) > 0 {
		t.Errorf("processes outlived Close: %v", procs)
	}
}

func background() context.Context { return context.Background() }

// as reads an event's payload as T, through JSON: what the UI receives.
func as[T any](payload any) (T, bool) {
	var v T
	if payload == nil {
		return v, false
	}
	b, err := json.Marshal(payload)
	return v, err == nil && json.Unmarshal(b, &v) == nil
}
