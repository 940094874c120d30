package refs_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestCorpusYears checks the year the library shows for the corpus's
// papers, with no metadata.json, once their references are synced: right
// for at least 90 % of the papers the manifest gives a year for (issue
// 14). Misses are listed.
func TestCorpusYears(t *testing.T) {
	v := corpusVault(t)
	ctx := context.Background()
	var miss []string
	n := 0
	for _, r := range corpustest.Manifest(t) {
		want, _ := strconv.Atoi(r["year"])
		if want == 0 {
			continue
		}
		n++
		p, err := v.db.Paper(ctx, refOf(r["file"]))
		if err != nil {
			t.Fatalf("%s: %v", r["file"], err)
		}
		if p.Year != want {
			miss = append(miss, r["file"]+": "+strconv.Itoa(p.Year)+", want "+strconv.Itoa(want))
		}
	}
	right := float64(n-len(miss)) / float64(n)
	t.Logf("year right for %d of %d papers (%.1f %%)", n-len(miss), n, 100*right)
	for _, m := range miss {
		t.Logf("  year miss: %s", m)
	}
	if right < 0.9 {
		t.Errorf("years right for fewer than 90 %% of the papers")
	}
}

// TestCitedYearFollowsTheLibrary checks that a draft dated 2013 (Raft's
// "Draft of October 7, 2013") shows the year a library paper cites it by
// (IronFleet: "… (June 2014)"), that the year returns to the draft's when
// that paper leaves the library, and that a year the user wrote in
// metadata.json is never replaced.
func TestCitedYearFollowsTheLibrary(t *testing.T) {
	const raft, ironfleet = "in-search-of-an-understandable-consensus-algorithm.pdf", "ironFleet-proving-practical-distributed-systems-correct.pdf"
	v := newVault(t, raft, ironfleet)
	ctx := context.Background()
	year := func() int {
		t.Helper()
		p, err := v.db.Paper(ctx, refOf(raft))
		if err != nil {
			t.Fatal(err)
		}
		return p.Year
	}
	if y := year(); y != 2013 {
		t.Fatalf("before the references are read: year %d, want the draft's 2013", y)
	}
	st := v.sync(t, refs.Options{})
	if y := year(); y != 2014 {
		t.Fatalf("cited as of 2014 by IronFleet: year %d, want 2014", y)
	}
	if !slices.Contains(st.Redated, refOf(raft)) {
		t.Errorf("Stats.Redated = %v, want it to name %s", st.Redated, refOf(raft))
	}
	if st := v.sync(t, refs.Options{}); len(st.Redated) != 0 {
		t.Errorf("a second sync redated %v", st.Redated)
	}

	// The user's own year stands.
	meta := filepath.Join(v.root, filepath.FromSlash(refOf(raft)), "metadata.json")
	if err := os.WriteFile(meta, []byte(`{"year": 2013}`), 0o644); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	v.sync(t, refs.Options{})
	if y := year(); y != 2013 {
		t.Errorf("metadata.json says 2013: year %d", y)
	}
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	v.sync(t, refs.Options{})
	if y := year(); y != 2014 {
		t.Errorf("metadata.json removed: year %d, want 2014 again", y)
	}

	// Without the citing paper, the draft's own year.
	if err := os.RemoveAll(filepath.Join(v.root, filepath.FromSlash(refOf(ironfleet)))); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	st = v.sync(t, refs.Options{})
	if y := year(); y != 2013 {
		t.Errorf("IronFleet removed: year %d, want the draft's 2013", y)
	}
	if !slices.Contains(st.Redated, refOf(raft)) {
		t.Errorf("Stats.Redated = %v after the citing paper left", st.Redated)
	}
}
