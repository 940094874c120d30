package window

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
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
