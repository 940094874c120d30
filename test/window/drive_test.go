package window

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// keyboard drives the window through xdotool, as a keyboard user would.
type keyboard struct {
	t       *testing.T
	ctx     context.Context
	display string
}

func (k keyboard) run(args ...string) {
	k.t.Helper()
	cmd := exec.CommandContext(k.ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+k.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		k.t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
}

// focusWindow gives the app's window the keyboard: there is no window
// manager under Xvfb, so a click inside it does.
func (k keyboard) focusWindow() {
	k.t.Helper()
	k.run("mousemove", "640", "420", "click", "1")
}

func (k keyboard) keys(keys ...string) {
	k.t.Helper()
	k.run(append([]string{"key", "--clearmodifiers"}, keys...)...)
}

func (k keyboard) typeText(s string) {
	k.t.Helper()
	k.run("type", "--delay", "30", s)
}

// waitScreen takes screenshots into file until ok accepts one.
func waitScreen(t *testing.T, ctx context.Context, display, file string, within time.Duration, ok func(report) bool) report {
	t.Helper()
	var last report
	var shotErr error
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		var img image.Image
		if img, shotErr = screenshot(ctx, display, file); shotErr == nil {
			last = analyse(img)
			if ok(last) {
				return last
			}
		}
		time.Sleep(500 * time.Millisecond) // polling a display: there is nothing to wait on
	}
	if shotErr != nil {
		t.Fatalf("the window never showed what was expected: the last screenshot failed: %v", shotErr)
	}
	t.Fatalf("the window never showed what was expected: last screenshot %s: %+v", file, last)
	return last
}

// artifactsDir is where screenshots and logs are kept: AGENTERO_ARTIFACTS,
// made when it is not there yet (a clean clone), else a temporary folder.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("AGENTERO_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

type storedMessage struct {
	Role    string   `json:"role"`
	Content string   `json:"content"`
	Sources []string `json:"sources"`
	Error   string   `json:"error"`
}

// waitAnswer waits until a sidebar conversation of the vault holds an
// answer, as the app stores it in .agentero/chats/paper.*/state.json, and
// fails on a stored error.
func waitAnswer(t *testing.T, ctx context.Context, vaultDir string, within time.Duration) storedMessage {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		files, _ := filepath.Glob(filepath.Join(vaultDir, ".agentero", "chats", "paper.*", "state.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			var c struct {
				Messages []storedMessage `json:"messages"`
			}
			if json.Unmarshal(data, &c) != nil {
				continue
			}
			for _, m := range c.Messages {
				if m.Error != "" {
					t.Fatalf("the turn failed: %s", m.Error)
				}
				if m.Role == "assistant" && m.Content != "" {
					return m
				}
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Fatalf("no answer was stored in %s within %v", vaultDir, within)
	return storedMessage{}
}

// runningApp is the app a test started: what it printed so far, its home
// folder, and a channel closed when it exits.
type runningApp struct {
	logs   *syncBuffer
	home   string
	exited chan struct{}
}

// startApp starts the app on vaultDir on display, with a home of its own,
// and stops it when the test ends (an interrupt, then a kill after 5 s),
// writing what it printed to logFile.
func startApp(t *testing.T, ctx context.Context, bin, display, vaultDir, logFile string) *runningApp {
	t.Helper()
	a := &runningApp{logs: &syncBuffer{}, home: t.TempDir(), exited: make(chan struct{})}
	app := exec.CommandContext(ctx, bin, "--vault", vaultDir)
	app.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+a.home,
		"XDG_CONFIG_HOME="+filepath.Join(a.home, ".config"), "XDG_CACHE_HOME="+filepath.Join(a.home, ".cache"),
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "NO_AT_BRIDGE=1")
	app.Stdout, app.Stderr = a.logs, a.logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { app.Wait(); close(a.exited) }()
	t.Cleanup(func() {
		app.Process.Signal(os.Interrupt)
		select {
		case <-a.exited:
		case <-time.After(5 * time.Second):
			app.Process.Kill()
			<-a.exited
		}
		os.WriteFile(logFile, a.logs.Bytes(), 0o644)
	})
	return a
}

// gone says whether the app has exited.
func (a *runningApp) gone() bool {
	select {
	case <-a.exited:
		return true
	default:
		return false
	}
}

// syncBuffer is a bytes.Buffer the app's output goes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func (b *syncBuffer) String() string { return string(b.Bytes()) }
