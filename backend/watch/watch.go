// Package watch reports changes inside a vault so the index can stay current without
// rescanning it. It watches directories (never single files) with fsnotify, debounces bursts
// into one Change, and falls back to periodic rescans when the system cannot watch every
// folder, saying so in a Status the UI can show.
package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

const (
	defaultDebounce     = 300 * time.Millisecond
	defaultPollInterval = 30 * time.Second
	// minMaxWait is the longest a continuous stream of events waits to be reported.
	minMaxWait = 3 * time.Second
)

// Options are the optional knobs of a Watcher; the zero value means defaults.
type Options struct {
	// Debounce is the quiet period after the last event of a burst before it is reported;
	// 0 means 300 ms. A continuous stream is still reported every 3 s (or every two
	// Debounce periods when that is longer).
	Debounce time.Duration
	// PollInterval is how often a full rescan is requested in polling mode; 0 means 30 s.
	PollInterval time.Duration
	// Ignore reports whether a vault-relative slash path is skipped, events and subtree
	// alike. Nil skips only ".agentero" and everything under it.
	Ignore func(rel string) bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Mode says how the vault is being watched.
type Mode string

const (
	// ModeInotify means the vault's folders are watched by the operating system.
	ModeInotify Mode = "inotify"
	// ModePolling means the system could not watch the vault and the caller is asked to
	// rescan it every PollInterval instead.
	ModePolling Mode = "polling"
)

// Change is one debounced burst of changes.
type Change struct {
	// Paths are the vault-relative slash paths of the folders and files touched in the
	// burst, deduplicated and sorted. A newly created or moved-in folder comes with every
	// entry of its subtree, because files made before its watch was in place send no event.
	Paths []string
	// Rescan asks the caller to rescan the whole vault: events were lost (queue overflow) or
	// the watcher is polling.
	Rescan bool
}

// Status is the watching mode, reported once the initial watches are in place and again
// when the watcher falls back to polling.
type Status struct {
	Mode Mode
	// Notice is a sentence for the user explaining a fallback; empty in ModeInotify.
	Notice string
}

// Watcher watches one vault. Create it with New and start it with Run.
type Watcher struct {
	root     string
	debounce time.Duration
	poll     time.Duration
	ignore   func(rel string) bool
	log      *slog.Logger

	// addWatch adds a watch for one directory. Tests replace it to simulate the system's
	// watch limit (syscall.ENOSPC) without root; nil means fw.Add.
	addWatch func(fw *fsnotify.Watcher, dir string) error
}

// New returns a Watcher for the vault at root, which must be an existing directory.
// Nothing is watched until Run.
func New(root string, opts Options) (*Watcher, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("watch vault: %w", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("watch vault: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("watch vault: %s is not a directory", abs)
	}
	w := &Watcher{
		root:     abs,
		debounce: opts.Debounce,
		poll:     opts.PollInterval,
		ignore:   opts.Ignore,
		log:      opts.Logger,
	}
	if w.debounce <= 0 {
		w.debounce = defaultDebounce
	}
	if w.poll <= 0 {
		w.poll = defaultPollInterval
	}
	if w.ignore == nil {
		w.ignore = ignoreState
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	return w, nil
}

// ignoreState skips Agentero's own state folder, the default Ignore.
func ignoreState(rel string) bool {
	return rel == ".agentero" || strings.HasPrefix(rel, ".agentero/")
}

// Run watches the vault and sends each debounced burst to changes until ctx is done, then
// returns nil once every goroutine it started has stopped. A slow reader of changes does not
// lose events: they are merged into the change waiting to be sent. status, when not nil, is
// called from Run's goroutine with the initial mode once the initial watches are in place,
// and again on a fallback to polling; it must return quickly. Run returns an error only when
// the vault cannot be read at all. Changes made before the first status may be missed, so a
// caller that wants to be current scans the vault after it. Call Run once per Watcher.
func (w *Watcher) Run(ctx context.Context, changes chan<- Change, status func(Status)) error {
	if status == nil {
		status = func(Status) {}
	}
	ctx, cancel := context.WithCancel(ctx)
	in := make(chan Change, 64)
	var wg sync.WaitGroup
	wg.Go(func() {
		d := debouncer{quiet: w.debounce, maxWait: max(minMaxWait, 2*w.debounce)}
		d.run(ctx, in, changes)
	})
	defer wg.Wait()
	defer cancel()

	if _, err := os.Stat(w.root); err != nil {
		return fmt.Errorf("watch vault: %w", err)
	}
	r := &runner{w: w, in: in, status: status, dirs: make(map[string]struct{})}
	defer r.close()
	r.start(ctx)
	r.loop(ctx)
	return nil
}

// notice is the sentence shown to the user when watching fell back to polling because of err.
func notice(err error, every time.Duration) string {
	then := fmt.Sprintf("Agentero rescans the vault every %s instead.", interval(every))
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return "The system limit on watched folders was reached (fs.inotify.max_user_watches); " + then
	case errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return "The system limit on open files or folder watchers was reached; " + then
	default:
		return "This system cannot watch the vault for changes; " + then
	}
}

// isLimit reports whether err means the system ran out of watches or file descriptors, the
// errors that switch the watcher to polling.
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// interval writes d the way the notice reads best: "30 s", "2 min", or Go's form for odd values.
func interval(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d >= time.Second && d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	default:
		return d.String()
	}
}
