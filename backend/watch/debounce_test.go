package watch

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// flush is a Change as the reader of out saw it, at a time relative to the test's start.
type flush struct {
	At     time.Duration
	Change Change
}

// event is a Change sent to the debouncer at a time relative to the test's start.
type event struct {
	at     time.Duration
	change Change
}

// runDebouncer feeds events to a debouncer with the given timing inside a synctest bubble
// and returns what came out, with the fake time at which each change was read.
func runDebouncer(t *testing.T, d debouncer, events []event) []flush {
	t.Helper()
	var got []flush
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		in := make(chan Change)
		out := make(chan Change)
		start := time.Now()
		done := make(chan struct{})
		go func() {
			defer close(done)
			d.run(ctx, in, out)
		}()
		go func() {
			for c := range out {
				got = append(got, flush{At: time.Since(start), Change: c})
			}
		}()
		for _, e := range events {
			time.Sleep(e.at - time.Since(start)) // fake time: advances the bubble's clock
			in <- e.change
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		cancel()
		<-done
		close(out)
	})
	return got
}

func paths(p ...string) Change { return Change{Paths: p} }

func TestDebouncer(t *testing.T) {
	ms := time.Millisecond
	d := debouncer{quiet: 300 * ms, maxWait: 3 * time.Second}
	tests := []struct {
		name   string
		events []event
		want   []flush
	}{
		{
			name:   "single event waits for the quiet period",
			events: []event{{0, paths("papers/a")}},
			want:   []flush{{300 * ms, paths("papers/a")}},
		},
		{
			name: "burst becomes one change, deduplicated and sorted",
			events: []event{
				{0, paths("papers/b/b.pdf")},
				{100 * ms, paths("papers/a", "papers/b/b.pdf")},
				{250 * ms, paths("notes/x.md", "papers/a")},
			},
			want: []flush{{550 * ms, paths("notes/x.md", "papers/a", "papers/b/b.pdf")}},
		},
		{
			name: "bursts apart by more than the quiet period are reported apart",
			events: []event{
				{0, paths("a")},
				{200 * ms, paths("b")},
				{900 * ms, paths("c")},
			},
			want: []flush{{500 * ms, paths("a", "b")}, {1200 * ms, paths("c")}},
		},
		{
			name: "rescan is reported at once with the pending paths",
			events: []event{
				{0, paths("a")},
				{100 * ms, Change{Rescan: true}},
				{150 * ms, paths("b")},
			},
			want: []flush{
				{100 * ms, Change{Paths: []string{"a"}, Rescan: true}},
				{450 * ms, paths("b")},
			},
		},
		{
			name:   "empty change is not reported",
			events: []event{{0, Change{}}},
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runDebouncer(t, d, tt.events)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("flushes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDebouncerCapsDelay checks that a stream with no quiet period is still reported every
// maxWait, and that nothing of it is lost.
func TestDebouncerCapsDelay(t *testing.T) {
	ms := time.Millisecond
	d := debouncer{quiet: 300 * ms, maxWait: 3 * time.Second}
	var events []event
	for i := range 100 { // one event every 70 ms for 7 s
		events = append(events, event{time.Duration(i) * 70 * ms, paths(fmt.Sprintf("p%03d", i))})
	}
	got := runDebouncer(t, d, events)

	var at []time.Duration
	seen := map[string]int{}
	for _, f := range got {
		at = append(at, f.At)
		for _, p := range f.Change.Paths {
			seen[p]++
		}
	}
	// First burst starts at 0 and is cut at 3 s; the second starts with the event at
	// 3010 ms and is cut at 6010 ms; the rest ends 300 ms after the last event (6930 ms).
	wantAt := []time.Duration{3000 * ms, 6010 * ms, 7230 * ms}
	if diff := cmp.Diff(wantAt, at); diff != "" {
		t.Errorf("flush times (-want +got):\n%s", diff)
	}
	if len(seen) != 100 {
		t.Errorf("got %d distinct paths reported, want 100", len(seen))
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("path %s reported %d times, want once", p, n)
		}
	}
}

// TestDebouncerSlowReader checks that changes keep being merged while a due change waits for
// a reader that is not reading.
func TestDebouncerSlowReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		in := make(chan Change)
		out := make(chan Change)
		d := debouncer{quiet: 300 * time.Millisecond, maxWait: 3 * time.Second}
		go d.run(ctx, in, out)

		in <- paths("a")
		time.Sleep(time.Second) // due at 300 ms, but nobody reads out
		in <- paths("b")        // must not block: the debouncer still reads in
		time.Sleep(time.Second)
		got := <-out
		if diff := cmp.Diff(paths("a", "b"), got); diff != "" {
			t.Errorf("change (-want +got):\n%s", diff)
		}
		synctest.Wait()
		select {
		case c := <-out:
			t.Errorf("got a second change %+v, want none", c)
		default:
		}
	})
}
