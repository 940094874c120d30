package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/workspace"
)

// The example vault is found beside a binary built in the checkout and
// beside an installed one, copied into a folder of the user's with every
// PDF, made a vault, reopened as it is the second time; a folder of that
// name holding something else is left alone.
func TestExampleVault(t *testing.T) {
	repo, _ := filepath.Abs("../..")
	if got, want := workspace.ExampleSource(filepath.Join(repo, "build", "bin", "agentero")), filepath.Join(repo, "examples", "vault"); got != want {
		t.Errorf("beside a checkout's binary: %q, want %q", got, want)
	}
	prefix := t.TempDir()
	installed := filepath.Join(prefix, "share", "agentero", "examples", "vault")
	if err := os.MkdirAll(filepath.Join(installed, "papers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := workspace.ExampleSource(filepath.Join(prefix, "lib", "agentero", "agentero")); got != installed {
		t.Errorf("beside an installed binary: %q, want %q", got, installed)
	}
	if got := workspace.ExampleSource(filepath.Join(t.TempDir(), "agentero")); got != "" {
		t.Errorf("a binary with no example: %q", got)
	}

	src := filepath.Join(repo, "examples", "vault")
	dst := filepath.Join(t.TempDir(), workspace.ExampleName)
	got, err := workspace.CopyExample(src, dst)
	if err != nil || got != dst {
		t.Fatalf("CopyExample = %q, %v", got, err)
	}
	if !applink.IsVault(dst) {
		t.Error("the copy is not a vault")
	}
	pdfs, _ := filepath.Glob(filepath.Join(src, "papers", "*", "*.pdf"))
	copied, _ := filepath.Glob(filepath.Join(dst, "papers", "*", "*.pdf"))
	if len(pdfs) == 0 || len(copied) != len(pdfs) {
		t.Errorf("copied %d PDFs of %d", len(copied), len(pdfs))
	}
	note := filepath.Join(dst, "notes", "mine.md")
	if err := os.WriteFile(note, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := workspace.CopyExample(src, dst); err != nil {
		t.Fatalf("reopening the copy: %v", err)
	}
	if _, err := os.Stat(note); err != nil {
		t.Error("reopening the copy lost what the user added")
	}

	taken := filepath.Join(t.TempDir(), workspace.ExampleName)
	if err := os.WriteFile(taken, []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := workspace.CopyExample(src, taken); workspace.Code(err) != "invalid" {
		t.Errorf("a file in the way: %v (code %q), want invalid", err, workspace.Code(err))
	}
	if _, err := workspace.CopyExample("", dst); err == nil {
		t.Error("no example: no error")
	}
}
