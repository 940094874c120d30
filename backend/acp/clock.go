package acp

import (
	"context"
	"sync"
	"time"
)

// turnClock is a turn's answer deadline that stops while the turn waits
// for the user: an agent gets TurnTimeout of its own time to answer,
// however long the user takes to decide a permission request.
//
// When the time is up the context ends (as cancelled: expired tells a
// deadline from the caller's cancel). The timer's function is the only
// goroutine it starts, briefly, and stop prevents or waits for nothing
// more than that.
type turnClock struct {
	cancel context.CancelFunc

	// mu guards the fields below; nothing blocks under it.
	mu      sync.Mutex
	left    time.Duration // what remains while stopped
	started time.Time     // when the timer last started
	timer   *time.Timer   // nil while stopped
	holds   int           // requests waiting for the user
	expired bool
	done    bool // set by stop
}

// newTurnClock returns a context that ends with parent or after d of
// running time, and its clock.
func newTurnClock(parent context.Context, d time.Duration) (context.Context, *turnClock) {
	ctx, cancel := context.WithCancel(parent)
	c := &turnClock{cancel: cancel, left: d}
	c.mu.Lock()
	c.run()
	c.mu.Unlock()
	return ctx, c
}

// run starts the timer for what is left. The caller holds mu.
func (c *turnClock) run() {
	c.started = time.Now()
	c.timer = time.AfterFunc(c.left, func() {
		c.mu.Lock()
		if c.done || c.holds > 0 {
			c.mu.Unlock()
			return
		}
		c.expired = true
		c.mu.Unlock()
		c.cancel()
	})
}

// hold stops the clock until release is called; holds nest.
func (c *turnClock) hold() (release func()) {
	c.mu.Lock()
	c.holds++
	if c.holds == 1 && c.timer != nil && !c.expired && !c.done {
		if c.timer.Stop() {
			c.left -= time.Since(c.started)
		} else {
			c.left = 0 // it fired just now: the time was up
		}
		c.timer = nil
	}
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.holds--
			if c.holds == 0 && c.timer == nil && !c.expired && !c.done {
				c.left = max(c.left, time.Millisecond)
				c.run()
			}
		})
	}
}

// stop ends the clock and its context, and reports whether the time ran out.
func (c *turnClock) stop() (expired bool) {
	c.mu.Lock()
	c.done = true
	if c.timer != nil {
		c.timer.Stop()
	}
	expired = c.expired
	c.mu.Unlock()
	c.cancel()
	return expired
}
