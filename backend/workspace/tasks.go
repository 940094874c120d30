package workspace

import (
	"context"
	"sync"
)

// tasks owns everything a workspace runs: background goroutines (sync,
// watch, reindex, turns) and foreground calls (a search, a CLI turn). Each
// gets a context that close cancels, and close returns only when all of
// them have returned. After close nothing new starts.
type tasks struct {
	wg sync.WaitGroup // one count per running task

	// mu guards the fields below; nothing blocks while holding it.
	mu      sync.Mutex
	closed  bool
	next    int
	cancels map[int]context.CancelFunc // running tasks
}

func newTasks() *tasks { return &tasks{cancels: map[int]context.CancelFunc{}} }

// enter registers a task that runs on the caller's goroutine. Its context
// ends with parent or with close; release must be called when it is done.
// After close, enter fails with ErrClosed.
func (t *tasks) enter(parent context.Context) (ctx context.Context, release func(), err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, nil, ErrClosed
	}
	ctx, cancel := context.WithCancel(parent)
	id := t.next
	t.next++
	t.cancels[id] = cancel
	t.wg.Add(1)
	var once sync.Once
	release = func() {
		once.Do(func() {
			t.mu.Lock()
			delete(t.cancels, id)
			t.mu.Unlock()
			cancel()
			t.wg.Done()
		})
	}
	return ctx, release, nil
}

// start runs f on a goroutine of its own as a task and returns the function
// that cancels it. f's context ends with cancel or with close.
func (t *tasks) start(f func(ctx context.Context)) (cancel context.CancelFunc, err error) {
	ctx, release, err := t.enter(context.Background())
	if err != nil {
		return nil, err
	}
	ctx, cancel = context.WithCancel(ctx)
	go func() {
		defer release()
		defer cancel()
		f(ctx)
	}()
	return cancel, nil
}

// close cancels every task, waits for all of them to return, and refuses
// new ones. It is safe to call more than once.
func (t *tasks) close() {
	t.mu.Lock()
	t.closed = true
	for _, cancel := range t.cancels {
		cancel()
	}
	t.mu.Unlock()
	t.wg.Wait()
}
