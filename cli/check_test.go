package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

const raftPDF = "papers/in-search-of-an-understandable-consensus-algorithm/in-search-of-an-understandable-consensus-algorithm.pdf"

// checkOutput is `check --json`.
type checkOutput struct {
	Citations []citation.Check `json:"citations"`
	Summary   citation.Summary `json:"summary"`
}

// `check` reads a researcher's Markdown: each citation gets its line, page,
// verdict and why, and the summary counts them; it exits 0 whatever the
// verdicts.
func TestCheck(t *testing.T) {
	root := corpustest.Vault(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	notes := filepath.Join(t.TempDir(), "notes.md")
	md := "# Raft notes\n\n" +
		"Raft's election timeouts are 150–300 ms [p. 1](" + raftPDF + "#page=1).\n\n" +
		"> Raft uses randomized election timeouts to ensure that split votes are rare\n\n" +
		raftPDF + "#page=6\n\n" +
		"- A ghost paper [x](papers/ghost/ghost.pdf#page=2)\n" +
		"- Far past the end " + raftPDF + "#page=40\n"
	if err := os.WriteFile(notes, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "check", root, notes, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got checkOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	type row struct {
		Line      int
		URI       string
		Page      int
		Verdict   citation.Verdict
		FoundPage int
	}
	var rows []row
	for _, c := range got.Citations {
		rows = append(rows, row{c.Line, c.URI, c.Page, c.Verdict, c.FoundPage})
		if c.Why == "" {
			t.Errorf("line %d: no why", c.Line)
		}
	}
	want := []row{
		{3, raftPDF + "#page=1", 1, citation.WrongPage, 6},
		{7, raftPDF + "#page=6", 6, citation.Verified, 0},
		{9, "papers/ghost/ghost.pdf#page=2", 2, citation.Broken, 0},
		{10, raftPDF + "#page=40", 40, citation.Broken, 0},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
	if got.Summary.Citations != 4 || got.Summary.Verdicts[citation.Broken] != 2 || got.Summary.Verdicts[citation.Verified] != 1 {
		t.Errorf("summary %+v", got.Summary)
	}
	// The same, for a person.
	out, errOut, code = run(t, "check", root, notes)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range []string{"line 3\twrong-page\tp. 1\tpage 1 has", "line 7\tverified\tp. 6\tthe quote is on page 6", "4 citations: 1 verified, 1 wrong-page, 2 broken"} {
		if !strings.Contains(out, line) {
			t.Errorf("human output lacks %q:\n%s", line, out)
		}
	}
}

// Bad input is a sentence and exit 1, bad usage exit 2, and neither
// prints on stdout or makes a vault of a folder that is not one.
func TestCheckRefuses(t *testing.T) {
	root := corpustest.Vault(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	os.WriteFile(notes, []byte("Raft [x]("+raftPDF+"#page=6)\n"), 0o644)
	latin1 := filepath.Join(dir, "latin1.md")
	os.WriteFile(latin1, []byte("caf\xe9 "+raftPDF+"\n"), 0o644)
	binary := filepath.Join(dir, "binary.md")
	os.WriteFile(binary, []byte("a\x00b"), 0o644)
	big := filepath.Join(dir, "big.md")
	os.WriteFile(big, []byte(strings.Repeat("a", 5<<20)), 0o644)
	notVault := filepath.Join(dir, "plain-folder")
	os.MkdirAll(notVault, 0o755)
	os.WriteFile(filepath.Join(notVault, "x.pdf"), []byte("%PDF-1.4"), 0o644)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no file", []string{"check", root}, 2, "want 2 arguments"},
		{"unknown flag", []string{"check", root, notes, "--bogus"}, 2, "bogus"},
		{"no such file", []string{"check", root, filepath.Join(dir, "missing.md")}, 1, "there is no file"},
		{"a folder", []string{"check", root, dir}, 1, "is a folder, not a Markdown file"},
		{"not UTF-8", []string{"check", root, latin1}, 1, "is not UTF-8 text"},
		{"binary", []string{"check", root, binary}, 1, "is not UTF-8 text"},
		{"too large", []string{"check", root, big}, 1, "larger than 4 MB"},
		{"a device", []string{"check", root, "/dev/zero"}, 1, "not a regular file"},
		{"no such vault", []string{"check", filepath.Join(dir, "missing"), notes}, 1, "there is no folder"},
		{"a file as vault", []string{"check", notes, notes}, 1, "not a folder"},
		{"not a vault", []string{"check", notVault, notes}, 1, "is not a vault yet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.contains) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, errOut, tt.code, tt.contains)
			}
			if tt.code == 1 && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("failure should be one line, got %q", errOut)
			}
			if out != "" {
				t.Errorf("a failed command printed %q on stdout", out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(notVault, ".agentero")); err == nil {
		t.Errorf("check made a vault of %s", notVault)
	}
}

// `ask --json` prints the claim check of each citation of the answer
// (SPEC §12), here of the built-in agent's quotes of Raft.
func TestAskPrintsChecks(t *testing.T) {
	root := corpustest.Vault(t, "in-search-of-an-understandable-consensus-algorithm.pdf")
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"surface":"sidebar","currentPaper":"papers/in-search-of-an-understandable-consensus-algorithm"}`), 0o644)
	out, errOut, code := run(t, "ask", root, "--request", req, "--json", "How does Raft elect a leader?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Content string           `json:"content"`
		Sources []string         `json:"sources"`
		Checks  []citation.Check `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Checks) == 0 || len(got.Sources) == 0 {
		t.Fatalf("checks %v, sources %v:\n%s", got.Checks, got.Sources, got.Content)
	}
	cited := map[string]bool{}
	for _, c := range got.Checks {
		cited[c.URI] = true
		if c.Verdict != citation.Verified && c.Verdict != citation.Supported || c.Line < 1 {
			t.Errorf("%s (line %d): %s, %s", c.URI, c.Line, c.Verdict, c.Why)
		}
	}
	for _, s := range got.Sources {
		if !cited[s] {
			t.Errorf("source %s has no check", s)
		}
	}
}
