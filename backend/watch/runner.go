package watch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// errPolling stops a directory walk once the watcher has fallen back to polling.
var errPolling = errors.New("fell back to polling")

// runner is the state of one Run. All of it belongs to Run's goroutine; only in is shared,
// with the debouncer goroutine that reads it.
type runner struct {
	w      *Watcher
	in     chan<- Change
	status func(Status)

	fw     *fsnotify.Watcher   // nil in polling mode
	dirs   map[string]struct{} // vault-relative dirs watched, "." for the root
	ticker *time.Ticker        // non-nil in polling mode
}

// start creates the fsnotify watcher and watches the vault's tree, or falls back to polling.
func (r *runner) start(ctx context.Context) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		r.fallBack(ctx, err)
		return
	}
	r.fw = fw
	if err := r.watchTree(ctx, r.w.root, false); err != nil {
		return
	}
	r.status(Status{Mode: ModeInotify})
}

// loop handles events, errors and poll ticks until ctx is done.
func (r *runner) loop(ctx context.Context) {
	for {
		var (
			events <-chan fsnotify.Event
			errs   <-chan error
			ticks  <-chan time.Time
		)
		if r.fw != nil {
			events, errs = r.fw.Events, r.fw.Errors
		}
		if r.ticker != nil {
			ticks = r.ticker.C
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				r.fallBack(ctx, errors.New("fsnotify closed its event channel"))
				continue
			}
			r.handle(ctx, ev)
		case err, ok := <-errs:
			if !ok {
				continue // Events reports the closing.
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				r.w.log.Warn("watch: event queue overflowed; asking for a rescan")
				r.send(ctx, Change{Rescan: true})
				continue
			}
			r.w.log.Warn("watch: fsnotify error", "err", err)
		case <-ticks:
			r.send(ctx, Change{Rescan: true})
		}
	}
}

// handle turns one fsnotify event into watch updates and reported paths.
func (r *runner) handle(ctx context.Context, ev fsnotify.Event) {
	rel, ok := r.rel(ev.Name)
	if !ok {
		return
	}
	if rel == "." {
		// The vault folder itself moved or vanished: only a full rescan can tell what
		// is left.
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			r.send(ctx, Change{Rescan: true})
		}
		return
	}
	if r.w.ignore(rel) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		info, err := os.Lstat(ev.Name)
		if err == nil && info.IsDir() {
			// A new folder, or one renamed into place: watch its subtree and report it all.
			_ = r.watchTree(ctx, ev.Name, true)
			return
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		// Drop the watches now, before the event for the new name is handled: inotify
		// keeps a moved folder's watch under its old name otherwise, and would hand that
		// same watch back when the new name is added.
		r.unwatchTree(rel)
	}
	r.send(ctx, Change{Paths: []string{rel}})
}

// watchTree adds a watch for dir and every folder under it that is not ignored. With report,
// it also sends every path of the subtree, dir included, as one change. It returns errPolling
// when a system limit made the watcher fall back to polling.
func (r *runner) watchTree(ctx context.Context, dir string, report bool) error {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, ok := r.rel(path)
		if !ok {
			return nil
		}
		if rel != "." && r.w.ignore(rel) {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if err != nil {
			// Unreadable or vanished since the event: skip it, whatever else is there
			// is still watched.
			r.w.log.Debug("watch: skip", "path", rel, "err", err)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if report {
			paths = append(paths, rel)
		}
		if !d.IsDir() {
			return nil
		}
		if err := r.add(path); err != nil {
			if isLimit(err) {
				r.fallBack(ctx, err)
				return errPolling
			}
			r.w.log.Debug("watch: cannot watch folder", "path", rel, "err", err)
			return filepath.SkipDir
		}
		r.dirs[rel] = struct{}{}
		return nil
	})
	if len(paths) > 0 {
		r.send(ctx, Change{Paths: paths})
	}
	if errors.Is(err, errPolling) {
		return err
	}
	return nil
}

func (r *runner) add(dir string) error {
	if r.w.addWatch != nil {
		return r.w.addWatch(r.fw, dir)
	}
	return r.fw.Add(dir)
}

// unwatchTree drops the watches of rel and every watched folder under it. It does nothing
// when rel is not a watched folder (a file, or a folder whose watch the system already
// dropped with the folder).
func (r *runner) unwatchTree(rel string) {
	for dir := range r.dirs {
		if dir != rel && !strings.HasPrefix(dir, rel+"/") {
			continue
		}
		delete(r.dirs, dir)
		err := r.fw.Remove(filepath.Join(r.w.root, filepath.FromSlash(dir)))
		if err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) {
			r.w.log.Debug("watch: remove watch", "path", dir, "err", err)
		}
	}
}

// fallBack switches to polling because of err: it closes fsnotify, tells the user why, asks
// for a rescan at once (events may have been missed) and then every PollInterval.
func (r *runner) fallBack(ctx context.Context, err error) {
	r.w.log.Warn("watch: falling back to polling", "err", err, "interval", r.w.poll)
	if r.fw != nil {
		if err := r.fw.Close(); err != nil {
			r.w.log.Debug("watch: close fsnotify", "err", err)
		}
		r.fw = nil
	}
	clear(r.dirs)
	r.ticker = time.NewTicker(r.w.poll)
	r.status(Status{Mode: ModePolling, Notice: notice(err, r.w.poll)})
	r.send(ctx, Change{Rescan: true})
}

// send hands c to the debouncer, which always reads, so this waits only if ctx is done.
func (r *runner) send(ctx context.Context, c Change) {
	select {
	case r.in <- c:
	case <-ctx.Done():
	}
}

// rel returns the vault-relative slash path of an absolute path under the root.
func (r *runner) rel(path string) (string, bool) {
	rel, err := filepath.Rel(r.w.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// close releases fsnotify and the poll ticker.
func (r *runner) close() {
	if r.fw != nil {
		if err := r.fw.Close(); err != nil {
			r.w.log.Debug("watch: close fsnotify", "err", err)
		}
		r.fw = nil
	}
	if r.ticker != nil {
		r.ticker.Stop()
	}
}
