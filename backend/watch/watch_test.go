package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"
)

// patience bounds every wait on the real file system; changes normally arrive in
// milliseconds.
const patience = 10 * time.Second

// vaultTest is a Watcher running on a temporary vault.
type vaultTest struct {
	root    string
	changes chan Change
	status  chan Status
	seen    []Change
}

// startWatcher runs a Watcher over root (after prepare has laid out files) and waits until
// its initial watches are in place. setup may adjust the Watcher before Run.
func startWatcher(t *testing.T, opts Options, prepare func(root string), setup func(*Watcher)) *vaultTest {
	t.Helper()
	root := t.TempDir()
	if prepare != nil {
		prepare(root)
	}
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	w, err := New(root, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if setup != nil {
		setup(w)
	}
	v := &vaultTest{root: root, changes: make(chan Change, 16), status: make(chan Status, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, v.changes, func(s Status) { v.status <- s }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(patience):
			t.Errorf("Run did not return within %s of cancel", patience)
		}
	})
	return v
}

// waitStatus returns the next status the watcher reported.
func (v *vaultTest) waitStatus(t *testing.T) Status {
	t.Helper()
	select {
	case s := <-v.status:
		return s
	case <-time.After(patience):
		t.Fatalf("no status within %s", patience)
		return Status{}
	}
}

// waitPath reads changes until one names rel, and fails the test if none does in time.
func (v *vaultTest) waitPath(t *testing.T, rel string) {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case c := <-v.changes:
			v.seen = append(v.seen, c)
			if slices.Contains(c.Paths, rel) {
				return
			}
		case <-deadline:
			t.Fatalf("no change named %q within %s; got %+v", rel, patience, v.seen)
		}
	}
}

// waitRescans reads changes until n with Rescan set arrived.
func (v *vaultTest) waitRescans(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(patience)
	for got := 0; got < n; {
		select {
		case c := <-v.changes:
			v.seen = append(v.seen, c)
			if c.Rescan {
				got++
			}
		case <-deadline:
			t.Fatalf("got %d rescans within %s, want %d; changes %+v", got, patience, n, v.seen)
		}
	}
}

// reported returns the paths, among the changes seen so far, that match.
func (v *vaultTest) reported(match func(string) bool) []string {
	var got []string
	for _, c := range v.seen {
		for _, p := range c.Paths {
			if match(p) {
				got = append(got, p)
			}
		}
	}
	return got
}

func (v *vaultTest) path(rel string) string { return filepath.Join(v.root, filepath.FromSlash(rel)) }

func mkdirAll(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatchReportsPaperFolder(t *testing.T) {
	v := startWatcher(t, Options{}, func(root string) { mkdirAll(t, filepath.Join(root, "papers")) }, nil)
	if got, want := v.waitStatus(t), (Status{Mode: ModeInotify}); got != want {
		t.Fatalf("status = %+v, want %+v", got, want)
	}

	mkdirAll(t, v.path("papers/raft"))
	writeFile(t, v.path("papers/raft/raft.pdf"), "%PDF-1.4")
	v.waitPath(t, "papers/raft/raft.pdf")
	if got := v.reported(func(p string) bool { return p == "papers/raft" }); len(got) == 0 {
		t.Errorf("the new folder papers/raft was never reported; changes %+v", v.seen)
	}
}

func TestWatchNestedFoldersAtOnce(t *testing.T) {
	v := startWatcher(t, Options{}, nil, nil)
	v.waitStatus(t)

	// mkdir -p creates b and c before the watcher can watch a: the file in c is seen only
	// if the new subtree is walked.
	mkdirAll(t, v.path("papers/a/b/c"))
	writeFile(t, v.path("papers/a/b/c/paper.pdf"), "%PDF-1.4")
	v.waitPath(t, "papers/a/b/c/paper.pdf")

	// And c is watched from now on.
	writeFile(t, v.path("papers/a/b/c/NOTES.md"), "later")
	v.waitPath(t, "papers/a/b/c/NOTES.md")
}

func TestWatchRenamedFolder(t *testing.T) {
	v := startWatcher(t, Options{}, func(root string) {
		mkdirAll(t, filepath.Join(root, "papers/old/source"))
		writeFile(t, filepath.Join(root, "papers/old/old.pdf"), "%PDF-1.4")
	}, nil)
	v.waitStatus(t)

	if err := os.Rename(v.path("papers/old"), v.path("papers/new")); err != nil {
		t.Fatal(err)
	}
	v.waitPath(t, "papers/new/source")
	if got := v.reported(func(p string) bool { return p == "papers/old" }); len(got) == 0 {
		t.Errorf("the old name papers/old was never reported; changes %+v", v.seen)
	}

	// Events inside the moved folder carry its new name, not the old one.
	writeFile(t, v.path("papers/new/source/refs.bib"), "@article{x}")
	v.waitPath(t, "papers/new/source/refs.bib")
	if got := v.reported(func(p string) bool { return strings.HasPrefix(p, "papers/old/") }); len(got) > 0 {
		t.Errorf("paths under the old name reported after the rename: %q", got)
	}
}

func TestWatchDeletedFolder(t *testing.T) {
	v := startWatcher(t, Options{}, func(root string) {
		mkdirAll(t, filepath.Join(root, "papers/gone/source"))
		writeFile(t, filepath.Join(root, "papers/gone/gone.pdf"), "%PDF-1.4")
	}, nil)
	v.waitStatus(t)

	if err := os.RemoveAll(v.path("papers/gone")); err != nil {
		t.Fatal(err)
	}
	v.waitPath(t, "papers/gone")

	// A folder made again under the same name is watched afresh.
	mkdirAll(t, v.path("papers/gone"))
	v.waitPath(t, "papers/gone")
	writeFile(t, v.path("papers/gone/again.pdf"), "%PDF-1.4")
	v.waitPath(t, "papers/gone/again.pdf")
}

func TestWatchIgnoresStateFolder(t *testing.T) {
	tests := []struct {
		name      string
		ignore    func(string) bool
		createdBy string // "prepare": .agentero exists before Run; "test": made while watching
	}{
		{name: "default ignore", createdBy: "prepare"},
		{name: "default ignore, state folder made while watching", createdBy: "test"},
		{name: "caller ignore skipping hidden paths", createdBy: "prepare", ignore: func(rel string) bool {
			for part := range strings.SplitSeq(rel, "/") {
				if strings.HasPrefix(part, ".") {
					return true
				}
			}
			return false
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := startWatcher(t, Options{Ignore: tt.ignore}, func(root string) {
				if tt.createdBy == "prepare" {
					mkdirAll(t, filepath.Join(root, ".agentero"))
				}
				mkdirAll(t, filepath.Join(root, "notes"))
			}, nil)
			v.waitStatus(t)

			mkdirAll(t, v.path(".agentero/chats"))
			writeFile(t, v.path(".agentero/index.sqlite"), "db")
			writeFile(t, v.path(".agentero/chats/transcript.jsonl"), "{}")
			mkdirAll(t, v.path(".agentero/context/sub"))
			writeFile(t, v.path(".agentero/context/sub/doc.md"), "doc")
			writeFile(t, v.path("notes/.draft.md.swp"), "swap")
			// Changes arrive in order, so once this one is seen the ones above would
			// have been too.
			writeFile(t, v.path("notes/sentinel.md"), "x")
			v.waitPath(t, "notes/sentinel.md")

			if got := v.reported(func(p string) bool { return strings.HasPrefix(p, ".agentero") }); len(got) > 0 {
				t.Errorf("paths under .agentero reported: %q", got)
			}
			hidden := v.reported(func(p string) bool { return p == "notes/.draft.md.swp" })
			if tt.ignore != nil && len(hidden) > 0 {
				t.Errorf("hidden file reported although the caller's Ignore skips it: %q", hidden)
			}
		})
	}
}

func TestWatchLimitFallsBackToPolling(t *testing.T) {
	v := startWatcher(t, Options{PollInterval: 20 * time.Millisecond}, func(root string) {
		mkdirAll(t, filepath.Join(root, "papers/a"))
	}, func(w *Watcher) {
		w.addWatch = func(*fsnotify.Watcher, string) error { return syscall.ENOSPC }
	})

	got := v.waitStatus(t)
	want := Status{
		Mode:   ModePolling,
		Notice: "The system limit on watched folders was reached (fs.inotify.max_user_watches); Agentero rescans the vault every 20ms instead.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	v.waitRescans(t, 3)
}

func TestWatchLimitReachedLater(t *testing.T) {
	// The initial tree fits; the first folder created afterwards does not.
	v := startWatcher(t, Options{PollInterval: 20 * time.Millisecond}, func(root string) {
		mkdirAll(t, filepath.Join(root, "papers/a"))
	}, func(w *Watcher) {
		w.addWatch = func(fw *fsnotify.Watcher, dir string) error {
			if filepath.Base(dir) == "b" {
				return syscall.ENOSPC
			}
			return fw.Add(dir)
		}
	})
	if got := v.waitStatus(t); got.Mode != ModeInotify {
		t.Fatalf("initial mode = %q, want %q", got.Mode, ModeInotify)
	}

	mkdirAll(t, v.path("papers/b"))
	if got := v.waitStatus(t); got.Mode != ModePolling || !strings.Contains(got.Notice, "max_user_watches") {
		t.Errorf("status after the limit = %+v, want polling with a notice naming max_user_watches", got)
	}
	v.waitRescans(t, 2)
}

func TestNotice(t *testing.T) {
	tests := []struct {
		err   error
		every time.Duration
		want  string
	}{
		{syscall.ENOSPC, 30 * time.Second, "The system limit on watched folders was reached (fs.inotify.max_user_watches); Agentero rescans the vault every 30 s instead."},
		{syscall.EMFILE, 2 * time.Minute, "The system limit on open files or folder watchers was reached; Agentero rescans the vault every 2 min instead."},
		{os.ErrPermission, 1500 * time.Millisecond, "This system cannot watch the vault for changes; Agentero rescans the vault every 1.5s instead."},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			if got := notice(tt.err, tt.every); got != tt.want {
				t.Errorf("notice = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewRejectsMissingVault(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("New on a missing folder succeeded, want an error")
	}
}
