package intake

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoteLinkedBase: a Zotero import whose linked PDFs are left out for
// want of the base directory says so (none known, or the wrong one), and
// importing again with the right one adds just them.
func TestNoteLinkedBase(t *testing.T) {
	z, base, _ := baseLibrary(t, "Distributed/paxos.pdf")
	root := t.TempDir()
	imp := func(opts Options) *Report {
		t.Helper()
		rep, err := ImportZotero(context.Background(), z.dir, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		NoteLinkedBase(rep, z.dir, opts)
		return rep
	}

	t.Run("no base known", func(t *testing.T) {
		t.Setenv("HOME", t.TempDir()) // no Zotero profile
		rep := imp(Options{})
		if len(rep.WithoutPDF) != 1 {
			t.Fatalf("report %+v, want the linked paper without a PDF", rep)
		}
		if diff := cmp.Diff(&LinkedBase{DataDir: z.dir, Missing: 1}, rep.LinkedBase); diff != "" {
			t.Errorf("linkedBase (-want +got):\n%s", diff)
		}
	})
	t.Run("the profile's base is the wrong one", func(t *testing.T) {
		wrong := filepath.Join(t.TempDir(), "old-papers")
		fakeHome(t, wrong, base)
		rep := imp(Options{})
		if diff := cmp.Diff(&LinkedBase{DataDir: z.dir, BaseDir: wrong, Missing: 1}, rep.LinkedBase); diff != "" {
			t.Errorf("linkedBase (-want +got):\n%s", diff)
		}
	})
	t.Run("the base chosen", func(t *testing.T) {
		t.Setenv("HOME", t.TempDir())
		rep := imp(Options{ZoteroBaseDir: base})
		if len(rep.Added) != 1 || rep.Added[0].Key != "PAXOS001" || rep.LinkedBase != nil {
			t.Fatalf("report %+v (linkedBase %+v), want the paper added and nothing more to choose", rep, rep.LinkedBase)
		}
		if again := imp(Options{ZoteroBaseDir: base}); len(again.Unchanged) != 1 || len(again.Added) != 0 {
			t.Errorf("importing once more: %+v, want it unchanged", again)
		}
	})
}
