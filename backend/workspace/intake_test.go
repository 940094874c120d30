package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestInspectFolderWritesNothing: a folder of loose PDFs, or an empty one,
// is not a vault; inspecting it writes nothing, and the error's code is
// the one the UI switches on.
func TestInspectFolderWritesNothing(t *testing.T) {
	loose := t.TempDir()
	corpustest.CopyFile(t, filepath.Join(corpustest.NeedCorpus(t), "bitcoin.pdf"), filepath.Join(loose, "bitcoin.pdf"))
	for _, dir := range []string{loose, t.TempDir()} {
		f, err := workspace.InspectFolder(dir)
		if !errors.Is(err, workspace.ErrNotVault) || workspace.Code(err) != events.CodeNotVault {
			t.Fatalf("InspectFolder(%s) = %v (code %q), want not a vault", dir, err, workspace.Code(err))
		}
		if f == nil || f.Found.Vault {
			t.Fatalf("folder = %+v", f)
		}
		if _, err := os.Stat(filepath.Join(dir, ".agentero")); err == nil {
			t.Errorf("%s got a .agentero/", dir)
		}
	}
	if _, err := workspace.InspectFolder(loose); !strings.Contains(err.Error(), "it holds 1 PDF but no papers/ folder") {
		t.Errorf("err = %v", err)
	}
	vault := corpustest.Vault(t, "bitcoin.pdf")
	if f, err := workspace.InspectFolder(vault); err != nil || !f.Found.Vault || f.Found.Papers != 1 {
		t.Errorf("a vault: %+v, %v", f, err)
	}
}

// TestAddIsSearchable: papers added through the workspace are indexed
// before Add returns, with progress events on the way.
func TestAddIsSearchable(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	src := filepath.Join(t.TempDir(), "raft.pdf")
	corpustest.CopyFile(t, filepath.Join(corpus, "in-search-of-an-understandable-consensus-algorithm.pdf"), src)
	f := open(t, t.TempDir(), workspace.Options{})
	defer f.ws.Close()
	rep, err := f.ws.Add(background(), []string{src, filepath.Join(t.TempDir(), "missing.pdf")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != 1 || len(rep.Skipped) != 1 {
		t.Fatalf("report %+v", rep)
	}
	hits, err := f.ws.Search(background(), "randomized election timeouts", 5)
	if err != nil || len(hits) == 0 || !strings.HasPrefix(hits[0].CitationURI, rep.Added[0].Ref+"/paper.pdf#page=") {
		t.Fatalf("search right after Add: %+v, %v", hits, err)
	}
	if f.rec.count(events.IntakeProgress) != 3 {
		t.Errorf("%d intake:progress events, want 3 (two files, then the end)", f.rec.count(events.IntakeProgress))
	}
	if _, err := f.ws.ImportZotero(background(), t.TempDir()); workspace.Code(err) != events.CodeInvalid {
		t.Errorf("import of a folder without zotero.sqlite: %v (code %q), want invalid", err, workspace.Code(err))
	}
}
