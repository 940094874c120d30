package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/events"
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

// TestSections: the viewer's outline panel lists the open PDF's sections
// (here headings found on the pages: Paxos Made Simple has no outline);
// a PDF that is no paper's is not found.
func TestSections(t *testing.T) {
	paxos := "paxos-made-simple.pdf"
	root := corpustest.Vault(t, paxos)
	f := open(t, root, workspace.Options{PoolSize: -1})
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	secs, err := f.ws.Sections(background(), corpustest.Ref(paxos)+"/"+paxos)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range secs {
		got = append(got, fmt.Sprintf("%d %d %s", s.Page, s.Level, s.Title))
	}
	want := []string{"2 1 Abstract", "3 1 Contents", "4 1 1 Introduction", "4 1 2 The Consensus Algorithm", "4 2 2.1 The Problem",
		"5 2 2.2 Choosing a Value", "9 2 2.3 Learning a Chosen Value", "10 2 2.4 Progress", "10 2 2.5 The Implementation",
		"11 1 3 Implementing a State Machine", "14 1 References"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if _, err := f.ws.Sections(background(), "papers/missing/missing.pdf"); workspace.Code(err) != events.CodeNotFound {
		t.Errorf("a PDF that is no paper's: %v, want not found", err)
	}
}
