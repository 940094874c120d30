//go:build linux

package fault_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

// fullDiskEnv marks the run of TestFullDisk inside its namespaces;
// noTmpfsEnv makes it use its fallback, to try that.
const (
	fullDiskEnv = "AGENTERO_TEST_FULL_DISK"
	noTmpfsEnv  = "AGENTERO_FAULT_NO_TMPFS"
)

// Every writer of Agentero's state meets a full disk (a 16 MB tmpfs that
// holds the vault and the user's config and cache, filled up while the
// app's backend runs): the call fails with an error that says the disk is
// full, and what was there before — each conversation's state.json and
// transcript, the turn's grant, the settings, the agents, the last vault,
// the index — is intact, with no temporary file left beside it. The
// command line says so in one line. Once space is freed, everything works
// again.
//
// Where no tmpfs can be mounted (no user namespaces, no privilege), the
// disk refuses writes another way: the process's file size limit
// (RLIMIT_FSIZE) drops to zero, which every write to a file then fails
// (EFBIG) — the same refusal everywhere, though not the torn write of a
// disk that fills in the middle of one.
func TestFullDisk(t *testing.T) {
	if os.Getenv(fullDiskEnv) == "" && inNamespace(t, "TestFullDisk", fullDiskEnv+"=1") {
		return
	}
	corpustest.NeedCorpus(t)
	d := mountDisk(t)
	disk := d.dir
	h := home{dir: filepath.Join(disk, "home")}
	root := filepath.Join(disk, "vault")
	corpustest.LayOut(t, root, "bitcoin.pdf")
	cfg := workspace.NewConfig(filepath.Join(h.dir, "config", "agentero"), binary)
	ws, err := workspace.Open(root, workspace.Options{Config: cfg, CacheDir: filepath.Join(h.dir, "cache"), PoolSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	if _, err := ws.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	sidebar := plan.Request{Surface: "sidebar", CurrentPaper: "papers/bitcoin"}
	ask := func(conv, agent, question string) error {
		_, err := ws.Turn(ctx, workspace.AskRequest{ConversationID: conv, Agent: agent, Request: sidebar, Question: question}, nil)
		return err
	}

	// Before: a conversation with a session, one whose only turn failed
	// (a transcript, no session), settings, an agent, the last vault.
	if err := ask("a", "", "What is proof-of-work?"); err != nil {
		t.Fatal(err)
	}
	ws.AddAgent(agentconf.Agent{Name: "broken", Command: "/bin/false"})
	if err := ask("b", "broken", "What is proof-of-work?"); err == nil {
		t.Fatal("a turn with an agent that cannot start succeeded")
	}
	prefs := settings.Defaults()
	prefs.Budget.SearchCards++
	if err := cfg.SaveSettings(prefs); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.SaveAgent(ctx, workspace.SaveAgentRequest{Force: true, Agent: agentconf.Agent{Name: "other", Command: "/bin/true"}}); err != nil {
		t.Fatal(err)
	}
	if err := cfg.RememberVault(root); err != nil {
		t.Fatal(err)
	}
	stateDirs := []string{filepath.Join(root, ".agentero"), cfg.Dir()}
	before := snapshotFiles(t, stateDirs...)

	// The disk fills while an answer streams: the turn's end cannot store it.
	t.Run("turn ending on a full disk", func(t *testing.T) {
		agentCmd, rec := peerCommand(t)
		node, script, _ := strings.Cut(agentCmd, " ")
		ws.AddAgent(agentconf.Agent{Name: "peer-hangs", Command: node, Args: []string{script},
			Env: map[string]string{"PEER_RECORD": rec, "PEER_FAULT": "hang-mid-answer"}})
		if err := ask("c", "", "What is proof-of-work?"); err != nil {
			t.Fatal(err)
		}
		chat := filepath.Join(root, ".agentero", "chats", "c")
		was := state(t, chat)
		turnCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		streaming := make(chan struct{})
		var once sync.Once
		emit := func(name string, p any) {
			if e, ok := p.(events.AgentChunkEvent); ok && strings.Contains(e.Text, "partial answer") {
				once.Do(func() { close(streaming) })
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := ws.Turn(turnCtx, workspace.AskRequest{ConversationID: "c", Agent: "peer-hangs", Request: sidebar,
				Question: "Who pays the miners?"}, emit)
			done <- err
		}()
		select {
		case <-streaming:
		case err := <-done:
			t.Fatalf("the turn ended before the agent answered: %v", err)
		}
		d.fill(t)
		cancel() // the user stops the answer: the turn ends and stores what it has
		d.isFull(t, <-done)
		now := state(t, chat)
		if diff := cmp.Diff(was.Messages, now.Messages); diff != "" {
			t.Errorf("the conversation's messages changed (-before +after):\n%s", diff)
		}
		if now.ProviderSessionID != "" {
			t.Errorf("the stored conversation keeps session %q of a turn that could not be stored", now.ProviderSessionID)
		}
		transcript(t, chat)
		d.drain(t)
		before = snapshotFiles(t, stateDirs...)
	})

	d.fill(t)
	t.Run("turn, conversation with a session", func(t *testing.T) {
		d.isFull(t, ask("a", "", "And the fees?"))
	})
	t.Run("turn, conversation without a session", func(t *testing.T) {
		// The question is recorded first: one longer than what is left of
		// the transcript's last block is written only in part.
		st, err := os.Stat(filepath.Join(root, ".agentero", "chats", "b", "transcript.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		long := "And the fees? " + strings.Repeat("Tell me more. ", int(4096-st.Size()%4096)/14+1)
		d.isFull(t, ask("b", "", long))
	})
	t.Run("save settings", func(t *testing.T) {
		prefs.Budget.SearchCards++
		d.isFull(t, cfg.SaveSettings(prefs))
	})
	t.Run("save an agent", func(t *testing.T) {
		_, err := cfg.SaveAgent(ctx, workspace.SaveAgentRequest{Force: true, Agent: agentconf.Agent{Name: "another", Command: "/bin/true"}})
		d.isFull(t, err)
	})
	t.Run("remember the vault", func(t *testing.T) {
		// A rewrite in place may fit in the file's own block: then it is
		// the new path, whole.
		last := filepath.Join(cfg.Dir(), "last-vault")
		if err := cfg.RememberVault(disk); err == nil {
			before[last] = []byte(disk + "\n")
		} else {
			d.isFull(t, err)
		}
	})
	t.Run("command line", func(t *testing.T) {
		if d.filler == "" {
			// Under the file size limit, which refuses even writes within
			// a file's size as no disk does, the command's failed opening
			// of the index leaves its shared memory in a state that kills
			// the app (SIGBUS in SQLite) once writes are taken again.
			t.Skip("the command line meets a full disk on a tmpfs only")
		}
		_, errOut, code := h.run(t, "ask", root, "--conversation", "a", "--json", "And the fees?")
		t.Logf("stderr: %s", errOut)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(errOut, d.says) {
			t.Errorf("exit %d, stderr %q; want exit 1 and one line saying the disk is full", code, errOut)
		}
	})
	sameState(t, before, snapshotFiles(t, stateDirs...))

	// The index: a new paper to list and read, on a full disk.
	d.drain(t)
	corpustest.LayOut(t, root, "peercoin.pdf")
	d.fill(t)
	t.Run("index", func(t *testing.T) {
		_, err := ws.Sync(ctx)
		t.Logf("error: %v", err)
		if err == nil || !strings.Contains(err.Error(), d.sqlite) {
			t.Errorf("sync on a full disk: %v, want an error saying %q", err, d.sqlite)
		}
		checkIndex(t, root, map[string]int{"papers/bitcoin": 9, "papers/peercoin": 6})
	})
	sameState(t, before, snapshotFiles(t, stateDirs...))
	d.drain(t)

	// Space again: everything works.
	if _, err := ws.Sync(ctx); err != nil {
		t.Fatalf("sync once space is back: %v", err)
	}
	if got := checkIndex(t, root, map[string]int{"papers/bitcoin": 9, "papers/peercoin": 6}); len(got) != 2 {
		t.Errorf("papers indexed once space is back: %v, want both", got)
	}
	for _, conv := range []string{"a", "b"} {
		if err := ask(conv, "", "And the fees?"); err != nil {
			t.Errorf("turn in %s once space is back: %v", conv, err)
		}
		if !asked(transcript(t, filepath.Join(root, ".agentero", "chats", conv)), "And the fees?") {
			t.Errorf("conversation %s: the question asked once space was back is not in the transcript", conv)
		}
	}
}

// fullDisk is a folder whose file system can be made to refuse writes.
type fullDisk struct {
	dir    string
	says   string           // what an error says when a write is refused
	sqlite string           // what SQLite's error says then
	errno  syscall.Errno    // the refusal
	filler string           // tmpfs: the file that fills it
	limit  syscall.Rlimit   // no tmpfs: the file size limit to restore
	fill   func(*testing.T) // refuse writes from now on
	drain  func(*testing.T) // take them again
}

// mountDisk mounts a 16 MB tmpfs for the suite or, where that is not
// allowed, falls back to the file size limit.
func mountDisk(t *testing.T) *fullDisk {
	t.Helper()
	d := &fullDisk{dir: t.TempDir()}
	err := errors.New(noTmpfsEnv + " is set")
	if os.Getenv(noTmpfsEnv) == "" {
		err = syscall.Mount("tmpfs", d.dir, "tmpfs", 0, "size=16m")
	}
	if err == nil {
		t.Cleanup(func() { syscall.Unmount(d.dir, syscall.MNT_DETACH) })
		d.says, d.sqlite, d.errno = "no space left on device", "database or disk is full", syscall.ENOSPC
		d.fill = func(t *testing.T) { d.filler = fill(t, d.dir) }
		d.drain = func(t *testing.T) {
			if err := os.Remove(d.filler); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	t.Logf("no tmpfs here (%v): writes are refused by a file size limit of zero instead", err)
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &d.limit); err != nil {
		t.Skipf("neither a tmpfs nor a file size limit is available: %v", err)
	}
	d.says, d.sqlite, d.errno = "file too large", "file too large", syscall.EFBIG
	d.fill = func(t *testing.T) {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: d.limit.Max}); err != nil {
			t.Fatal(err)
		}
	}
	d.drain = func(t *testing.T) {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &d.limit); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_FSIZE, &d.limit) })
	return d
}

// isFull checks that err is the disk's refusal.
func (d *fullDisk) isFull(t *testing.T, err error) {
	t.Helper()
	t.Logf("error: %v", err)
	if !errors.Is(err, d.errno) {
		t.Errorf("error %v, want one that says the disk is full (%s)", err, d.says)
	}
}

// fill writes a file in dir until its file system is full, and returns it.
func fill(t *testing.T, dir string) string {
	t.Helper()
	f, err := os.CreateTemp(dir, "filler-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte{'x'}, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// Whatever is left is smaller than a chunk: fill it too.
	for _, n := range []int{4096, 512, 1} {
		for {
			if _, err := f.Write(chunk[:n]); err != nil {
				break
			}
		}
	}
	return f.Name()
}

// snapshotFiles reads every file under dirs, by path.
func snapshotFiles(t *testing.T, dirs ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			out[path] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sameState checks the state files after the full disk against before:
// each file that was there is unchanged, except that a transcript may have
// grown by whole lines; the index files are checked by checkIndex instead;
// nothing else (a temporary file) is left.
func sameState(t *testing.T, before, after map[string][]byte) {
	t.Helper()
	for path, old := range before {
		if strings.HasPrefix(filepath.Base(path), "index.sqlite") {
			continue
		}
		now, ok := after[path]
		switch {
		case !ok:
			t.Errorf("%s is gone", path)
		case filepath.Base(path) == "transcript.jsonl":
			if !bytes.HasPrefix(now, old) {
				t.Errorf("%s was rewritten:\nbefore %q\nafter  %q", path, old, now)
			}
			transcript(t, filepath.Dir(path))
		case !bytes.Equal(now, old):
			t.Errorf("%s changed:\nbefore %q\nafter  %q", path, old, now)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok && !strings.HasPrefix(filepath.Base(path), "index.sqlite") {
			t.Errorf("%s appeared", path)
		}
	}
}
