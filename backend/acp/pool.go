package acp

import (
	"context"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentero/agentero/backend/agentconf"
)

// How long the pool may take to make one warm session, and to close one.
const (
	warmTimeout  = 30 * time.Second
	closeTimeout = 2 * time.Second
)

// pool keeps sessions created ahead of time (initialize + session/new with
// no MCP server) so that turns without grants start at once. A turn with an
// MCP never takes from it: an MCP server cannot be added to a session after
// it was created. Slots whose agent died are dropped; idle ones expire.
//
// The pool's background work is done by at most one worker goroutine per
// agent: it closes the agent's expired sessions and tops its slots up,
// then returns. The pool owns the workers: close cancels them and waits.
type pool struct {
	h *Host

	// mu guards the fields below. It is held only to read or update them,
	// never during an ACP call or a process start.
	mu      sync.Mutex
	slots   map[string][]slot             // ready sessions per agent name, oldest first
	expired map[string][]slot             // idle too long; the agent's worker closes them
	workers map[string]context.CancelFunc // the running worker of each agent, which close cancels
	closed  bool                          // set by close: no worker starts after it

	// wg counts the workers. Add is called under mu while closed is false,
	// so no worker starts after close has begun waiting.
	wg sync.WaitGroup
}

type slot struct {
	proc    *Process
	id      sdk.SessionId
	created time.Time
}

func newPool(h *Host) *pool {
	return &pool{h: h, slots: map[string][]slot{}, expired: map[string][]slot{}, workers: map[string]context.CancelFunc{}}
}

// take returns a live warm session of the agent made on proc, if one is
// ready. Sessions of a dead or replaced process are dropped; expired ones
// are left to the agent's worker to close (refill starts it).
func (p *pool) take(agent string, proc *Process) (sdk.SessionId, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.h.opts.Now()
	var keep []slot
	var got sdk.SessionId
	for _, s := range p.slots[agent] {
		switch {
		case s.proc.Exited() || s.proc != proc:
			// dead or from a replaced process: nothing to close
		case now.Sub(s.created) > p.h.opts.PoolIdle:
			p.expired[agent] = append(p.expired[agent], s)
		case got == "":
			got = s.id
		default:
			keep = append(keep, s)
		}
	}
	p.slots[agent] = keep
	return got, got != ""
}

// refill starts the agent's worker, unless one runs, the pool is full and
// has nothing to close, or the pool is closed. It does not wait.
func (p *pool) refill(ag agentconf.Agent) {
	if p.h.opts.PoolSize < 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.workers[ag.Name] != nil || !p.hasWork(ag.Name) {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.workers[ag.Name] = cancel
	p.wg.Add(1)
	go p.work(ctx, ag)
}

// hasWork reports whether the agent's pool has sessions to close or room
// for more. The caller holds mu.
func (p *pool) hasWork(agent string) bool {
	return len(p.expired[agent]) > 0 || len(p.slots[agent]) < p.h.opts.PoolSize
}

// work is an agent's worker: it closes expired sessions and adds warm ones
// until there is nothing left to do, a session cannot be made (the next
// refill tries again), or ctx is cancelled by close.
func (p *pool) work(ctx context.Context, ag agentconf.Agent) {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		if ctx.Err() != nil || !p.hasWork(ag.Name) {
			p.stopWorker(ag.Name)
			p.mu.Unlock()
			return
		}
		old := p.expired[ag.Name]
		p.expired[ag.Name] = nil
		need := len(p.slots[ag.Name]) < p.h.opts.PoolSize
		p.mu.Unlock()

		for _, s := range old {
			closeSession(ctx, s)
		}
		if !need {
			continue
		}
		s, err := p.warm(ctx, ag)
		p.mu.Lock()
		if err != nil {
			p.h.log.Debug("warm session", "agent", ag.Name, "err", err)
			p.stopWorker(ag.Name)
			p.mu.Unlock()
			return
		}
		// Kept even when the pool is closing: close ends every slot left
		// once the workers have returned.
		p.slots[ag.Name] = append(p.slots[ag.Name], s)
		p.mu.Unlock()
	}
}

// stopWorker forgets the agent's worker; the caller holds mu.
func (p *pool) stopWorker(agent string) {
	if cancel := p.workers[agent]; cancel != nil {
		cancel()
		delete(p.workers, agent)
	}
}

// warm makes one warm session of the agent.
func (p *pool) warm(ctx context.Context, ag agentconf.Agent) (slot, error) {
	ctx, cancel := context.WithTimeout(ctx, warmTimeout)
	defer cancel()
	proc, err := p.h.procs.process(ctx, ag)
	if err != nil {
		return slot{}, err
	}
	cwd, err := p.h.cwd("warm-" + ag.Name)
	if err != nil {
		return slot{}, err
	}
	resp, err := call(ctx, proc, func(c context.Context) (sdk.NewSessionResponse, error) {
		return proc.conn.NewSession(c, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	})
	if err != nil {
		return slot{}, err
	}
	return slot{proc: proc, id: resp.SessionId, created: p.h.opts.Now()}, nil
}

// closeSession ends a warm session with session/close when the agent
// offers it (within closeTimeout); a dead agent has nothing to close.
func closeSession(ctx context.Context, s slot) {
	if !s.proc.Capabilities().Close || s.proc.Exited() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, closeTimeout)
	defer cancel()
	call(ctx, s.proc, func(c context.Context) (sdk.CloseSessionResponse, error) {
		return s.proc.conn.CloseSession(c, sdk.CloseSessionRequest{SessionId: s.id})
	})
}

// close cancels the workers and waits for them, then closes every session
// left in the pool (at once, each within closeTimeout). Calling it again
// is harmless.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	for name := range p.workers {
		p.stopWorker(name)
	}
	p.mu.Unlock()
	p.wg.Wait()

	p.mu.Lock()
	var left []slot
	for _, slots := range p.slots {
		left = append(left, slots...)
	}
	for _, slots := range p.expired {
		left = append(left, slots...)
	}
	clear(p.slots)
	clear(p.expired)
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range left {
		wg.Go(func() { closeSession(context.Background(), s) })
	}
	wg.Wait()
}

// Warm starts the agent and fills its pool without waiting.
func (h *Host) Warm(agent string) {
	if ag := h.agentConfig().Find(agent); ag != nil {
		h.pool.refill(*ag)
	}
}

// PoolReady reports whether a warm session of the agent is waiting.
func (h *Host) PoolReady(agent string) bool {
	h.pool.mu.Lock()
	defer h.pool.mu.Unlock()
	return len(h.pool.slots[agent]) > 0
}
