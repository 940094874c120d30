package workspace_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/proctest"
)

// wrappedPeer is the peer agent started through a shell wrapper that stays
// its parent, as npx stays the parent of the adapter it runs; env is added
// to the peer's. The pid file names the agent's process group.
func wrappedPeer(t *testing.T, name string, env map[string]string) (ag agentconf.Agent, rec, pidFile string) {
	t.Helper()
	ag, rec = peer(t, name, "")
	node, err := exec.LookPath("node")
	if err != nil {
		corpustest.Unavailable(t, "node is not installed (scripts/deps.sh installs it): %v", err)
	}
	script, pidFile := proctest.Wrapper(t, t.TempDir(), node, ag.Args)
	ag.Command, ag.Args = script, nil
	ag.Sandbox = "off" // its processes are followed by pid, which a sandbox renumbers
	maps.Copy(ag.Env, env)
	return ag, rec, pidFile
}

// initializes counts the initialize requests a peer received: one per start.
func initializes(rec string) int {
	data, _ := os.ReadFile(rec)
	return strings.Count(string(data), `"method":"initialize"`)
}

// TestTestAgentCancel: Test connection runs under the form's id, which
// cancels it; a second test under the same id replaces the first; Close
// cancels what runs and waits for it. Each time the agent's process group
// is gone when the call returns.
func TestTestAgentCancel(t *testing.T) {
	cfg := workspace.NewConfig(t.TempDir(), binary)
	hangs := map[string]string{"PEER_START": "hang", "PEER_STUBBORN": "1"}
	run := func(id string, ag agentconf.Agent) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := cfg.TestAgent(background(), id, ag, nil)
			done <- err
		}()
		return done
	}
	ended := func(what string, done chan error) error {
		t.Helper()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not return", what)
			return nil
		}
	}

	slow, rec, pidFile := wrappedPeer(t, "slow", hangs)
	done := run("form-1", slow)
	received(t, rec, "initialize")
	cfg.CancelTestAgent("form-2") // another form's id: nothing happens
	cfg.CancelTestAgent("form-1")
	if err := ended("the cancelled test", done); workspace.Code(err) != events.CodeCancelled {
		t.Errorf("cancelled test: %v (code %q), want cancelled", err, workspace.Code(err))
	}
	proctest.GroupGone(t, proctest.PID(t, pidFile), time.Second)

	slow, rec, pidFile = wrappedPeer(t, "slow", hangs)
	done = run("form-1", slow)
	received(t, rec, "initialize")
	good, _, _ := wrappedPeer(t, "good", nil)
	if rep, err := cfg.TestAgent(background(), "form-1", good, nil); err != nil || rep.Name != "peeragent" {
		t.Errorf("second test under the same id: %+v, %v", rep, err)
	}
	if err := ended("the replaced test", done); workspace.Code(err) != events.CodeCancelled {
		t.Errorf("replaced test: %v, want cancelled", err)
	}
	proctest.GroupGone(t, proctest.PID(t, pidFile), time.Second)

	slow, rec, pidFile = wrappedPeer(t, "slow", hangs)
	done = run("form-1", slow)
	received(t, rec, "initialize")
	cfg.Close()
	proctest.GroupGone(t, proctest.PID(t, pidFile), time.Second)
	if err := ended("the test running at Close", done); workspace.Code(err) != events.CodeCancelled {
		t.Errorf("test running at Close: %v, want cancelled", err)
	}
	if _, err := cfg.TestAgent(background(), "form-1", good, nil); err == nil {
		t.Error("a test after Close ran")
	}
}

// TestSaveAgent: Save stores the command as an absolute path, refuses one
// that is relative or not found, and saves an agent that fails its check
// only when forced ("Save anyway"), after telling why it failed. A test
// that passed, or an agent saved before as it is, is not checked again.
func TestSaveAgent(t *testing.T) {
	cfg := workspace.NewConfig(t.TempDir(), binary)
	save := func(ag agentconf.Agent, force bool) error {
		_, err := cfg.SaveAgent(background(), workspace.SaveAgentRequest{Agent: ag, Force: force, CheckID: "form"})
		return err
	}
	saved := func(name string) *agentconf.Agent {
		a, err := cfg.Agents()
		if err != nil {
			t.Fatal(err)
		}
		return a.Find(name)
	}

	refused := []struct {
		name    string
		command string
		code    string
		says    string
	}{
		{"relative", "bin/agent", events.CodeInvalid, `the command "bin/agent" is a relative path`},
		{"not found", "agentero-no-such-agent", events.CodeNotConfigured, `the command "agentero-no-such-agent" was not found: it must be on PATH`},
	}
	for _, tt := range refused {
		for _, force := range []bool{false, true} {
			err := save(agentconf.Agent{Name: tt.name, Command: tt.command}, force)
			if workspace.Code(err) != tt.code || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("save %s (force %v): %v (code %q); want %q saying %q", tt.name, force, err, workspace.Code(err), tt.code, tt.says)
			}
			if saved(tt.name) != nil {
				t.Errorf("%s was saved", tt.name)
			}
		}
	}

	locked, _, _ := wrappedPeer(t, "locked", map[string]string{"PEER_START": "auth"})
	err := save(locked, false)
	if workspace.Code(err) != events.CodeUnverified || !strings.Contains(err.Error(), `"locked" needs you to log in`) ||
		!strings.Contains(err.Error(), "PEER_API_KEY") {
		t.Errorf("save an agent that needs a login: %v (code %q); want unverified, naming its login methods", err, workspace.Code(err))
	}
	if saved("locked") != nil {
		t.Error("an agent that failed its check was saved without force")
	}
	if err := save(locked, true); err != nil || saved("locked") == nil {
		t.Errorf("Save anyway: %v", err)
	}

	// A bare command is stored as the absolute path PATH gives it.
	node, _ := exec.LookPath("node")
	plain, rec := peer(t, "plain", "")
	if err := save(plain, false); err != nil {
		t.Fatalf("save a working agent: %v", err)
	}
	if got := saved("plain"); got == nil || got.Command != node || !filepath.IsAbs(got.Command) {
		t.Errorf("saved %+v, want the command %s", got, node)
	}
	if n := initializes(rec); n != 1 {
		t.Errorf("Save started the agent %d times, want once (its check)", n)
	}
	if _, err := cfg.SaveAgent(background(), workspace.SaveAgentRequest{Agent: plain, MakeDefault: true}); err != nil || initializes(rec) != 1 {
		t.Errorf("saving it again unchanged: %v, %d starts; want no second check", err, initializes(rec))
	}

	// Test connection, then Save: the test vouches for the agent.
	tested, rec := peer(t, "tested", "")
	if _, err := cfg.TestAgent(background(), "form", tested, nil); err != nil {
		t.Fatal(err)
	}
	if err := save(tested, false); err != nil || initializes(rec) != 1 {
		t.Errorf("save after a passed test: %v, %d starts; want no second check", err, initializes(rec))
	}
}

// TestPresetOnPATH: a preset whose command is on the user's PATH is found
// there, and saving it stores that absolute path.
func TestPresetOnPATH(t *testing.T) {
	bin := t.TempDir()
	ag, rec := peer(t, "peer", "")
	node, _ := exec.LookPath("node")
	script, _ := proctest.Wrapper(t, bin, node, ag.Args)
	if err := os.Rename(script, filepath.Join(bin, "gemini")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg := workspace.NewConfig(t.TempDir(), binary)
	var gemini *agentconf.Preset
	for _, p := range cfg.AgentPresets() {
		if p.ID == "gemini" {
			gemini = &p
		}
	}
	if gemini == nil || !gemini.Found || gemini.Path != filepath.Join(bin, "gemini") {
		t.Fatalf("gemini preset = %+v, want it found in %s", gemini, bin)
	}
	preset := agentconf.Agent{Name: gemini.Name, Command: gemini.Command, Args: gemini.Args, Env: ag.Env}
	if _, err := cfg.SaveAgent(context.Background(), workspace.SaveAgentRequest{Agent: preset}); err != nil {
		t.Fatalf("save the preset: %v", err)
	}
	received(t, rec, "session/new")
	a, _ := cfg.Agents()
	if got := a.Find(gemini.Name); got == nil || got.Command != gemini.Path {
		t.Errorf("saved %+v, want the command %s", got, gemini.Path)
	}
}

// An agent written into agents.json by hand while the vault is open
// answers the next turn, with no restart; a file broken by hand stops the
// turns with its error until it is fixed; an agent added for the session
// only (the command line's --agent-cmd) survives the reloads.
func TestAgentsFileChangedWhileOpen(t *testing.T) {
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1})
	session, _ := peer(t, "session-only", "")
	f.ws.AddAgent(session)
	ended := func(conv string) (events.AgentCompletedEvent, events.AgentErrorEvent, bool) {
		for _, e := range f.rec.all(events.AgentCompleted) {
			if c, _ := as[events.AgentCompletedEvent](e); c.ConversationID == conv {
				return c, events.AgentErrorEvent{}, true
			}
		}
		for _, e := range f.rec.all(events.AgentError) {
			if c, _ := as[events.AgentErrorEvent](e); c.ConversationID == conv {
				return events.AgentCompletedEvent{}, c, true
			}
		}
		return events.AgentCompletedEvent{}, events.AgentErrorEvent{}, false
	}
	ask := func(conv, agent string) (events.AgentCompletedEvent, events.AgentErrorEvent) {
		t.Helper()
		q := workspace.AskRequest{ConversationID: conv, Agent: agent, Request: workspace.QuickChat(), Question: "Are you there?"}
		if err := f.ws.Ask(q); err != nil {
			t.Fatalf("Ask %s: %v", conv, err)
		}
		f.rec.wait(t, conv+" ended", func() bool { _, _, ok := ended(conv); return ok })
		c, e, _ := ended(conv)
		return c, e
	}

	if _, e := ask("c1", "late"); e.Code != events.CodeNotConfigured {
		t.Fatalf("before agents.json names it: %+v, want not-configured", e)
	}
	late, rec := peer(t, "late", "")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	late.Command = node
	data, _ := json.Marshal(agentconf.Agents{Default: "builtin", List: []agentconf.Agent{late}})
	path := filepath.Join(f.cfg.Dir(), "agents.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if c, e := ask("c2", "late"); e.Code != "" || c.StopReason != "end_turn" {
		t.Fatalf("after agents.json named it: completed %+v, error %+v; want an answer", c, e)
	}
	received(t, rec, "session/prompt")
	if c, e := ask("c3", "session-only"); e.Code != "" || c.StopReason != "end_turn" {
		t.Errorf("the session's own agent after a reload: completed %+v, error %+v", c, e)
	}

	if err := os.WriteFile(path, []byte(`{"agents": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	q := workspace.AskRequest{ConversationID: "c4", Agent: "late", Request: workspace.QuickChat(), Question: "Still there?"}
	if err := f.ws.Ask(q); workspace.Code(err) != events.CodeNotConfigured || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("Ask with a broken agents.json = %v (code %q), want not-configured naming the file", err, workspace.Code(err))
	}
}

// TestAddAgentBesideSave: agents added by Settings' form while other
// agents are saved are all kept; each write of agents.json takes the same
// lock, so none writes over another's.
func TestAddAgentBesideSave(t *testing.T) {
	cfg := workspace.NewConfig(t.TempDir(), binary)
	const n = 8
	errs := make(chan error, 2*n)
	for i := range n {
		go func() {
			errs <- cfg.AddAgent(background(), "", agentconf.Agent{Name: fmt.Sprintf("added %d", i), Command: binary}, false, true)
		}()
		go func() {
			_, err := cfg.SaveAgent(background(), workspace.SaveAgentRequest{Agent: agentconf.Agent{Name: fmt.Sprintf("saved %d", i), Command: binary}, Force: true})
			errs <- err
		}()
	}
	for range 2 * n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	a, err := cfg.Agents()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for _, name := range []string{fmt.Sprintf("added %d", i), fmt.Sprintf("saved %d", i)} {
			if a.Find(name) == nil {
				t.Errorf("%s is not in agents.json", name)
			}
		}
	}
	if err := cfg.AddAgent(background(), "", agentconf.Agent{Name: "Added 1", Command: binary}, false, true); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("a name taken: %v (code %q), want code %q", err, workspace.Code(err), events.CodeInvalid)
	}
}
