package watch

import (
	"context"
	"slices"
	"time"
)

// debouncer merges the changes it reads into one Change per burst. It is kept apart from
// fsnotify so that its timing can be tested with testing/synctest.
//
// A burst is flushed once no change has arrived for quiet, or maxWait after the burst's
// first change, whichever comes first: a continuous stream is still reported every maxWait.
// A Rescan change is flushed at once, with whatever paths are pending, because a rescan is
// already the coarsest possible report.
type debouncer struct {
	quiet   time.Duration
	maxWait time.Duration
}

// run reads changes from in and writes merged ones to out until ctx is done; pending paths
// are dropped then. It never stops reading in while a flushed change waits for a slow reader
// of out: later changes are merged into the waiting one instead.
func (d debouncer) run(ctx context.Context, in <-chan Change, out chan<- Change) {
	quiet := time.NewTimer(d.quiet)
	quiet.Stop()
	defer quiet.Stop()
	deadline := time.NewTimer(d.maxWait)
	deadline.Stop()
	defer deadline.Stop()

	var (
		b       burst
		ready   bool // b is due and waits for out
		quietC  <-chan time.Time
		expireC <-chan time.Time
	)
	for {
		var (
			sendC chan<- Change
			next  Change
		)
		if ready {
			sendC, next = out, b.change()
		}
		select {
		case <-ctx.Done():
			return
		case c := <-in:
			if len(c.Paths) == 0 && !c.Rescan {
				continue
			}
			if b.empty() {
				deadline.Reset(d.maxWait)
				expireC = deadline.C
			}
			b.add(c)
			switch {
			case ready:
			case c.Rescan:
				ready = true
			default:
				quiet.Reset(d.quiet)
				quietC = quiet.C
			}
		case <-quietC:
			ready = true
		case <-expireC:
			ready = true
		case sendC <- next:
			b = burst{}
			ready = false
			quiet.Stop()
			deadline.Stop()
			quietC, expireC = nil, nil
		}
		if ready {
			// The timers have done their work for this burst; a stale tick must not
			// mark the next burst due early.
			quiet.Stop()
			deadline.Stop()
			quietC, expireC = nil, nil
		}
	}
}

// burst accumulates the paths and rescan requests of changes not yet reported.
type burst struct {
	paths  map[string]struct{}
	rescan bool
}

func (b *burst) empty() bool { return len(b.paths) == 0 && !b.rescan }

func (b *burst) add(c Change) {
	b.rescan = b.rescan || c.Rescan
	if len(c.Paths) == 0 {
		return
	}
	if b.paths == nil {
		b.paths = make(map[string]struct{}, len(c.Paths))
	}
	for _, p := range c.Paths {
		b.paths[p] = struct{}{}
	}
}

// change returns the burst as one Change with its paths deduplicated and sorted.
func (b *burst) change() Change {
	c := Change{Rescan: b.rescan}
	if len(b.paths) > 0 {
		c.Paths = make([]string, 0, len(b.paths))
		for p := range b.paths {
			c.Paths = append(c.Paths, p)
		}
		slices.Sort(c.Paths)
	}
	return c
}
