package acp

import (
	"context"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// pool keeps sessions created ahead of time (initialize + session/new with
// no MCP server) so that turns without grants start at once. A turn with an
// MCP never takes from it: an MCP server cannot be added to a session after
// it was created. Slots whose agent died are dropped; idle ones expire.
type pool struct {
	h     *Host
	mu    sync.Mutex
	slots map[string][]slot // by agent name
	busy  map[string]bool   // a refill in progress
	wg    sync.WaitGroup
	stop  chan struct{}
}

type slot struct {
	proc    *Process
	id      sdk.SessionId
	created time.Time
}

func newPool(h *Host) *pool {
	return &pool{h: h, slots: map[string][]slot{}, busy: map[string]bool{}, stop: make(chan struct{})}
}

// take returns a live warm session of the agent made on proc, if one is ready.
func (p *pool) take(agent string, proc *Process) (*Process, sdk.SessionId, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.h.opts.Now()
	keep := p.slots[agent][:0]
	var got *slot
	for _, s := range p.slots[agent] {
		switch {
		case s.proc.Exited() || s.proc != proc:
			// dead or from a replaced process: dropped
		case now.Sub(s.created) > p.h.opts.PoolIdle:
			p.closeSlot(s)
		case got == nil:
			s := s
			got = &s
		default:
			keep = append(keep, s)
		}
	}
	p.slots[agent] = keep
	if got == nil {
		return nil, "", false
	}
	return got.proc, got.id, true
}

// refill tops the agent's pool up in the background.
func (p *pool) refill(ag Agent) {
	if p.h.opts.PoolSize < 0 {
		return
	}
	p.mu.Lock()
	if p.busy[ag.Name] || len(p.slots[ag.Name]) >= p.h.opts.PoolSize {
		p.mu.Unlock()
		return
	}
	select {
	case <-p.stop:
		p.mu.Unlock()
		return
	default:
	}
	p.busy[ag.Name] = true
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		defer func() { p.mu.Lock(); p.busy[ag.Name] = false; p.mu.Unlock() }()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		proc, err := p.h.process(ctx, ag)
		if err != nil {
			return
		}
		cwd, err := p.h.cwd("warm-" + ag.Name)
		if err != nil {
			return
		}
		resp, err := call(ctx, proc, func(c context.Context) (sdk.NewSessionResponse, error) {
			return proc.conn.NewSession(c, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
		})
		if err != nil {
			p.h.log.Debug("warm session", "agent", ag.Name, "err", err)
			return
		}
		p.mu.Lock()
		p.slots[ag.Name] = append(p.slots[ag.Name], slot{proc: proc, id: resp.SessionId, created: p.h.opts.Now()})
		p.mu.Unlock()
	}()
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

func (p *pool) closeSlot(s slot) {
	if s.proc.Capabilities().Close && !s.proc.Exited() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			call(ctx, s.proc, func(c context.Context) (sdk.CloseSessionResponse, error) {
				return s.proc.conn.CloseSession(c, sdk.CloseSessionRequest{SessionId: s.id})
			})
		}()
	}
}

func (p *pool) close() {
	p.mu.Lock()
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.mu.Unlock()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, slots := range p.slots {
		for _, s := range slots {
			if s.proc.Capabilities().Close && !s.proc.Exited() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				call(ctx, s.proc, func(c context.Context) (sdk.CloseSessionResponse, error) {
					return s.proc.conn.CloseSession(c, sdk.CloseSessionRequest{SessionId: s.id})
				})
				cancel()
			}
		}
		delete(p.slots, name)
	}
}
