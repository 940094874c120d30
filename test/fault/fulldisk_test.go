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

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

// fullDiskEnv marks the run of TestFullDisk inside its namespaces.
const fullDiskEnv = "AGENTERO_TEST_FULL_DISK"

// Every writer of Agentero's state meets a full disk (a 16 MB tmpfs that
// holds the vault and the user's config and cache, filled up while the
// app's backend runs): the call fails with an error that says the disk is
// full, and what was there before — each conversation's state.json and
// transcript, the turn's grant, the settings, the agents, the last vault,
// the index — is intact, with no temporary file left beside it. The
// command line, which cannot even open the index then, says so in one
// line. Once space is freed, everything works again.
func TestFullDisk(t *testing.T) {
	if os.Getenv(fullDiskEnv) == "" && inNamespace(t, "TestFullDisk", fullDiskEnv+"=1") {
		return
	}
	corpustest.NeedCorpus(t)
	disk := t.TempDir()
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=16m"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v): run as root or where user namespaces are allowed", err)
	}
	t.Cleanup(func() { syscall.Unmount(disk, syscall.MNT_DETACH) })
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
	ws.AddAgent(acp.Agent{Name: "broken", Command: "/bin/false"})
	if err := ask("b", "broken", "What is proof-of-work?"); err == nil {
		t.Fatal("a turn with an agent that cannot start succeeded")
	}
	prefs := settings.Defaults()
	prefs.Budget.SearchCards++
	if err := cfg.SaveSettings(prefs); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.SaveAgent(ctx, workspace.SaveAgentRequest{Force: true, Agent: acp.Agent{Name: "other", Command: "/bin/true"}}); err != nil {
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
		ws.AddAgent(acp.Agent{Name: "peer-hangs", Command: node, Args: []string{script},
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
		filler := fill(t, disk)
		cancel() // the user stops the answer: the turn ends and stores what it has
		isDiskFull(t, <-done)
		now := state(t, chat)
		if diff := cmp.Diff(was.Messages, now.Messages); diff != "" {
			t.Errorf("the conversation's messages changed (-before +after):\n%s", diff)
		}
		if now.ProviderSessionID != "" {
			t.Errorf("the stored conversation keeps session %q of a turn that could not be stored", now.ProviderSessionID)
		}
		transcript(t, chat)
		os.Remove(filler)
		before = snapshotFiles(t, stateDirs...)
	})

	filler := fill(t, disk)
	t.Run("turn, conversation with a session", func(t *testing.T) {
		isDiskFull(t, ask("a", "", "And the fees?"))
	})
	t.Run("turn, conversation without a session", func(t *testing.T) {
		// The question is recorded first: one longer than what is left of
		// the transcript's last block is written only in part.
		st, err := os.Stat(filepath.Join(root, ".agentero", "chats", "b", "transcript.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		long := "And the fees? " + strings.Repeat("Tell me more. ", int(4096-st.Size()%4096)/14+1)
		isDiskFull(t, ask("b", "", long))
	})
	t.Run("save settings", func(t *testing.T) {
		prefs.Budget.SearchCards++
		isDiskFull(t, cfg.SaveSettings(prefs))
	})
	t.Run("save an agent", func(t *testing.T) {
		_, err := cfg.SaveAgent(ctx, workspace.SaveAgentRequest{Force: true, Agent: acp.Agent{Name: "another", Command: "/bin/true"}})
		isDiskFull(t, err)
	})
	t.Run("remember the vault", func(t *testing.T) {
		// A rewrite in place may fit in the file's own block: then it is
		// the new path, whole.
		last := filepath.Join(cfg.Dir(), "last-vault")
		if err := cfg.RememberVault(disk); err == nil {
			before[last] = []byte(disk + "\n")
		} else {
			isDiskFull(t, err)
		}
	})
	t.Run("command line", func(t *testing.T) {
		_, errOut, code := h.run(t, "ask", root, "--conversation", "a", "--json", "And the fees?")
		t.Logf("stderr: %s", errOut)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(errOut, "no space left on device") {
			t.Errorf("exit %d, stderr %q; want exit 1 and one line saying the disk is full", code, errOut)
		}
	})
	sameState(t, before, snapshotFiles(t, stateDirs...))

	// The index: a new paper to list and read, on a full disk.
	os.Remove(filler)
	corpustest.LayOut(t, root, "peercoin.pdf")
	filler = fill(t, disk)
	t.Run("index", func(t *testing.T) {
		_, err := ws.Sync(ctx)
		t.Logf("error: %v", err)
		if err == nil || !strings.Contains(err.Error(), "full") {
			t.Errorf("sync on a full disk: %v, want an error saying the disk is full", err)
		}
		checkIndex(t, root, map[string]int{"papers/bitcoin": 9, "papers/peercoin": 6})
	})
	sameState(t, before, snapshotFiles(t, stateDirs...))

	// Space again: everything works.
	os.Remove(filler)
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

func isDiskFull(t *testing.T, err error) {
	t.Helper()
	t.Logf("error: %v", err)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %v, want one that says the disk is full (ENOSPC)", err)
	}
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
