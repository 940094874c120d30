package intake

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArrangeLoosePDFs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	copyCorpus(t, dir, "paxos-made-simple.pdf", "bitcoin.pdf")
	copyCorpus(t, filepath.Join(dir, "old"), "1706.03762.pdf")
	os.WriteFile(filepath.Join(dir, "todo.txt"), []byte("read these"), 0o644)
	before := treeHash(t, dir)

	found, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &Found{TopPDFs: []string{"bitcoin.pdf", "paxos-made-simple.pdf"}, NestedPDFs: []string{"old/1706.03762.pdf"}}
	if diff := cmp.Diff(want, found); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
	moves, err := PlanArrangement(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantMoves := []Move{{From: "bitcoin.pdf", To: "papers/bitcoin/paper.pdf"}, {From: "paxos-made-simple.pdf", To: "papers/paxos-simple/paper.pdf"},
		{From: "old/1706.03762.pdf", To: "papers/1706-03762/paper.pdf"}}
	if diff := cmp.Diff(wantMoves, moves); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	if got := treeHash(t, dir); !cmp.Equal(before, got) {
		t.Fatalf("inspecting and planning wrote to the folder:\n%s", cmp.Diff(before, got))
	}
	if _, err := os.Stat(filepath.Join(dir, ".agentero")); err == nil {
		t.Fatal(".agentero made before consent")
	}

	// Between preview and apply, someone makes one target folder: that move is skipped.
	os.MkdirAll(filepath.Join(dir, "papers", "bitcoin"), 0o755)
	rep, err := ApplyArrangement(ctx, dir, moves, false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"papers/paxos-simple", "papers/1706-03762"}, refs(rep.Added)); diff != "" {
		t.Errorf("moved (-want +got):\n%s", diff)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].File != "bitcoin.pdf" {
		t.Errorf("skipped %+v, want bitcoin.pdf (its folder exists now)", rep.Skipped)
	}
	if _, err := os.Stat(filepath.Join(dir, "paxos-made-simple.pdf")); err == nil {
		t.Error("paxos-made-simple.pdf was not moved")
	}
	if _, err := os.Stat(filepath.Join(dir, "bitcoin.pdf")); err != nil {
		t.Error("bitcoin.pdf was moved although its move was skipped")
	}
	if readFile(t, filepath.Join(dir, "todo.txt")) != "read these" {
		t.Error("todo.txt changed")
	}

	// A forged plan cannot move a file out of the folder or elsewhere in it.
	rep, err = ApplyArrangement(ctx, dir, []Move{{From: "../x.pdf", To: "papers/x/paper.pdf"}, {From: "todo.txt", To: "notes/paper.pdf"}}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 2 || len(rep.Added) != 0 {
		t.Errorf("forged plan: %+v", rep)
	}
}
