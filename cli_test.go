package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

var binary string

// TestMain builds the real binary once. These few tests run it from
// outside, as a user or a script does; the commands themselves are tested
// in-process in package cli.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentero-cli-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build agentero: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs the binary with a config and cache folder of the test's own.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestIndexAndSearchJSON(t *testing.T) {
	root := corpustest.Vault(t, "bitcoin.pdf", "1985-Flajolet-Probabilistic-counting.pdf")
	// Without OCR (AGENTERO_OCR=off: neither Tesseract nor what another
	// test's OCR left in the shared cache): the scan stays without text,
	// and is listed so (backend/index tests OCR).
	t.Setenv("AGENTERO_OCR", "off")
	os.MkdirAll(filepath.Join(root, "papers", "broken"), 0o755)
	os.WriteFile(filepath.Join(root, "papers", "broken", "paper.pdf"), []byte("%PDF-1.4 garbage"), 0o644)

	out, errOut, code := run(t, "index", root, "--json")
	if code != 0 {
		t.Fatalf("index exit %d: %s", code, errOut)
	}
	var idx struct {
		Papers, Pages int
		NoTextPapers  []string
		Errors        []struct{ Ref, Error string }
		Seconds       *float64
	}
	if err := json.Unmarshal([]byte(out), &idx); err != nil {
		t.Fatalf("index --json: %v\n%s", err, out)
	}
	if idx.Papers != 3 || idx.Pages != 9+28 || idx.Seconds == nil {
		t.Errorf("index = %+v, want 3 papers and 37 pages", idx)
	}
	if len(idx.NoTextPapers) != 1 || idx.NoTextPapers[0] != "papers/1985-Flajolet-Probabilistic-counting" {
		t.Errorf("noTextPapers = %v", idx.NoTextPapers)
	}
	if len(idx.Errors) != 1 || idx.Errors[0].Ref != "papers/broken" || idx.Errors[0].Error == "" {
		t.Errorf("errors = %+v", idx.Errors)
	}

	out, errOut, code = run(t, "search", root, "proof-of-work chain", "--limit", "2", "--json")
	if code != 0 {
		t.Fatalf("search exit %d: %s", code, errOut)
	}
	var res struct {
		Hits []struct {
			Ref, Title, Snippet, Quote, CitationURI string
			Page                                    int
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out)
	}
	if len(res.Hits) == 0 || len(res.Hits) > 2 {
		t.Fatalf("hits = %+v, want 1 or 2", res.Hits)
	}
	h := res.Hits[0]
	if h.Ref != "papers/bitcoin" || h.CitationURI != "papers/bitcoin/bitcoin.pdf#page="+itoa(h.Page) || strings.ContainsAny(h.Snippet, "\x02\x03") {
		t.Errorf("first hit = %+v", h)
	}
	if h.Quote == "" || !strings.Contains(h.Snippet, h.Quote) || strings.Contains(h.Quote, "…") {
		t.Errorf("first hit's quote %q is not the words of its snippet %q", h.Quote, h.Snippet)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The exit statuses a script relies on: 0 ok, 1 failure with one line on
// stderr, 2 bad usage.
func TestExitStatuses(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"version"}, 0, ""},
		{[]string{"index"}, 2, "want 1 arguments"},
		{[]string{"index", "--bogus", t.TempDir()}, 2, "bogus"},
		{[]string{"--vault"}, 2, "usage:"},
		{[]string{"papers/x.pdf"}, 2, "usage:"}, // a positional argument must be an agentero:// link
		{[]string{"agentero://open?vault=/v&ref=papers/a", "extra"}, 2, "usage:"},
		{[]string{"index", filepath.Join(t.TempDir(), "missing")}, 1, "there is no folder"},
		{[]string{"search", "/etc/hostname", "x"}, 1, "not a folder"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.contains) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, errOut, tt.code, tt.contains)
			}
			if tt.code == 1 && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("failure should be one line, got %q", errOut)
			}
		})
	}
}

// On a machine without a display (a server, an SSH session), opening the
// app says so in one line instead of GTK's panic.
func TestNoDisplay(t *testing.T) {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(binary, "--vault", t.TempDir())
	cmd.Env = append(env, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
	var e bytes.Buffer
	cmd.Stderr = &e
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("agentero without a display: %v, want exit 1; stderr %s", err, e.String())
	}
	last := strings.TrimSpace(e.String())
	last = last[strings.LastIndexByte(last, '\n')+1:]
	if !strings.HasPrefix(last, "agentero: no display to open the window on") || strings.Contains(e.String(), "panic") {
		t.Errorf("stderr %q: want one line saying there is no display", e.String())
	}
}

// `agentero ask` with the built-in agent runs the whole path on a fresh
// machine: plan, grant, the agentero-context MCP server (this binary
// again), the agent (this binary again), usage and sources.
func TestAskBuiltinAgent(t *testing.T) {
	root := corpustest.Vault(t, "bitcoin.pdf")
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"surface":"sidebar","currentPaper":"papers/bitcoin"}`), 0o644)
	out, errOut, code := run(t, "ask", root, "--request", req, "--json", "How does the network prevent double spending?")
	if code != 0 {
		t.Fatalf("ask exit %d: %s", code, errOut)
	}
	var got struct {
		ConversationID, Content, StopReason, Agent string
		Sources                                    []string
		Session                                    struct {
			Action string
			MCP    bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, out)
	}
	if got.Agent != "builtin" || got.StopReason != "end_turn" || !got.Session.MCP || got.Session.Action != "new" {
		t.Errorf("ask = %+v", got)
	}
	if len(got.Sources) == 0 || !strings.HasPrefix(got.Sources[0], "papers/bitcoin/bitcoin.pdf#page=") ||
		!strings.Contains(got.Content, got.Sources[0]) {
		t.Errorf("sources %v do not point into the answer:\n%s", got.Sources, got.Content)
	}
	if !strings.Contains(errOut, "[tool] context_search") {
		t.Errorf("the turn's tool calls were not streamed to stderr:\n%s", errOut)
	}
}

// TestLaunchLinkToUnknownVault: started with an agentero:// link to a
// folder that is none of the user's vaults (it holds papers/, so it passes
// for a vault), the app refuses to open it, saying why and which flag
// opens it anyway, before any window; no state is written in that folder.
func TestLaunchLinkToUnknownVault(t *testing.T) {
	stranger := t.TempDir()
	os.MkdirAll(filepath.Join(stranger, "papers", "a"), 0o755)
	link := "agentero://open?vault=" + stranger + "&ref=papers/a"
	_, errOut, code := run(t, link)
	if code != 2 || !strings.Contains(errOut, stranger+", which is not one of your vaults") || !strings.Contains(errOut, "--trust-vault") {
		t.Errorf("exit %d, stderr %q; want 2, saying the folder is not one of your vaults and naming --trust-vault", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(stranger, ".agentero")); err == nil {
		t.Error("the unknown vault was opened: it has an .agentero folder")
	}
}
