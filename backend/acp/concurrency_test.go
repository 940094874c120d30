package acp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/google/go-cmp/cmp"
)

// goroutines returns the stacks of the running goroutines by id.
func goroutines() map[int]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[int]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		var id int
		if _, err := fmt.Sscanf(g, "goroutine %d ", &id); err == nil {
			out[id] = g
		}
	}
	return out
}

// noneLeft fails the test if goroutines that were not running in before
// are still running: whatever the host and its agents' connections started
// must be gone once Close has returned. A goroutine past its last signal
// (a WaitGroup's Done, a closed channel) still needs a moment to return,
// and the SDK's connection goroutines end right after the agent's output
// closes; there is nothing to wait on for either, so the runtime is polled
// for a short while.
func noneLeft(t *testing.T, before map[int]string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var left []string
		for id, g := range goroutines() {
			if _, ok := before[id]; !ok {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left after Close:\n\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pids returns the process ids a peer recorded for method.
func pids(t *testing.T, rec, method string) []int {
	t.Helper()
	var out []int
	for _, r := range records(t, rec) {
		if r.Method == method && !slices.Contains(out, r.PID) {
			out = append(out, r.PID)
		}
	}
	return out
}

// alive reports whether a process of that id still runs (and is not a
// zombie: Agentero reaps its agents).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !regexp.MustCompile(`^\d+ \(.*\) Z`).Match(stat)
}

// TestFirstTurnRacesRefill warms the pool and at once asks prompt-only and
// mcp turns in several conversations: they all share one agent process,
// and after Close that process is gone, with every goroutine the host
// started.
func TestFirstTurnRacesRefill(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	for round := range 3 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			ag, rec := peer(t, "peer", "resume,close", "")
			ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
			before := goroutines()
			cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
			h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: 2, TurnTimeout: 20 * time.Second})
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			h.Warm("peer")
			for i, req := range []plan.Request{nothing, sidebar, nothing, sidebar} {
				wg.Go(func() {
					_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: fmt.Sprintf("race-%d", i), Agent: "peer", Request: req,
						Question: "q"}, nil)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("turn: %v", err)
				}
			}
			h.Close()
			started := pids(t, rec, "initialize")
			if len(started) != 1 {
				t.Errorf("%d agent processes started (pids %v), want 1 shared by the turns and the pool", len(started), started)
			}
			for _, pid := range started {
				if alive(pid) {
					t.Errorf("agent process %d still runs after Close", pid)
				}
			}
			noneLeft(t, before)
		})
	}
}

// TestStreamOrderUnderBurst has the peer send rounds of text, a tool call,
// text and the call's update as fast as it can: the UI gets them in that
// order (text coalesced between the tool events, never moved across one).
func TestStreamOrderUnderBurst(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, _ := peer(t, "peer", "", "")
	ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
	const rounds = 300
	ag.Env["PEER_BURST"] = strconv.Itoa(rounds)
	h := newHost(t, root, db, ag)
	var mu sync.Mutex
	var got []string
	emit := func(name string, payload any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := payload.(type) {
		case events.AgentChunkEvent:
			if n := len(got); n > 0 && strings.HasPrefix(got[n-1], "text:") {
				got[n-1] += e.Text
			} else {
				got = append(got, "text:"+e.Text)
			}
		case events.AgentToolEvent:
			got = append(got, "tool:"+e.ToolCallID+":"+e.Status)
		}
	}
	res, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "burst", Agent: "peer", Request: sidebar, Question: "go"}, emit)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 1; i <= rounds; i++ {
		want = append(want, fmt.Sprintf("text:text %d ", i), fmt.Sprintf("tool:t%d:pending", i), fmt.Sprintf("text:mid %d ", i),
			fmt.Sprintf("tool:t%d:completed", i))
	}
	want = append(want, "text:peer answer 1")
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events reached the UI out of the agent's order (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(res.Completed.Content, fmt.Sprintf("mid %d peer answer 1", rounds)) {
		t.Errorf("answer ends %q", res.Completed.Content[max(0, len(res.Completed.Content)-40):])
	}
}

// TestCancelledTurnReturns cancels a turn whose agent never answers: the
// turn returns at once as cancelled, the agent is told (session/cancel),
// and once the host is closed nothing it started is left.
func TestCancelledTurnReturns(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "resume", "hang")
	ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
	before := goroutines()
	cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: -1, TurnTimeout: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	type outcome struct {
		res *acp.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := h.Turn(ctx, acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: sidebar, Question: "never answered"}, nil)
		done <- outcome{res, err}
	}()
	waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), "session/prompt") })
	cancel()
	select {
	case o := <-done:
		if o.err != nil || o.res.Completed.StopReason != "cancelled" {
			t.Errorf("cancelled turn: %+v, %v; want stop reason cancelled", o.res, o.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled turn did not return")
	}
	waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), "session/cancel") })
	// Reopened, the turn reads as cancelled, not as done.
	conv, err := h.Store().Load("c")
	if err != nil || len(conv.Messages) != 2 || conv.Messages[1].StopReason != "cancelled" {
		t.Errorf("stored cancelled turn: %+v, %v; want its answer with stop reason cancelled", conv, err)
	}
	h.Close()
	noneLeft(t, before)
}

// TestCloseStopsATurnsAgent closes the host while a turn waits for a hung
// agent: Close returns once the agent is gone, and the turn ends with
// ErrAgentExited (code crashed) instead of waiting out its time.
func TestCloseStopsATurnsAgent(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "", "hang")
	ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
	before := goroutines()
	cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: 1, TurnTimeout: time.Hour})
	var code string
	emit := func(name string, payload any) {
		if e, ok := payload.(events.AgentErrorEvent); ok {
			code = e.Code
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "c", Agent: "peer", Request: nothing, Question: "q"}, emit)
		done <- err
	}()
	waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), "session/prompt") })
	h.Close()
	select {
	case err := <-done:
		if !errors.Is(err, acp.ErrAgentExited) || code != events.CodeCrashed {
			t.Errorf("turn error %v, code %q; want ErrAgentExited, %q", err, code, events.CodeCrashed)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the turn outlived Close")
	}
	for _, pid := range pids(t, rec, "initialize") {
		if alive(pid) {
			t.Errorf("agent process %d still runs after Close", pid)
		}
	}
	if _, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "d", Agent: "peer", Request: nothing, Question: "q"}, nil); !errors.Is(err, acp.ErrClosed) {
		t.Errorf("turn after Close: %v, want ErrClosed", err)
	}
	noneLeft(t, before)
}

// TestCloseDuringWarmStart closes a host while its pool is starting the
// agent: Close does not wait for the start to finish on its own, and
// leaves no process or goroutine behind.
func TestCloseDuringWarmStart(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	for _, stage := range []string{"spawn", "initialize", "session/new"} {
		t.Run(strings.ReplaceAll(stage, "/", "-"), func(t *testing.T) {
			ag, rec := peer(t, "peer", "close", "")
			ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
			before := goroutines()
			cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
			h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: 1})
			h.Warm("peer")
			if stage != "spawn" {
				waitFor(t, func() bool { return slices.Contains(methods(records(t, rec)), stage) })
			}
			h.Close()
			for _, pid := range pids(t, rec, "initialize") {
				if alive(pid) {
					t.Errorf("agent process %d still runs after Close", pid)
				}
			}
			noneLeft(t, before)
		})
	}
}

// TestCompactionOnlyHost is the command line's use: a host made only to
// compute a compaction. Made and closed, it starts nothing; a compaction
// that needs no summary starts no agent; one that needs a summary starts
// the agent once, in a session it closes, and Close leaves nothing behind.
func TestCompactionOnlyHost(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "resume,close", "")
	ag.Sandbox = "off" // followed by pid, which a sandbox renumbers
	h := newHost(t, root, db, ag)
	for i := range 6 {
		ask(t, h, "long", "peer", sidebar, fmt.Sprintf("question %d about timestamps and proof-of-work", i))
	}
	h.Close()
	firstPIDs := pids(t, rec, "initialize")

	before := goroutines()
	cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	c := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: -1})
	// goroutines of the first host that are still ending may go away
	// meanwhile: what counts is one that was not there before
	var fresh []string
	for id, g := range goroutines() {
		if _, ok := before[id]; !ok {
			fresh = append(fresh, g)
		}
	}
	if len(fresh) != 0 {
		t.Errorf("NewHost started %d goroutines:\n\n%s", len(fresh), strings.Join(fresh, "\n\n"))
	}
	res, err := c.Compaction(context.Background(), "long", "", 0, false)
	if err != nil || len(res.Tiers) != 0 {
		t.Fatalf("compaction at the agent's window: %+v, %v; want nothing to do", res, err)
	}
	if got := pids(t, rec, "initialize"); !cmp.Equal(got, firstPIDs) {
		t.Errorf("a compaction without a summary started the agent (pids %v, before %v)", got, firstPIDs)
	}
	res, err = c.Compaction(context.Background(), "long", "", 100, false)
	if err != nil {
		t.Fatal(err)
	}
	started := pids(t, rec, "initialize")[len(firstPIDs):]
	if len(started) != 1 {
		t.Fatalf("the summary started %d agent processes, want 1 (tiers %v, notes %v)", len(started), res.Tiers, res.Notes)
	}
	var asked, closed bool
	for _, r := range records(t, rec) {
		if r.PID != started[0] {
			continue
		}
		asked = asked || r.Method == "session/prompt" && strings.Contains(string(r.Params), "agentero-summarize")
		closed = closed || r.Method == "session/close"
	}
	if !asked || !closed {
		t.Errorf("summary session: asked %v, closed %v; want both", asked, closed)
	}
	c.Close()
	if alive(started[0]) {
		t.Errorf("the summarizing agent %d still runs after Close", started[0])
	}
	noneLeft(t, before)
}
