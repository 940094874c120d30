package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/usererr"
)

// ErrUnverified marks an agent that failed the check Save runs; it keeps
// the check's own error, whose message says what is wrong. Saving it needs
// SaveAgentRequest.Force (the UI's "Save anyway").
var ErrUnverified = errors.New("the agent failed its check")

func unverified(err error) error { return usererr.Mark(ErrUnverified, err) }

// passFor is how long a passed test vouches for an agent's launch settings
// at Save.
const passFor = 10 * time.Minute

// TestAgent is Test connection (acp.Check) on the agent as the form has it:
// start, initialize, session/new, stop, within the default deadlines. It
// runs under id: CancelTestAgent(id) stops it, and a second test under the
// same id cancels the first. A test that passes is remembered for a while,
// so that saving the same agent right after runs no second check. After
// Close it fails with acp.ErrClosed.
func (c *Config) TestAgent(ctx context.Context, id string, ag agentconf.Agent, log *slog.Logger) (*acp.Report, error) {
	ctx, done, err := c.checks.start(ctx, id)
	if err != nil {
		return nil, err
	}
	defer done()
	rep, err := acp.Check(ctx, ag, acp.StartOptions{Logger: log})
	if err != nil {
		return nil, err
	}
	ag.Command = rep.Command
	c.checks.pass(ag, time.Now())
	return rep, nil
}

// CancelTestAgent cancels the test (or Save's check) running under id, if
// any; it returns at once, and the test's call fails as cancelled once its
// agent has stopped.
func (c *Config) CancelTestAgent(id string) { c.checks.cancel(id) }

// Close cancels the checks in progress and waits until each has stopped its
// agent; later ones fail. The app calls it when it quits: an agent runs in a
// process group of its own, which would outlive the app.
func (c *Config) Close() { c.checks.close() }

// verify is the check Save runs on a prepared agent: none when its launch
// settings passed a test lately or are those it is saved with already (the
// user was warned then, if it failed), else Test connection under id. A
// failure other than a cancellation is ErrUnverified.
func (c *Config) verify(ctx context.Context, id string, ag agentconf.Agent) error {
	if c.checks.passedLately(ag, time.Now()) {
		return nil
	}
	if a, err := c.Agents(); err == nil {
		if old := a.Find(ag.Name); old != nil && agentconf.SameLaunch(*old, ag) {
			return nil
		}
	}
	_, err := c.TestAgent(ctx, id, ag, nil)
	if err == nil || Code(err) == events.CodeCancelled {
		return err
	}
	return unverified(err)
}

// checks are the agent checks in progress — Test connection, and the check
// Save runs — by the id the UI gave each, so that one can be cancelled; and
// the launch settings that passed one lately. The checks run as tasks (the
// same owner as everything a workspace runs): close cancels them and waits
// until each has stopped its agent, and none starts after it.
type checks struct {
	tasks *tasks

	// mu guards the fields below; it is held only to read or update them.
	mu      sync.Mutex
	running map[string]*runningCheck
	passed  map[string]time.Time // launchKey → when it passed
}

type runningCheck struct{ cancel context.CancelFunc }

func newChecks() *checks {
	return &checks{tasks: newTasks(), running: map[string]*runningCheck{}, passed: map[string]time.Time{}}
}

// start registers a check under id, cancelling one already there, and
// returns its context and the func that ends it. After close it fails with
// acp.ErrClosed.
func (cs *checks) start(ctx context.Context, id string) (context.Context, func(), error) {
	ctx, release, err := cs.tasks.enter(ctx)
	if err != nil {
		return nil, nil, acp.ErrClosed
	}
	ctx, cancel := context.WithCancel(ctx)
	rc := &runningCheck{cancel: cancel}
	cs.mu.Lock()
	if old := cs.running[id]; old != nil {
		old.cancel()
	}
	cs.running[id] = rc
	cs.mu.Unlock()
	return ctx, func() {
		cancel()
		cs.mu.Lock()
		if cs.running[id] == rc {
			delete(cs.running, id)
		}
		cs.mu.Unlock()
		release()
	}, nil
}

func (cs *checks) cancel(id string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if rc := cs.running[id]; rc != nil {
		rc.cancel()
	}
}

// close cancels the running checks, waits for them and refuses new ones.
func (cs *checks) close() { cs.tasks.close() }

// pass records that ag's launch settings passed a check at now, and forgets
// passes older than passFor.
func (cs *checks) pass(ag agentconf.Agent, now time.Time) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for k, at := range cs.passed {
		if now.Sub(at) > passFor {
			delete(cs.passed, k)
		}
	}
	cs.passed[launchKey(ag)] = now
}

func (cs *checks) passedLately(ag agentconf.Agent, now time.Time) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	at, ok := cs.passed[launchKey(ag)]
	return ok && now.Sub(at) <= passFor
}

// launchKey identifies how an agent is started: command, args and env.
func launchKey(ag agentconf.Agent) string {
	if len(ag.Args) == 0 {
		ag.Args = nil
	}
	if len(ag.Env) == 0 {
		ag.Env = nil
	}
	b, _ := json.Marshal([]any{ag.Command, ag.Args, ag.Env})
	return string(b)
}
