package index

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func refsDB(t *testing.T, refs ...string) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, ref := range refs {
		if _, err := db.sql.Exec(`INSERT INTO papers (ref, pdf_path, title, status) VALUES (?, ?, ?, 'ok')`,
			ref, ref+"/paper.pdf", "Title of "+ref); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestRefListRoundTripAndEdges(t *testing.T) {
	ctx := context.Background()
	db := refsDB(t, "papers/a", "papers/b", "papers/c")
	put := func(ref string, cites ...Citation) {
		t.Helper()
		l := RefList{Ref: ref, ScanKey: "scan-" + ref, LibKey: "lib-1", Mode: "agentero-pdf", Citations: cites}
		if err := db.PutRefList(ctx, l, time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	b := Citation{ID: "1", Display: "[1]", Raw: "B. Author. Title of b. 2001.", Title: "Title of b", Authors: []string{"B. Author"},
		Year: 2001, IDs: []string{"doi:10.1/b"}, DOI: "10.1/b", MatchRef: "papers/b", MatchBy: "doi", WorkKey: "paper:papers/b"}
	ext := Citation{ID: "2", Raw: "Someone. Elsewhere. 1999.", Title: "Elsewhere", Authors: []string{}, Year: 1999, WorkKey: "title:elsewhere"}
	put("papers/a", b, ext)
	put("papers/c", Citation{ID: "1", Raw: "b again", Authors: []string{}, MatchRef: "papers/b", MatchBy: "title", WorkKey: "paper:papers/b"}, ext)

	got, err := db.RefList(ctx, "papers/a")
	if err != nil {
		t.Fatal(err)
	}
	want := RefList{Ref: "papers/a", ScanKey: "scan-papers/a", LibKey: "lib-1", Mode: "agentero-pdf", Citations: []Citation{b, ext}}
	want.Citations[1].IDs = []string{}
	got.Citations[1].IDs = []string{}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("RefList round trip (-want +got):\n%s", d)
	}

	citing, err := db.CitingPapers(ctx, "papers/b")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Edge{{"papers/a", "papers/b", "doi"}, {"papers/c", "papers/b", "title"}}, citing); d != "" {
		t.Errorf("CitingPapers (-want +got):\n%s", d)
	}
	coupled, own, err := db.CoupledPapers(ctx, "papers/a")
	if err != nil {
		t.Fatal(err)
	}
	if own != 2 || len(coupled) != 1 || coupled[0] != (Coupling{Ref: "papers/c", Shared: 2, Total: 2}) {
		t.Errorf("CoupledPapers = %+v (own %d), want papers/c sharing 2 of 2", coupled, own)
	}

	// A matched paper that leaves the index unmatches its citations; the
	// citing paper's list goes with it.
	if _, err := db.sql.Exec(`DELETE FROM papers WHERE ref = 'papers/b'`); err != nil {
		t.Fatal(err)
	}
	l, _ := db.RefList(ctx, "papers/a")
	if l.Citations[0].MatchRef != "" || l.Citations[0].MatchBy != "" {
		t.Errorf("citation of a removed paper still matched: %+v", l.Citations[0])
	}
	if _, err := db.sql.Exec(`DELETE FROM papers WHERE ref = 'papers/a'`); err != nil {
		t.Fatal(err)
	}
	states, _ := db.RefListStates(ctx)
	if _, ok := states["papers/a"]; ok || len(states) != 1 {
		t.Errorf("states after removing papers/a = %v, want papers/c only", states)
	}
	var n int
	db.sql.QueryRow(`SELECT count(*) FROM citations`).Scan(&n)
	if n != 2 {
		t.Errorf("%d citations left, want the 2 of papers/c", n)
	}
}

func TestSetMatchesUpdatesOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	db := refsDB(t, "papers/a", "papers/b")
	l := RefList{Ref: "papers/a", ScanKey: "s", LibKey: "old", Mode: "agentero-pdf",
		Citations: []Citation{{ID: "1", Raw: "x", Authors: []string{}}, {ID: "2", Raw: "y", Authors: []string{}}}}
	if err := db.PutRefList(ctx, l, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMatches(ctx, "papers/a", "new", []CitationMatch{{Ord: 1, MatchRef: "papers/b", MatchBy: "title", WorkKey: "paper:papers/b"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := db.RefList(ctx, "papers/a")
	if got.LibKey != "new" || got.Citations[0].MatchRef != "" || got.Citations[1].MatchRef != "papers/b" || got.Citations[1].WorkKey != "paper:papers/b" {
		t.Errorf("after SetMatches: %+v", got)
	}
	if err := db.SetMatches(ctx, "papers/gone", "new", nil); err != ErrNotFound {
		t.Errorf("SetMatches on a missing paper = %v, want ErrNotFound", err)
	}
}
