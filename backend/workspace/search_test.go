package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestSourceExists: a citation opens when it is a citation URI of a file
// in the vault, however it encodes the path, or a DOI or arXiv link;
// anything else does not. Exports name a page by its printed label.
func TestSourceExists(t *testing.T) {
	omega := "implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf"
	root := corpustest.Vault(t, omega)
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "a b.md"), []byte("notes"), 0o644)
	f := open(t, root, workspace.Options{PoolSize: -1})
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	pdf := corpustest.Ref(omega) + "/" + omega
	for uri, want := range map[string]bool{
		pdf:                            true,
		pdf + "#page=3&quote=a+b":      true,
		"notes/a%20b.md":               true,
		"notes/a b.md":                 true,
		"https://doi.org/10.1/x":       true,
		"https://arxiv.org/abs/1706.1": true,
		"papers/missing/missing.pdf":   false,
		"notes":                        false, // a folder
		"../etc/passwd":                false,
		".agentero/index.sqlite":       false,
		"https://evil.example/x":       false,
		"#page=1":                      false,
		pdf + "#page=0":                false,
	} {
		if got := f.ws.SourceExists(uri); got != want {
			t.Errorf("SourceExists(%q) = %v, want %v", uri, got, want)
		}
	}
	if l, err := f.ws.PageLabel(background(), corpustest.Ref(omega), 3); err != nil || l != "180" {
		t.Errorf("the label of page 3 = %q, %v; want the printed 180", l, err)
	}
}
