package window

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/internal/corpustest"
)

// TestWindowDrop drops a PDF and a folder holding another on the real
// window, as a file manager does (an XDND drag of text/uri-list, from the
// small GTK program testdata/dragsource.c, moved by xdotool): the app must
// ask the first import's question (answered from the keyboard: Enter is
// "Stay offline"), then add both papers, and still show itself, not the
// dropped PDF.
func TestWindowDrop(t *testing.T) {
	bin := os.Getenv("AGENTERO_BIN")
	if bin == "" {
		t.Skip("AGENTERO_BIN not set: run through `make test-window`")
	}
	for _, tool := range []string{"Xvfb", "/usr/bin/import", "xdotool", "gcc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	corpus := corpustest.NeedCorpus(t)
	artifacts := artifactsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// The drag source: GTK 3, which the app's own build needs too.
	source := filepath.Join(t.TempDir(), "dragsource")
	flags, err := exec.CommandContext(ctx, "pkg-config", "--cflags", "--libs", "gtk+-3.0").Output()
	if err != nil {
		t.Fatalf("pkg-config gtk+-3.0: %v", err)
	}
	cc := exec.CommandContext(ctx, "gcc", append([]string{"-o", source, "testdata/dragsource.c"}, strings.Fields(string(flags))...)...)
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("build the drag source: %v\n%s", err, out)
	}

	display := startXvfb(t, ctx)
	vaultDir := filepath.Join(t.TempDir(), "vault")
	copyTree(t, "../../examples/vault", vaultDir)
	before, _ := filepath.Glob(filepath.Join(vaultDir, "papers", "*", "*.pdf"))
	drops := t.TempDir()
	pdf := filepath.Join(drops, "peercoin.pdf")
	corpustest.CopyFile(t, filepath.Join(corpus, "peercoin.pdf"), pdf)
	folder := filepath.Join(drops, "reading")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	corpustest.CopyFile(t, filepath.Join(corpus, "bitcoin.pdf"), filepath.Join(folder, "bitcoin.pdf"))
	app := startApp(t, ctx, bin, display, vaultDir, filepath.Join(artifacts, "window-drop.log"))
	logs, home := app.logs, app.home
	waitScreen(t, ctx, display, filepath.Join(artifacts, "window-drop-before.png"), 90*time.Second, func(r report) bool {
		return r.libraryShown() && indexed(t, vaultDir)
	})

	// The source sits at the bottom right, over the app's window (with no
	// window manager, the last window mapped is on top).
	drag := exec.CommandContext(ctx, source, "1100", "700", pdf, folder)
	drag.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := drag.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := drag.Start(); err != nil {
		t.Fatal(err)
	}
	defer drag.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the drag source did not start: %q", lines.Text())
	}
	kb := keyboard{t: t, ctx: ctx, display: display}
	kb.run("mousemove", "1150", "735", "mousedown", "1")
	// GTK starts a drag once the pointer moved past its threshold; XDND
	// then follows the pointer over the app's window, step by step.
	for _, p := range [][2]string{{"1140", "730"}, {"1100", "700"}, {"1000", "600"}, {"800", "500"}, {"600", "420"}, {"500", "400"}, {"480", "390"}} {
		kb.run("mousemove", p[0], p[1])
		time.Sleep(200 * time.Millisecond) // the pointer's pace: each step is a separate XDND position message
	}
	time.Sleep(500 * time.Millisecond)
	kb.run("mouseup", "1")
	if !lines.Scan() || lines.Text() != "dropped" {
		t.Fatalf("the drop was not taken by the window: the drag source said %q\napp log:\n%s", lines.Text(), logs.String())
	}

	// The first import's question: Enter answers with its focused button,
	// "Stay offline". Until the question shows, Enter reaches nothing.
	settingsFile := filepath.Join(home, ".config", "agentero", "settings.json")
	var saved struct{ MetadataOnline, MetadataOnlineAsked bool }
	deadline := time.Now().Add(60 * time.Second)
	for !saved.MetadataOnlineAsked && time.Now().Before(deadline) {
		time.Sleep(time.Second) // the question shows once the settings are read
		kb.keys("Return")
		if data, err := os.ReadFile(settingsFile); err == nil {
			json.Unmarshal(data, &saved)
		}
	}
	if !saved.MetadataOnlineAsked || saved.MetadataOnline {
		t.Fatalf("after Enter on the question: %+v, want asked and offline (screenshot %s)\napp log:\n%s", saved,
			filepath.Join(artifacts, "window-drop-before.png"), logs.String())
	}

	// Both papers are added: the PDF, and the one in the folder.
	deadline = time.Now().Add(120 * time.Second)
	var after []string
	for time.Now().Before(deadline) {
		after, _ = filepath.Glob(filepath.Join(vaultDir, "papers", "*", "paper.pdf"))
		if len(after) >= 2 && indexed(t, vaultDir) {
			break
		}
		time.Sleep(time.Second) // polling the vault: there is nothing to wait on
	}
	var added []string
	for _, p := range after {
		added = append(added, filepath.Base(filepath.Dir(p)))
	}
	if len(added) != 2 || !strings.Contains(strings.Join(added, " "), "ppcoin") || !strings.Contains(strings.Join(added, " "), "bitcoin") {
		t.Fatalf("papers added by the drop: %v, want the PPCoin and the Bitcoin paper (the vault had %d PDFs before)\napp log:\n%s", added, len(before), logs.String())
	}
	// The app, not the dropped PDF, is what the window shows.
	got := waitScreen(t, ctx, display, filepath.Join(artifacts, "window-drop-after.png"), 30*time.Second, func(r report) bool { return r.libraryShown() })
	t.Logf("dropped and added %v; window %+v", added, got)
}
