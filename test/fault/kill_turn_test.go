//go:build linux

package fault_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/proctest"
)

// SIGKILL of `agentero ask` while a peer agent that keeps its sessions (it
// offers session/resume, as Claude Code's adapter does) is half-way
// through an answer: the transcript keeps the question, every line of it
// and state.json still parse, the agent goes with the app, and the next
// turn opens a new session instead of resuming the one the crash cut off.
func TestKillDuringTurn(t *testing.T) {
	agentCmd, rec := peerCommand(t)
	h := newHome(t)
	root := corpustest.Vault(t, "bitcoin.pdf")
	req := sidebarRequest(t, "papers/bitcoin")
	// The agent's processes are followed by pid, which a sandbox renumbers.
	peerEnv := []string{"PEER_RECORD=" + rec, "PEER_CAPS=resume,load", "AGENTERO_SANDBOX=off"}
	ask := func(question string, env ...string) *exec.Cmd {
		cmd := h.command("ask", root, "--agent-cmd", agentCmd, "--conversation", "crash", "--request", req, "--json", question)
		cmd.Env = append(cmd.Env, append(peerEnv, env...)...)
		return cmd
	}

	first := finishTurn(t, ask("What is proof-of-work?"))
	if first.Session.Action != acp.ActionNew {
		t.Fatalf("first turn: session %+v, want a new one", first.Session)
	}

	// The agent says a few words and then nothing: the app is killed there.
	cmd := ask("Who pays the miners?", "PEER_FAULT=hang-mid-answer")
	stderr := startWatched(t, cmd)
	stderr.waitFor(t, "partial answer, then silence")
	syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	agentGone(t, rec)

	chat := filepath.Join(root, ".agentero", "chats", "crash")
	entries := transcript(t, chat)
	if !asked(entries, "Who pays the miners?") {
		t.Errorf("the transcript lost the question of the killed turn: %+v", entries)
	}
	conv := state(t, chat)
	if len(conv.Messages) < 2 || conv.Messages[0].Content != "What is proof-of-work?" {
		t.Errorf("state.json lost the first turn: %+v", conv.Messages)
	}

	seen := len(peerRecords(t, rec))
	third := finishTurn(t, ask("And the fees?"))
	if third.Session.Action != acp.ActionNew {
		t.Errorf("the turn after the kill: session %+v, want a new one, not the session the crash cut off", third.Session)
	}
	for _, r := range peerRecords(t, rec)[seen:] {
		if r.Method == "session/resume" || r.Method == "session/load" {
			t.Errorf("the agent was asked to %s a session after the crash", r.Method)
		}
	}
	entries = transcript(t, chat)
	for _, q := range []string{"What is proof-of-work?", "Who pays the miners?", "And the fees?"} {
		if !asked(entries, q) {
			t.Errorf("the transcript lost %q", q)
		}
	}
}

// SIGKILL of `agentero ask` with the built-in agent (which keeps its
// sessions on disk and resumes them) at random moments of a turn, four
// times: each time the transcript and state.json parse, and when the kill
// cut a turn short (its question is in the transcript, its answer or
// error is not), the next turn opens a new session.
func TestKillDuringBuiltinTurn(t *testing.T) {
	h := newHome(t)
	root := corpustest.Vault(t, "bitcoin.pdf")
	req := sidebarRequest(t, "papers/bitcoin")
	rng := rand.New(rand.NewPCG(seed(t), 2))
	ask := func(question string) *exec.Cmd {
		return h.command("ask", root, "--conversation", "crash", "--request", req, "--json", question)
	}
	chat := filepath.Join(root, ".agentero", "chats", "crash")

	// How long a turn takes here, once the first has warmed the caches:
	// the kills fall anywhere in it.
	finishTurn(t, ask("What is proof-of-work?"))
	began := time.Now()
	finishTurn(t, ask("Who pays the miners?"))
	turn := time.Since(began)
	t.Logf("a turn takes %v", turn.Round(time.Millisecond))

	for i := range 4 {
		cmd := ask("How are double spends prevented?")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		at := time.Duration(rng.Int64N(int64(turn)))
		select {
		case <-exited:
		case <-time.After(at):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		// The built-in agent and its MCP server see their input end and go.
		noneRunning(t, 10*time.Second)
		entries := transcript(t, chat)
		state(t, chat)
		cut := interrupted(entries)
		t.Logf("kill %d after %v: turn cut short: %v", i, at.Round(time.Millisecond), cut)

		next := finishTurn(t, ask("What is the longest chain?"))
		if cut && next.Session.Action != acp.ActionNew {
			t.Errorf("kill %d: the turn after a turn cut short: session %+v, want a new one", i, next.Session)
		}
	}
}

// askResult is what `ask --json` prints that the suites look at.
type askResult struct {
	Content string          `json:"content"`
	Session acp.SessionInfo `json:"session"`
}

// finishTurn runs an ask command to its end and returns its result.
func finishTurn(t *testing.T, cmd *exec.Cmd) askResult {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("ask: %v\n%s", err, e.String())
	}
	var r askResult
	if err := json.Unmarshal(o.Bytes(), &r); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, o.String())
	}
	return r
}

// peerCommand is the --agent-cmd of the scripted peer agent, and the file
// it records what it received in.
func peerCommand(t *testing.T) (cmd, rec string) {
	t.Helper()
	script, _ := filepath.Abs("../peeragent/agent.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		if os.Getenv("AGENTERO_REQUIRE_PEER") != "" {
			t.Fatalf("the peer agent's npm packages are missing: run npm ci in test/peeragent")
		}
		corpustest.Unavailable(t, "peer agent not installed (npm ci in test/peeragent)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		corpustest.Unavailable(t, "node is not installed: %v", err)
	}
	return node + " " + script, filepath.Join(t.TempDir(), "peer.jsonl")
}

// sidebarRequest writes a sidebar ContextRequest on paper and returns its
// file: a turn with a grant, as most turns in the app are.
func sidebarRequest(t *testing.T, paper string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "request.json")
	body := `{"surface":"sidebar","currentPaper":"` + paper + `","selections":[],"mentions":[]}`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// watched is the stderr of a running command, kept as it arrives.
type watched struct {
	mu   sync.Mutex
	text strings.Builder
	more chan struct{}
	done chan struct{}
}

// startWatched starts cmd with its stderr kept in the returned watched.
func startWatched(t *testing.T, cmd *exec.Cmd) *watched {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watched{more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		r := bufio.NewReader(pipe)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			w.mu.Lock()
			w.text.Write(buf[:n])
			w.mu.Unlock()
			select {
			case w.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return w
}

// waitFor waits until the output holds s.
func (w *watched) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		w.mu.Lock()
		got := w.text.String()
		w.mu.Unlock()
		if strings.Contains(got, s) {
			return
		}
		select {
		case <-w.more:
		case <-w.done:
			w.mu.Lock()
			got = w.text.String()
			w.mu.Unlock()
			if !strings.Contains(got, s) {
				t.Fatalf("the command ended before printing %q:\n%s", s, got)
			}
			return
		case <-timeout:
			t.Fatalf("no %q within a minute:\n%s", s, got)
		}
	}
}

// peerRecord is one line of what the peer agent received.
type peerRecord struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	PID    int             `json:"pid"`
}

func peerRecords(t *testing.T, path string) []peerRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []peerRecord
	for line := range strings.Lines(string(data)) {
		var r peerRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("peer record %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// agentGone checks that the agent process of the last prompt ended, with
// everything it started (it leads a process group of its own).
func agentGone(t *testing.T, rec string) {
	t.Helper()
	pid := 0
	for _, r := range peerRecords(t, rec) {
		if r.Method == "session/prompt" {
			pid = r.PID
		}
	}
	if pid == 0 {
		t.Fatal("the agent never received a prompt")
	}
	proctest.GroupGone(t, pid, 10*time.Second)
}

// entry is one line of transcript.jsonl, as far as the suites read it.
type entry struct {
	Turn string `json:"turn"`
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// transcript reads a conversation's transcript.jsonl, failing the test on
// any line that is not whole JSON.
func transcript(t *testing.T, chat string) []entry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(chat, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []entry
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		var e entry
		if !strings.HasSuffix(line, "\n") || json.Unmarshal([]byte(line), &e) != nil {
			if len(line) > 300 {
				line = line[:150] + " … " + line[len(line)-150:]
			}
			t.Errorf("transcript line %d is not a whole JSON line: %q", n, line)
			continue
		}
		out = append(out, e)
	}
	return out
}

// state reads a conversation's state.json, failing the test when it does
// not parse.
func state(t *testing.T, chat string) conversation.Conversation {
	t.Helper()
	var c conversation.Conversation
	data, err := os.ReadFile(filepath.Join(chat, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("state.json does not parse: %v\n%s", err, data)
	}
	return c
}

func asked(entries []entry, question string) bool {
	for _, e := range entries {
		if e.Kind == "user" && e.Text == question {
			return true
		}
	}
	return false
}

// interrupted reports whether the transcript's last turn has its question
// but neither an answer nor an error: a turn the kill cut short.
func interrupted(entries []entry) bool {
	last := ""
	for _, e := range entries {
		if e.Kind == "user" {
			last = e.Turn
		}
	}
	if last == "" {
		return false
	}
	for _, e := range entries {
		if e.Turn == last && (e.Kind == "assistant" || e.Kind == "error") {
			return false
		}
	}
	return true
}
