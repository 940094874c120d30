package window

import (
	"context"
	"encoding/json"
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
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if img, err := screenshot(ctx, display, file); err == nil {
			last = analyse(img)
			if ok(last) {
				return last
			}
		}
		time.Sleep(500 * time.Millisecond) // polling a display: there is nothing to wait on
	}
	t.Fatalf("the window never showed what was expected: last screenshot %s: %+v", file, last)
	return last
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
