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

// TestMain builds the real binary once; the command line is tested from
// outside, as a user or a script runs it.
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

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
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

func corpusVault(t *testing.T, files ...string) string {
	t.Helper()
	return corpustest.Vault(t, files...)
}

func TestIndexAndSearchJSON(t *testing.T) {
	root := corpusVault(t, "bitcoin.pdf", "1985-Flajolet-Probabilistic-counting.pdf")
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
			Ref, Title, Snippet, CitationURI string
			Page                             int
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
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestCommandLineErrors(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"index"}, 2, "want 1 arguments"},
		{[]string{"search", t.TempDir()}, 2, "want 2 arguments"},
		{[]string{"search", t.TempDir(), "x", "--limit", "0"}, 2, "--limit"},
		{[]string{"index", "--bogus", t.TempDir()}, 2, "bogus"},
		{[]string{"index", filepath.Join(t.TempDir(), "missing")}, 1, "no such file"},
		{[]string{"search", "/etc/hostname", "x"}, 1, "not a folder"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:1], " "), func(t *testing.T) {
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

func TestPlanWritesGrant(t *testing.T) {
	root := corpusVault(t, "bitcoin.pdf", "peercoin.pdf")
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"surface":"sidebar","currentPaper":"papers/bitcoin",
		"selections":[{"sourcePath":"papers/bitcoin/bitcoin.pdf","page":2,"text":"timestamp server"}],
		"mentions":[{"kind":"paper","path":"papers/peercoin"},{"kind":"directory","path":"../.."}]}`), 0o644)
	out, errOut, code := run(t, "plan", root, "--request", req, "--runtime-id", "conv-7", "--json")
	if code != 0 {
		t.Fatalf("plan exit %d: %s", code, errOut)
	}
	var p struct {
		Mode, Fingerprint, Prompt, GrantPath string
		Allowed                              []struct{ Kind, Ref string }
		Evidence                             []struct{ Ref, CitationURI string }
		Refused                              []struct{ Kind, Path string }
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if p.Mode != "mcp" || len(p.Allowed) != 2 || len(p.Refused) != 1 || p.Evidence[0].CitationURI != "papers/bitcoin/bitcoin.pdf#page=2" {
		t.Errorf("plan = %+v", p)
	}
	if want := filepath.Join(root, ".agentero", "context-sessions", "conv-7", "grant.json"); p.GrantPath != want {
		t.Errorf("grantPath = %q, want %q", p.GrantPath, want)
	}
	if _, err := os.Stat(p.GrantPath); err != nil {
		t.Errorf("grant not written: %v", err)
	}
	if !strings.Contains(p.Prompt, "> timestamp server") {
		t.Errorf("prompt lacks the quote:\n%s", p.Prompt)
	}

	os.WriteFile(req, []byte(`{"surface":"quickChat","remote":true,"currentPaper":"papers/bitcoin"}`), 0o644)
	out, _, code = run(t, "plan", root, "--request", req, "--runtime-id", "conv-8", "--json")
	json.Unmarshal([]byte(out), &p)
	if code != 0 || p.Mode != "prompt-only" || !strings.Contains(p.Prompt, "cannot read the vault") {
		t.Errorf("remote plan: exit %d mode %q", code, p.Mode)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "context-sessions", "conv-8")); err == nil {
		t.Error("a prompt-only plan wrote a grant")
	}
	for _, bad := range [][]string{{"plan", root}, {"plan", root, "--request", req, "--runtime-id", "../x"}} {
		if _, _, code := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
