package library_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/backend/watch"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

// stormPDFs are the small corpus PDFs the storm copies into paper folders,
// with their page counts (manifest.csv).
var stormPDFs = map[string]int{
	"peercoin.pdf": 6,
	"end-to-end-arguments-in-system-design.pdf":                   10,
	"solution-of-a-problem-in-concurrent-programming-control.pdf": 1,
}

// A thousand files created, renamed and deleted in bursts while the
// library watches: paper folders (a PDF, metadata.json, NOTES.md), whole
// collections of them moved, PDFs taken out of their folders, notes
// written, rewritten, moved and deleted. Once the bursts are over the
// index holds exactly what the folder does.
func TestWatchStorm(t *testing.T) {
	root := t.TempDir()
	lib, rec := stormLibrary(t, root, watch.Options{Debounce: 50 * time.Millisecond})
	stop := watchInBackground(t, lib)
	defer stop()
	rec.waitStatus(t, watch.ModeInotify)

	s := newStorm(t, root, 1000)
	s.run()
	t.Logf("storm: %d file operations in %d bursts (%s)", s.ops, s.bursts, s.tally())
	settled(t, lib, rec)
}

// With the system's limit on inotify watches reached in the middle of a
// storm, the library falls back to rescanning: it says so (watch:status,
// mode polling, with a notice naming the limit), and the index still ends
// up matching the folder. The limit is real: the test runs itself again in
// a user namespace of its own, whose max_inotify_watches it lowers.
func TestWatchStormPastInotifyLimit(t *testing.T) {
	const limitEnv = "AGENTERO_TEST_INOTIFY_LIMIT"
	if os.Getenv(limitEnv) == "" {
		inUserNamespace(t, "TestWatchStormPastInotifyLimit", limitEnv+"=1")
		return
	}
	root := t.TempDir()
	for _, dir := range []string{"papers/a", "papers/b", "notes"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The vault's six folders fit; the storm's do not.
	if err := os.WriteFile("/proc/sys/user/max_inotify_watches", []byte("12\n"), 0o644); err != nil {
		t.Fatalf("lower the inotify limit in the test's user namespace: %v", err)
	}
	lib, rec := stormLibrary(t, root, watch.Options{Debounce: 50 * time.Millisecond, PollInterval: 200 * time.Millisecond})
	stop := watchInBackground(t, lib)
	defer stop()
	rec.waitStatus(t, watch.ModeInotify)

	s := newStorm(t, root, 300)
	s.run()
	t.Logf("storm: %d file operations in %d bursts (%s)", s.ops, s.bursts, s.tally())
	got := rec.waitStatus(t, watch.ModePolling)
	t.Logf("watch:status %+v", got)
	if !strings.Contains(got.Notice, "max_user_watches") || !strings.Contains(got.Notice, "rescans the vault every") {
		t.Errorf("polling notice %q, want it to name the limit and say what Agentero does instead", got.Notice)
	}
	if st := lib.State(); st.WatchMode != string(watch.ModePolling) || st.WatchNotice != got.Notice {
		t.Errorf("library state %+v, want polling with the notice the event carried", st)
	}
	settled(t, lib, rec)
}

// inUserNamespace runs test again, in a child process that is root of a
// new user namespace (unshare), with env added.
func inUserNamespace(t *testing.T, test string, env ...string) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		corpustest.Unavailable(t, "unshare is not installed (util-linux; scripts/deps.sh installs it): %v", err)
	}
	if out, err := exec.Command(unshare, "--user", "--map-root-user", "true").CombinedOutput(); err != nil {
		t.Skipf("this system does not let a user make a user namespace: %v: %s", err, out)
	}
	// The child gets a timeout of its own: run directly, a test binary has
	// none, and a hang there would hold this test until go test's.
	args := []string{"--user", "--map-root-user", os.Args[0], "-test.run=^" + test + "$", "-test.count=1", "-test.v", "-test.timeout=5m"}
	cmd := exec.Command(unshare, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("in a user namespace:\n%s", out)
	if err != nil {
		t.Fatalf("the test failed in its user namespace: %v", err)
	}
}

// stormRecorder keeps a library's watch statuses and signals its changes.
type stormRecorder struct {
	mu      sync.Mutex
	status  []events.WatchStatusEvent
	changed chan struct{}
}

func (r *stormRecorder) emit(name string, payload any) {
	switch name {
	case events.WatchStatus:
		r.mu.Lock()
		r.status = append(r.status, payload.(events.WatchStatusEvent))
		r.mu.Unlock()
	}
	if name == events.WatchStatus || name == events.LibraryChanged {
		select {
		case r.changed <- struct{}{}:
		default:
		}
	}
}

// waitStatus waits for a watch:status event with mode and returns it.
func (r *stormRecorder) waitStatus(t *testing.T, mode watch.Mode) events.WatchStatusEvent {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		r.mu.Lock()
		for _, s := range r.status {
			if s.Mode == string(mode) {
				r.mu.Unlock()
				return s
			}
		}
		seen := slices.Clone(r.status)
		r.mu.Unlock()
		select {
		case <-r.changed:
		case <-timeout:
			t.Fatalf("no watch:status %q within a minute; got %+v", mode, seen)
		}
	}
}

// stormLibrary opens the vault at root with the real extractor, synced.
func stormLibrary(t *testing.T, root string, w watch.Options) (*library.Library, *stormRecorder) {
	t.Helper()
	corpustest.NeedCorpus(t)
	rec := &stormRecorder{changed: make(chan struct{}, 1)}
	ex := pdf.NewExtractor(pdf.Options{Workers: 2, CacheDir: t.TempDir()})
	t.Cleanup(func() { ex.Close() })
	lib, err := library.Open(root, library.Options{Emit: rec.emit, Extract: ex, Workers: 2, Watch: w})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	if _, err := lib.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	return lib, rec
}

// watchInBackground runs lib.Watch until the returned stop is called.
func watchInBackground(t *testing.T, lib *library.Library) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- lib.Watch(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Watch: %v", err)
			}
		case <-time.After(time.Minute):
			var stacks strings.Builder
			pprof.Lookup("goroutine").WriteTo(&stacks, 2)
			t.Fatalf("Watch did not return a minute after its context ended; goroutines:\n%s", stacks.String())
		}
	}
}

// settled waits, re-checking after each library:changed event, until the
// index holds exactly what the folder holds, and fails with the difference
// when it does not within two minutes.
func settled(t *testing.T, lib *library.Library, rec *stormRecorder) {
	t.Helper()
	start := time.Now()
	timeout := time.After(2 * time.Minute)
	for {
		diff := indexDiff(t, lib)
		if diff == "" {
			t.Logf("the index matched the folder %v after the storm", time.Since(start).Round(time.Millisecond))
			return
		}
		select {
		case <-rec.changed:
		case <-timeout:
			t.Fatalf("two minutes after the storm the index does not match the folder (-folder +index):\n%s", diff)
		}
	}
}

// indexed is one paper or file as the comparison sees it.
type indexed struct {
	PDF    string // papers: the PDF's path
	Pages  int    // papers: its page count
	Status string // papers: ok for every storm paper
	Error  string // papers: none for every storm paper
	Title  string // papers: from its metadata.json
	Paper  string // files: the paper folder it is in
	Size   int64  // files
}

// indexDiff compares the index with a fresh scan of the folder: the same
// papers with the same PDF, page count and title, and the same text files
// with their paper and size. It returns "" when they are the same.
func indexDiff(t *testing.T, lib *library.Library) string {
	t.Helper()
	snap, err := vault.Scan(lib.Root())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]indexed{}
	for _, p := range snap.Papers {
		title := ""
		if p.Metadata != "" {
			var m struct{ Title string }
			data, _ := os.ReadFile(filepath.Join(snap.Root, p.Metadata))
			json.Unmarshal(data, &m)
			title = m.Title
		}
		want[p.Ref] = indexed{PDF: p.PDF, Pages: stormPDFs[filepath.Base(p.PDF)], Status: index.StatusOK, Title: title}
	}
	for _, f := range snap.Files {
		want[f.Path] = indexed{Paper: f.Paper, Size: f.Size}
	}
	got := map[string]indexed{}
	papers, err := lib.DB().Papers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		title := p.Title
		if p.TitleSource != "metadata.json" {
			title = ""
		}
		got[p.Ref] = indexed{PDF: p.PDFPath, Pages: p.Pages, Status: p.Status, Error: p.Error, Title: title}
	}
	rows, err := lib.DB().SQL().QueryContext(t.Context(), `SELECT path, paper_ref, size FROM files`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var path string
		var f indexed
		if err := rows.Scan(&path, &f.Paper, &f.Size); err != nil {
			t.Fatal(err)
		}
		got[path] = f
	}
	return cmp.Diff(want, got)
}

// storm churns a vault in bursts of file operations.
type storm struct {
	t      *testing.T
	root   string
	rng    *rand.Rand
	pdfs   map[string][]byte // corpus PDFs by name
	names  []string          // their names, in a fixed order
	target int               // file operations to make
	ops    int               // file operations made
	bursts int
	seq    int
	count  map[string]int // operations by kind
}

func newStorm(t *testing.T, root string, target int) *storm {
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("AGENTERO_STORM_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("storm seed %d (set AGENTERO_STORM_SEED to replay)", seed)
	s := &storm{t: t, root: root, rng: rand.New(rand.NewPCG(seed, 3)), pdfs: map[string][]byte{}, target: target, count: map[string]int{}}
	for name := range stormPDFs {
		data, err := os.ReadFile(filepath.Join(corpustest.Dir(), name))
		if err != nil {
			corpustest.Unavailable(t, "corpus paper missing: %v", err)
		}
		s.pdfs[name] = data
		s.names = append(s.names, name)
	}
	slices.Sort(s.names)
	return s
}

// run makes the storm: bursts of 10 to 70 operations back to back, each
// followed by a pause of up to 150 ms (so that some bursts merge into one
// change and some land while a sync runs).
func (s *storm) run() {
	for s.ops < s.target {
		s.bursts++
		for n := 10 + s.rng.IntN(60); n > 0 && s.ops < s.target; n-- {
			s.step()
		}
		time.Sleep(time.Duration(s.rng.IntN(150)) * time.Millisecond)
	}
}

// step makes one random change, falling back to a creation when there is
// nothing of the chosen kind to change.
func (s *storm) step() {
	switch r := s.rng.IntN(100); {
	case r < 30:
		s.newPaper()
	case r < 50:
		s.newNote()
	case r < 58:
		s.renamePaper()
	case r < 61:
		s.renameCollection()
	case r < 70:
		s.deletePaper()
	case r < 74:
		s.takeOutPDF()
	case r < 82:
		s.rewriteNote()
	case r < 90:
		s.renameNote()
	default:
		s.deleteNote()
	}
}

func (s *storm) did(kind string, ops int) {
	s.ops += ops
	s.count[kind]++
}

func (s *storm) tally() string {
	var parts []string
	for k, n := range s.count {
		parts = append(parts, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func (s *storm) path(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }

func (s *storm) write(rel string, data []byte) {
	if err := os.WriteFile(s.path(rel), data, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *storm) mkdir(rel string) {
	if err := os.MkdirAll(s.path(rel), 0o755); err != nil {
		s.t.Fatal(err)
	}
}

func (s *storm) rename(from, to string) {
	if err := os.Rename(s.path(from), s.path(to)); err != nil {
		s.t.Fatal(err)
	}
}

// pick returns a random match of a slash glob under the root, or "".
func (s *storm) pick(pattern string) string {
	matches, err := filepath.Glob(s.path(pattern))
	if err != nil {
		s.t.Fatal(err)
	}
	if len(matches) == 0 {
		return ""
	}
	rel, _ := filepath.Rel(s.root, matches[s.rng.IntN(len(matches))])
	return filepath.ToSlash(rel)
}

// newPaper makes papers/c<k>/p<n>/ with a PDF, a metadata.json and a
// NOTES.md, in one of a few collections.
func (s *storm) newPaper() {
	s.seq++
	dir := fmt.Sprintf("papers/c%d/p%d", s.rng.IntN(6), s.seq)
	name := s.names[s.rng.IntN(len(s.names))]
	s.mkdir(dir)
	s.write(dir+"/"+name, s.pdfs[name])
	s.write(dir+"/metadata.json", fmt.Appendf(nil, `{"title": "Storm paper %d"}`, s.seq))
	s.write(dir+"/NOTES.md", fmt.Appendf(nil, "# Notes on paper %d\n", s.seq))
	s.did("new paper", 4)
}

func (s *storm) newNote() {
	s.seq++
	dir := fmt.Sprintf("notes/n%d", s.rng.IntN(8))
	s.mkdir(dir)
	s.write(fmt.Sprintf("%s/note-%d.md", dir, s.seq), fmt.Appendf(nil, "note %d\n", s.seq))
	s.did("new note", 1)
}

// renamePaper moves a paper folder, sometimes into another collection.
func (s *storm) renamePaper() {
	from := s.pick("papers/*/p*")
	if from == "" {
		s.newPaper()
		return
	}
	s.seq++
	to := fmt.Sprintf("papers/c%d/p%d", s.rng.IntN(6), s.seq)
	s.mkdir(filepath.Dir(to))
	s.rename(from, to)
	s.did("rename paper", 1)
}

// renameCollection moves a whole collection of papers at once.
func (s *storm) renameCollection() {
	from := s.pick("papers/c*")
	if from == "" {
		s.newPaper()
		return
	}
	to := fmt.Sprintf("papers/c%d", 6+s.rng.IntN(1000))
	if _, err := os.Stat(s.path(to)); err == nil {
		return
	}
	s.rename(from, to)
	s.did("rename collection", 1)
}

func (s *storm) deletePaper() {
	dir := s.pick("papers/*/p*")
	if dir == "" {
		s.newPaper()
		return
	}
	if err := os.RemoveAll(s.path(dir)); err != nil {
		s.t.Fatal(err)
	}
	s.did("delete paper", 1)
}

// takeOutPDF deletes a paper's PDF: its folder, with its notes, stays.
func (s *storm) takeOutPDF() {
	pdf := s.pick("papers/*/p*/*.pdf")
	if pdf == "" {
		s.newPaper()
		return
	}
	if err := os.Remove(s.path(pdf)); err != nil {
		s.t.Fatal(err)
	}
	s.did("take out a PDF", 1)
}

func (s *storm) rewriteNote() {
	note := s.pick("notes/*/*.md")
	if note == "" {
		s.newNote()
		return
	}
	s.write(note, fmt.Appendf(nil, "rewritten %s\n", strings.Repeat("x", s.rng.IntN(500))))
	s.did("rewrite note", 1)
}

func (s *storm) renameNote() {
	note := s.pick("notes/*/*.md")
	if note == "" {
		s.newNote()
		return
	}
	s.seq++
	dir := fmt.Sprintf("notes/n%d", s.rng.IntN(8))
	s.mkdir(dir)
	s.rename(note, fmt.Sprintf("%s/moved-%d.md", dir, s.seq))
	s.did("rename note", 1)
}

func (s *storm) deleteNote() {
	note := s.pick("notes/*/*.md")
	if note == "" {
		s.newNote()
		return
	}
	if err := os.Remove(s.path(note)); err != nil {
		s.t.Fatal(err)
	}
	s.did("delete note", 1)
}
