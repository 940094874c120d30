package acp

import (
	"context"
	"log/slog"
	"sync"

	"github.com/agentero/agentero/backend/agentconf"
)

// supervisor owns a host's agent processes: at most one live process per
// agent name, started on first use, replaced when it has died, and stopped
// by close. Every caller that needs an agent (turns, the warm pool, the
// summarizer) gets it here, so two of them can never start the same agent
// twice.
//
// Starting is serialised per agent by a gate (a one-slot channel, so that a
// waiting caller can give up with its ctx): the holder looks the process up
// and starts a new one when there is none or it has died; callers for the
// same agent wait for that start and then share its process. Callers for
// different agents do not wait for each other.
type supervisor struct {
	log     *slog.Logger
	confine func(agentconf.Agent, string) (*jail, error) // how an agent runs (Host.jailFor); nil = unconfined

	// mu guards the fields below. It is held only to read or update them,
	// never while a process starts, answers or stops.
	mu     sync.Mutex
	gates  map[string]chan struct{} // per agent name, created on first use
	procs  map[string]*Process      // per agent name, the latest process (maybe dead); written only by the gate's holder
	closed bool                     // set by close: nothing starts after it

	// starts counts starts in progress; close waits for them. Add is
	// called under mu while closed is false, so no start begins after
	// close has begun waiting.
	starts sync.WaitGroup
}

func newSupervisor(log *slog.Logger) *supervisor {
	return &supervisor{log: log, gates: map[string]chan struct{}{}, procs: map[string]*Process{}}
}

// process returns the agent's running process, starting it if there is
// none or the last one died. A caller that waits for another's start gives
// up when its ctx ends. The process is shared: the caller must not stop it.
func (s *supervisor) process(ctx context.Context, ag agentconf.Agent) (*Process, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	gate := s.gates[ag.Name]
	if gate == nil {
		gate = make(chan struct{}, 1)
		s.gates[ag.Name] = gate
	}
	s.mu.Unlock()

	select {
	case gate <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-gate }()

	s.mu.Lock()
	p := s.procs[ag.Name]
	switch {
	case s.closed:
		s.mu.Unlock()
		return nil, ErrClosed
	case p != nil && !p.Exited():
		s.mu.Unlock()
		return p, nil
	}
	s.starts.Add(1)
	s.mu.Unlock()
	defer s.starts.Done()

	p, err := spawn(ag, s.log, s.confine)
	if err != nil {
		return nil, err
	}
	// Registered before initialize, so that close can stop a start in
	// progress instead of waiting for it.
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		p.Kill()
		return nil, ErrClosed
	}
	s.procs[ag.Name] = p
	s.mu.Unlock()
	if err := p.initialize(ctx, DefaultStartTimeout); err != nil {
		p.Kill()
		return nil, err
	}
	s.log.Debug("agent started", "agent", ag.Name, "pid", p.cmd.Process.Pid)
	return p, nil
}

// close stops every process (starting ones included) and waits until each
// has exited and every start has returned. Later calls to process fail with
// ErrClosed. Calling close again is harmless.
func (s *supervisor) close() {
	s.mu.Lock()
	s.closed = true
	procs := make([]*Process, 0, len(s.procs))
	for _, p := range s.procs {
		procs = append(procs, p)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(p.Stop)
	}
	wg.Wait()
	s.starts.Wait()
}
