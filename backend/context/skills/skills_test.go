package skills_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/skills"
)

func write(t *testing.T, root, name, text string) {
	t.Helper()
	dir := filepath.Join(root, ".agents", "skills", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScanAndBody: skills are listed by name with their descriptions; a
// SKILL.md without a name or description is a problem, not a skill; the
// body is returned without its front matter; a link out of the vault is
// never followed.
func TestScanAndBody(t *testing.T) {
	root := t.TempDir()
	write(t, root, "cite-check", "---\nname: cite-check\ndescription: \"Check citations: each opens its page\"\n---\n# Steps\n1. Open each source.\n")
	write(t, root, "b-summary", "---\nname: summarize-paper\ndescription: Summarize a paper section by section\n---\nRead the outline first.\n")
	write(t, root, "nameless", "---\ndescription: no name\n---\nx\n")
	write(t, root, "plain", "# no front matter\n")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "SKILL.md"), []byte("---\nname: escaped\ndescription: SECRET\n---\nSECRET\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, ".agents", "skills", "escape")); err != nil {
		t.Skip("symlinks not available:", err)
	}

	list, problems, err := skills.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "cite-check" || list[1].Name != "summarize-paper" || list[0].Description != "Check citations: each opens its page" {
		t.Fatalf("skills = %+v", list)
	}
	var said []string
	for _, p := range problems {
		said = append(said, p.Path+": "+p.Problem)
	}
	joined := strings.Join(said, "\n")
	if !strings.Contains(joined, "nameless/SKILL.md: the front matter gives no name") || !strings.Contains(joined, "plain/SKILL.md: no front matter") || strings.Contains(joined, "SECRET") {
		t.Errorf("problems:\n%s", joined)
	}
	sk, body, err := skills.Body(root, "summarize-paper")
	if err != nil || sk.Path != ".agents/skills/b-summary/SKILL.md" || body != "Read the outline first.\n" {
		t.Errorf("body = %q, %+v, %v", body, sk, err)
	}
	if _, _, err := skills.Body(root, "escaped"); !errors.Is(err, skills.ErrNotFound) {
		t.Errorf("a skill behind a link out of the vault: %v", err)
	}
	r := skills.Render(list, true)
	if !strings.Contains(r, "- cite-check: Check citations") || !strings.Contains(r, "context_read_skill") || strings.Contains(r, "Open each source") {
		t.Errorf("rendered with the tool:\n%s", r)
	}
	if r := skills.Render(list, false); strings.Contains(r, "context_read_skill") {
		t.Errorf("rendered without the tool names it:\n%s", r)
	}
}
