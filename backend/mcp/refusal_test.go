package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

// TestRefusals: every way out of the grant gets the one refusal text, which
// names no path. The grant holds raft, paxos-made-simple, attention and the
// directory notes/consensus.
func TestRefusals(t *testing.T) {
	s := start(t, usual())
	refused := grant.ErrRefused.Error()
	for _, c := range hostileRefs() {
		t.Run(c.name, func(t *testing.T) {
			for _, tool := range []string{"context_read", "paper_relations"} {
				got := s.fails(tool, map[string]any{"ref": c.ref})
				if got != refused {
					t.Errorf("%s %q: %q, want the uniform refusal", tool, c.ref, got)
				}
			}
		})
	}
	refusalsOfNumbers(t, s)
}

// hostileRefs are the refs TestRefusals holds to the uniform refusal (and
// the whole-vault server those that leave the vault or reach its state).
func hostileRefs() []struct{ name, ref string } {
	return []struct{ name, ref string }{
		{"dot-dot", "../outside"},
		{"dot-dot inside a path", "papers/../notes/private/secret.md"},
		{"dot-dot from a granted directory", "notes/consensus/../private/secret.md"},
		{"dot-dot from a granted paper", paxos + "/../bitcoin/bitcoin.pdf"},
		{"absolute", "/etc/passwd"},
		{"absolute inside the vault", filepath.Join(vaultDir, "notes", "consensus", "raft.md")},
		{"home", "~/notes/consensus/raft.md"},
		{"bare home", "~"},
		{"url-encoded dot-dot", "%2e%2e/%2e%2e/etc/passwd"},
		{"url-encoded slash", "notes/consensus%2f..%2fprivate%2fsecret.md"},
		{"url-encoded from a granted paper", paxos + "/%2e%2e/bitcoin/bitcoin.pdf"},
		{"double-encoded", "notes/consensus/%252e%252e/private/secret.md"},
		{"double-encoded slash", "%252e%252e%252f%252e%252e%252fetc%252fpasswd"},
		{"NUL", "notes/consensus/raft.md\x00.pdf"},
		{"encoded NUL", "notes/consensus/raft.md%00"},
		{"backslash", `notes\consensus\raft.md`},
		{"sibling-prefix paper", paxos + "-evil/NOTES.md"},
		{"sibling-prefix paper folder", paxos + "-evil"},
		{"sibling-prefix directory", "notes/consensus-evil/sibling.md"},
		{"symlink out of the directory", "notes/consensus/escape.md"},
		{"symlink chain out", "notes/consensus/hop1.md"},
		{"symlinked folder out", "notes/consensus/private/secret.md"},
		{"symlinked folder out, listed", "notes/consensus/private"},
		{"symlink out of the vault", "notes/consensus/outside.md"},
		{"symlink to the state folder", "notes/consensus/rules-link.md"},
		{"symlink to another paper's PDF", paxos + "/leak.pdf"},
		{"symlink to another paper's folder", paxos + "/leak-dir"},
		{"through a symlinked paper folder", paxos + "/leak-dir/bitcoin.pdf"},
		{"symlink to the sibling", paxos + "/evil-notes.md"},
		{"symlink to the index", paxos + "/state/index.sqlite"},
		{"state folder", ".agentero"},
		{"index", ".agentero/index.sqlite"},
		{"grants", ".agentero/context-sessions"},
		{"state under a granted path", "notes/consensus/.agentero/x"},
		{"ungranted paper", bitcoin},
		{"ungranted paper's PDF", pdfOf(bitcoin)},
		{"ungranted paper's citation", pdfOf(bitcoin) + "#page=1"},
		{"ungranted paper's citation with quote", pdfOf(bitcoin) + "#page=1&quote=peer"},
		{"ungranted note", "notes/private/secret.md"},
		{"parent of a grant", "notes"},
		{"papers folder", "papers"},
		{"a PDF under a directory grant is granted only as a paper", "notes/consensus/x.pdf"},
		{"dot", "."},
		{"empty path of a citation", "#page=1"},
		{"dot-dot in a citation", "../outside.pdf#page=1"},
		{"dot-dot in a citation with a wrong fragment", "../outside.pdf#zoom=2"},
		{"state folder in a citation", ".agentero/index.sqlite#page=1&quote=x"},
		{"doi URL", "https://doi.org/10.1145/2815400.2815428"},
		{"file URL", "file:///etc/passwd"},
		{"hidden file", "notes/consensus/dir-many/.hidden"},
	}
}

func refusalsOfNumbers(t *testing.T, s *session) {
	// Refusals of numbers and names: clear errors that name no path.
	others := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"page past the end", "context_read", map[string]any{"ref": raft, "mode": "page", "page": 18}},
		{"page zero", "context_read", map[string]any{"ref": raft, "mode": "page", "page": 0}},
		{"huge page", "context_read", map[string]any{"ref": raft, "mode": "page", "page": 1e15}},
		{"page past the end in a citation", "context_read", map[string]any{"ref": pdfOf(raft) + "#page=400"}},
		{"page in a citation is not a number", "context_read", map[string]any{"ref": pdfOf(raft) + "#page=3;rm"}},
		{"unknown fragment", "context_read", map[string]any{"ref": pdfOf(raft) + "#zoom=2"}},
		{"absurd search limit", "context_search", map[string]any{"query": "raft", "limit": 1000000}},
		{"negative search limit", "context_search", map[string]any{"query": "raft", "limit": -5}},
		{"absurd relations limit", "paper_relations", map[string]any{"ref": raft, "limit": 1 << 31}},
		{"unknown mode", "context_read", map[string]any{"ref": raft, "mode": "../../etc"}},
		{"unknown kind", "paper_relations", map[string]any{"ref": raft, "kind": "/etc/passwd"}},
		{"forged cursor", "context_read", map[string]any{"ref": raft, "mode": "full", "cursor": "YzE6LTE6YWJj"}},
		{"huge cursor", "context_read", map[string]any{"ref": raft, "mode": "full", "cursor": strings.Repeat("A", 5000)}},
		{"huge ref", "context_read", map[string]any{"ref": strings.Repeat("a/", 2000)}},
		{"unknown argument", "context_read", map[string]any{"ref": raft, "path": "/etc/passwd"}},
		{"ref of the wrong type", "context_read", map[string]any{"ref": []string{"/etc/passwd"}}},
	}
	for _, c := range others {
		t.Run(c.name, func(t *testing.T) {
			got := s.fails(c.tool, c.args)
			for _, leak := range []string{"/etc", "papers/", vaultDir, "passwd"} {
				if strings.Contains(got, leak) {
					t.Errorf("%q names %q", got, leak)
				}
			}
		})
	}
}

// TestServeFails: the server exits 1 with one clear line when it has
// nothing it may serve.
func TestServeFails(t *testing.T) {
	needVault(t)
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed.json")
	os.WriteFile(malformed, []byte(`{"version": 1, "vault": `), 0o644)
	unknown := filepath.Join(dir, "unknown.json")
	os.WriteFile(unknown, []byte(`{"version": 1, "surprise": true}`), 0o644)

	gone := t.TempDir()
	g := grantOf(grant.DefaultBudget(), grant.Source{Kind: grant.KindPaper, Ref: raft})
	g.Vault = gone
	gonePath, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	goneCopy := filepath.Join(dir, "gone.json")
	data, _ := os.ReadFile(gonePath)
	os.WriteFile(goneCopy, data, 0o644)
	os.RemoveAll(gone)

	noIndex := t.TempDir()
	g = grantOf(grant.DefaultBudget(), grant.Source{Kind: grant.KindDirectory, Ref: "notes"})
	g.Vault = noIndex
	noIndexPath, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "nope.json"), "does not exist"},
		{"malformed", malformed, "is not valid"},
		{"unknown fields", unknown, "is not valid"},
		{"vault gone", goneCopy, "vault of this grant is gone"},
		{"no index", noIndexPath, "no index yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary, "--agentero-context-mcp", c.path)
			cmd.Env = testEnv()
			cmd.Stdin = strings.NewReader("")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1", err)
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) || stdout.Len() != 0 {
				t.Errorf("stderr %q (want one line saying %q), stdout %q", msg, c.want, stdout.String())
			}
		})
	}
}
