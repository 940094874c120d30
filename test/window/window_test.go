// Package window tests the real desktop binary in a real WebKitGTK window
// under Xvfb: it opens the example vault and must show the library; then,
// driven by the keyboard through xdotool, it opens a paper from a search and
// asks the built-in agent about it in the sidebar, and must show the page
// and the answer. Every screenshot is kept in AGENTERO_ARTIFACTS.
package window

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
)

// TestWindow starts the binary named by AGENTERO_BIN on a copy of the example
// vault and takes screenshots until the library list is drawn, then opens a
// paper and asks about it.
func TestWindow(t *testing.T) {
	bin := os.Getenv("AGENTERO_BIN")
	if bin == "" {
		t.Skip("AGENTERO_BIN not set: run through `make test-window`")
	}
	for _, tool := range []string{"Xvfb", "/usr/bin/import", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	artifacts := artifactsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	display := startXvfb(t, ctx)
	vaultDir := filepath.Join(t.TempDir(), "vault")
	copyTree(t, "../../examples/vault", vaultDir)
	app := startApp(t, ctx, bin, display, vaultDir, filepath.Join(artifacts, "window.log"))
	logs := app.logs

	shot := filepath.Join(artifacts, "window-library.png")
	var last report
	deadline := time.Now().Add(90 * time.Second)
	shown := false
	for !shown && time.Now().Before(deadline) {
		if app.gone() {
			t.Fatalf("app exited early:\n%s", logs.String())
		}
		img, err := screenshot(ctx, display, shot)
		if err == nil {
			last = analyse(img)
			if last.libraryShown() && indexed(t, vaultDir) {
				// Once more, after the UI had time to reload the finished list.
				time.Sleep(time.Second)
				if img, err := screenshot(ctx, display, shot); err == nil && analyse(img).libraryShown() {
					t.Logf("library shown: %+v (screenshot %s)", analyse(img), shot)
					shown = true
					continue
				}
			}
		}
		time.Sleep(time.Second) // polling a display: there is nothing to wait on
	}
	if !shown {
		t.Fatalf("the window never showed the library: last screenshot %s: %+v\napp log:\n%s", shot, last, logs.String())
	}

	before, err := screenshot(ctx, display, shot)
	if err != nil {
		t.Fatal(err)
	}
	chatBefore := analyse(before).ChatLines

	// Open a paper the way a keyboard user does: search, Enter on the first hit.
	kb := keyboard{t: t, ctx: ctx, display: display}
	kb.focusWindow()
	kb.keys("ctrl+f")
	kb.typeText("residuals")
	time.Sleep(time.Second) // the search box debounces typing
	kb.keys("Return")
	paperShot := filepath.Join(artifacts, "window-paper.png")
	got := waitScreen(t, ctx, display, paperShot, 60*time.Second, func(r report) bool { return r.paperShown() })
	t.Logf("paper shown: %+v (screenshot %s)", got, paperShot)

	// Ask the built-in agent in the sidebar (Ctrl+I focuses its question box).
	kb.keys("ctrl+i")
	kb.typeText("What do the residual shadings show?")
	kb.keys("Return")
	answer := waitAnswer(t, ctx, vaultDir, 90*time.Second)
	answerShot := filepath.Join(artifacts, "window-answer.png")
	got = waitScreen(t, ctx, display, answerShot, 30*time.Second, func(r report) bool {
		return r.paperShown() && r.ChatLines >= chatBefore+8
	})
	t.Logf("answer shown: %+v, %d sources (screenshot %s)", got, len(answer.Sources), answerShot)
}

// indexed reports whether the app finished indexing the vault: every paper
// in its index has left the pending state.
func indexed(t *testing.T, vaultDir string) bool {
	db, err := index.Open(index.Path(vaultDir), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		return false
	}
	defer db.Close()
	papers, err := db.Papers(context.Background())
	if err != nil || len(papers) == 0 {
		return false
	}
	for _, p := range papers {
		if p.Status == index.StatusPending {
			return false
		}
	}
	return true
}

// startXvfb starts a virtual display and returns its name (":N").
func startXvfb(t *testing.T, ctx context.Context) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.CommandContext(ctx, "Xvfb", "-displayfd", "3", "-screen", "0", "1280x820x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { x.Process.Kill(); x.Wait() })
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("Xvfb did not report its display: %v", err)
	}
	return ":" + strings.TrimSpace(line)
}

func screenshot(ctx context.Context, display, file string) (image.Image, error) {
	cmd := exec.CommandContext(ctx, "/usr/bin/import", "-display", display, "-window", "root", "png:"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("import: %v: %s", err, out)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// report describes a screenshot: how varied it is, and how many separate
// lines of text-like ink each pane holds.
type report struct {
	Colors    int     // distinct colours (quantised) in the whole screen
	LeftLines int     // runs of rows with ink in the left pane (the library)
	PageLines int     // runs of rows with ink on white in the middle (a PDF page)
	PageWhite float64 // share of near-white pixels in the middle band
	ChatLines int     // runs of rows with ink in the right pane (the sidebar chat)
}

func (r report) libraryShown() bool { return r.Colors >= 16 && r.LeftLines >= 8 }

// paperShown: a white page with many lines of text fills the middle.
func (r report) paperShown() bool { return r.PageWhite >= 0.5 && r.PageLines >= 12 }

func analyse(img image.Image) report {
	b := img.Bounds()
	colors := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[(r>>12)<<8|(g>>12)<<4|bl>>12] = true
		}
	}
	at := func(pct int) int { return b.Min.X + b.Dx()*pct/100 }
	// The panes of a 1280 px window: library 0–23 %, viewer 23–70 %, chat 70–100 %.
	left := inkLines(img, at(0)+8, at(22), img.At(at(0)+12, b.Max.Y-4))
	page := inkLines(img, at(36), at(64), color.White)
	chat := inkLines(img, at(72), at(98), img.At(at(72)+4, b.Max.Y-4))
	white, total := 0, 0
	for y := b.Min.Y + b.Dy()/8; y < b.Max.Y; y += 2 {
		for x := at(36); x < at(64); x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r > 0xf000 && g > 0xf000 && bl > 0xf000 {
				white++
			}
			total++
		}
	}
	return report{Colors: len(colors), LeftLines: left, PageLines: page, PageWhite: float64(white) / float64(max(1, total)), ChatLines: chat}
}

// inkLines counts runs of rows, below a top band, that carry some ink (not a
// solid bar) against bg between x0 and x1.
func inkLines(img image.Image, x0, x1 int, bg color.Color) int {
	b := img.Bounds()
	br, bgc, bb, _ := bg.RGBA()
	inkRow := func(y int) bool {
		n := 0
		for x := x0; x < x1; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if absDiff(r, br)+absDiff(g, bgc)+absDiff(bl, bb) > 3*0x3000 {
				n++
			}
		}
		return n >= 6 && n < (x1-x0)*9/10
	}
	lines, in := 0, false
	for y := b.Min.Y + b.Dy()/8; y < b.Max.Y; y++ {
		ink := inkRow(y)
		if ink && !in {
			lines++
		}
		in = ink
	}
	return lines
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() && d.Name() == ".agentero" {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}
