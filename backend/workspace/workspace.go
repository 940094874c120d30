// Package workspace is one open vault and everything that works on it: the
// library (index, extractor, watcher), the agents' host, the user's agents
// and settings. The desktop app (app.go) and the command line (package cli)
// are thin adapters over it, so that a feature is written once. A Workspace
// owns every goroutine it starts: Close cancels them, waits for them, and
// only then closes the agents, the extractor and the index.
package workspace

import (
	"context"
	"fmt"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/metadata"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/watch"
)

// Options are a workspace's dependencies. Zero values mean defaults.
type Options struct {
	Logger *slog.Logger   // nil = discard
	Emit   events.Emitter // the UI's events; nil = none
	// Config is the user's agents and settings, and this executable (which
	// runs the built-in agent and the agentero-context MCP server); nil =
	// NewConfig("", ""). Tests pass a temp folder and a built binary.
	Config *Config
	// CacheDir holds the conversations' working folders and the PDF
	// engine's compilation cache; "" = the user cache dir's agentero/.
	CacheDir    string
	PoolSize    int           // warm sessions kept per agent; 0 = 1, -1 = none
	TurnTimeout time.Duration // a turn that takes longer fails; 0 = 5 minutes
	Workers     int           // parallel PDF extractions; 0 = 2
	// ExtractTimeout limits the reading of one PDF; 0 = the extractor's default.
	ExtractTimeout time.Duration
	Extractor      index.Extractor // nil = the PDF extractor, started on first use
	Watch          watch.Options
	Now            func() time.Time // nil = time.Now
	// Online looks metadata up when the user allows it (metadata.go); nil =
	// the public services. Tests point it at a fake server.
	Online *metadata.Online
}

// Workspace is one open vault. Its methods are safe for concurrent use;
// after Close they fail with ErrClosed.
type Workspace struct {
	cfg   *Config
	lib   *library.Library
	host  *acp.Host
	log   *slog.Logger
	emit  events.Emitter
	now   func() time.Time
	tasks *tasks // every goroutine and call in flight; Close waits for them
	// changes wakes those waiting for the index to change (FollowLink).
	changes *indexChanges

	// mu guards the fields below. Nothing blocks while holding it except
	// tasks.start (which only takes tasks.mu).
	mu         sync.Mutex
	agents     *agentconf.Agents
	agentsErr  error      // why agents.json could not be used; turns fail with it
	agentsFile agentsFile // agents.json as last read (reloadAgents)
	indexing   bool       // a Reindex is running
	started    bool       // Start ran: the app's vault, which looks papers up after an import
	again      bool       // Reindex was asked for while one ran

	online onlineState // metadata lookups (metadata.go)

	closeOnce sync.Once
	closeErr  error

	loop loopbackState // the loopback MCP server (loopback.go)
}

// Open opens the vault at dir: its index (created when missing), the user's
// agents and settings, and an agents' host. It starts nothing: Sync indexes
// in the foreground (the command line), Start in the background (the app).
// An agents or settings file that cannot be read does not stop the vault
// from opening: the defaults are used and the problem is logged (turns
// report a broken agents file).
func Open(dir string, opts Options) (*Workspace, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Emit == nil {
		opts.Emit = func(string, any) {}
	}
	if opts.Config == nil {
		opts.Config = NewConfig("", "")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	changes := newIndexChanges()
	opts.Emit = changes.watching(opts.Emit)
	var pdfCache string
	if opts.CacheDir != "" {
		pdfCache = filepath.Join(opts.CacheDir, "wazero")
	}
	lib, err := library.Open(dir, library.Options{Logger: opts.Logger, Emit: opts.Emit, Workers: opts.Workers,
		Timeout: opts.ExtractTimeout, CacheDir: pdfCache, Watch: opts.Watch, Extract: opts.Extractor})
	if err != nil {
		return nil, err
	}
	w := &Workspace{cfg: opts.Config, lib: lib, log: opts.Logger, emit: opts.Emit, now: opts.Now, tasks: newTasks(),
		changes: changes}
	w.online.base = opts.Online
	w.agents, w.agentsErr = opts.Config.Agents()
	if w.agentsErr != nil {
		opts.Logger.Warn("agents not loaded; only the built-in agent is available", "err", w.agentsErr)
		w.agents = &agentconf.Agents{Default: agentconf.BuiltinName, List: []agentconf.Agent{agentconf.Builtin(opts.Config.Executable())}}
	}
	prefs, err := opts.Config.Settings()
	if err != nil {
		opts.Logger.Warn("settings not loaded; the defaults are in force", "err", err)
	}
	w.host = acp.NewHost(lib.Root(), opts.Config.Executable(), lib.DB(), w.agents, acp.HostOptions{Logger: opts.Logger,
		TurnTimeout: opts.TurnTimeout, PoolSize: opts.PoolSize, CacheDir: opts.CacheDir, Budget: prefs.Budget, Now: opts.Now})
	return w, nil
}

// Root is the vault's absolute path.
func (w *Workspace) Root() string { return w.lib.Root() }

// State reports the vault's path, watch mode and whether it is indexing.
func (w *Workspace) State() library.State { return w.lib.State() }

// Close stops everything the workspace started and waits for it: first the
// tasks (background sync and watch, reindex, turns, calls in flight) are
// cancelled and awaited, then the agents' host ends the warm pool and the
// agent processes, and last the extractor and the index close. It is safe
// to call more than once.
func (w *Workspace) Close() error {
	w.closeOnce.Do(func() {
		w.closeLoopback()
		w.tasks.close()
		w.host.Close()
		if err := w.lib.Close(); err != nil {
			w.closeErr = fmt.Errorf("close vault: %w", err)
		}
	})
	return w.closeErr
}

// call runs f as a task of the workspace: its context ends with ctx or with
// Close, Close waits for it, and after Close it fails with ErrClosed.
func call[T any](ctx context.Context, w *Workspace, f func(ctx context.Context) (T, error)) (T, error) {
	ctx, release, err := w.tasks.enter(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	defer release()
	return f(ctx)
}

// Sync indexes what changed in the vault and brings its reference lists up
// to date, in the foreground; progress goes out as index:progress events.
func (w *Workspace) Sync(ctx context.Context) (index.Stats, error) {
	return call(ctx, w, w.lib.Sync)
}

// Start indexes the vault in the background, then follows its changes until
// Close, and warms a session of the default agent: what the desktop app does
// with the vault it shows.
func (w *Workspace) Start() error {
	_, err := w.tasks.start(func(ctx context.Context) {
		if _, err := w.lib.Sync(ctx); err != nil && ctx.Err() == nil {
			w.log.Error("index vault", "err", err)
		}
		w.lookupIfAllowed() // in the background, after indexing
		if err := w.lib.Watch(ctx); err != nil && ctx.Err() == nil {
			w.log.Error("watch vault", "err", err)
		}
	})
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.started = true
	w.mu.Unlock()
	w.host.Warm(w.defaultAgent())
	if _, err := w.ApplyLoopback(); err != nil {
		w.log.Error("loopback MCP server", "err", err)
	}
	return nil
}

// Reindex rescans the vault in the background and returns at once. Calls
// while one runs coalesce: one more scan follows it, covering them all.
func (w *Workspace) Reindex() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.indexing {
		w.again = true
		return nil
	}
	_, err := w.tasks.start(func(ctx context.Context) {
		for {
			if _, err := w.lib.Sync(ctx); err != nil && ctx.Err() == nil {
				w.log.Error("reindex", "err", err)
			}
			w.mu.Lock()
			again := w.again && ctx.Err() == nil
			w.again = false
			if !again {
				w.indexing = false
				w.mu.Unlock()
				return
			}
			w.mu.Unlock()
		}
	})
	if err != nil {
		return err
	}
	w.indexing = true
	return nil
}

func (w *Workspace) defaultAgent() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.agents.Default
}

// errNoAgents is why turns cannot run, if agents.json could not be used.
func (w *Workspace) errNoAgents() error {
	w.reloadAgents()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.agentsErr
}
