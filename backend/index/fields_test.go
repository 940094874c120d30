package index

import (
	"os"
	"path/filepath"
	"testing"
)

// abstractHolds reports whether the abstract of ref's row of fields_fts
// holds word.
func (v *metaVault) abstractHolds(ref, word string) bool {
	v.t.Helper()
	var n int
	if err := v.db.sql.QueryRow(`SELECT count(*) FROM fields_fts WHERE fields_fts MATCH ? AND rowid = (SELECT id FROM papers WHERE ref = ?)`,
		"{abstract} : "+phrase([]string{word}), ref).Scan(&n); err != nil {
		v.t.Fatal(err)
	}
	return n > 0
}

// TestFieldsFollowThePaper: a paper's abstract is in fields_fts from its
// first sync, follows an edit of its metadata.json and leaves with the
// paper; an index made before fields_fts gains the rows of the papers it
// holds when opened read-write (migration 010), without reading them
// again; and a word of an abstract lifts its paper above a paper whose
// page holds the query's words alike.
func TestFieldsFollowThePaper(t *testing.T) {
	v := newMetaVault(t)
	v.write("papers/a/paper.pdf", "counting words on a page of paper a with more words than b has")
	v.write("papers/a/metadata.json", `{"title": "Paper A", "abstract": "Sketches of streams."}`)
	v.write("papers/b/paper.pdf", "counting words on a page")
	v.sync()
	if !v.abstractHolds("papers/a", "sketches") {
		t.Fatal("the abstract of papers/a is not in fields_fts after the first sync")
	}
	first := func(query string) string {
		hits := v.search(query, Scope{AllPapers: true})
		if len(hits) == 0 {
			return ""
		}
		return hits[0].Ref
	}
	if got := first("counting sketch"); got != "papers/a" {
		t.Errorf(`"counting sketch": first hit %q, want papers/a (its abstract holds "sketches")`, got)
	}
	if got := first("counting words"); got != "papers/b" {
		t.Errorf(`"counting words": first hit %q, want the shorter page papers/b`, got)
	}

	v.write("papers/a/metadata.json", `{"title": "Paper A", "abstract": "Samples of rivers."}`)
	v.sync()
	if v.abstractHolds("papers/a", "sketches") || !v.abstractHolds("papers/a", "rivers") {
		t.Error("the edited abstract of papers/a is not the one in fields_fts")
	}

	// As an index of the Agentero before migration 010 left it.
	if _, err := v.db.sql.Exec(`DROP TRIGGER fields_fts_ad; DROP TABLE fields_fts; PRAGMA user_version = 9`); err != nil {
		t.Fatal(err)
	}
	path := v.db.path
	v.db.Close()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v.db = db
	if !v.abstractHolds("papers/a", "rivers") {
		t.Error("migration 010 did not write the abstract of papers/a")
	}
	var rows int
	if err := db.sql.QueryRow(`SELECT count(*) FROM fields_fts`).Scan(&rows); err != nil || rows != 2 {
		t.Errorf("fields_fts has %d rows (%v), want 2", rows, err)
	}

	if err := os.RemoveAll(filepath.Join(v.root, "papers/a")); err != nil {
		t.Fatal(err)
	}
	v.sync()
	if err := db.sql.QueryRow(`SELECT count(*) FROM fields_fts`).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("after papers/a left: fields_fts has %d rows (%v), want 1", rows, err)
	}
}

// TestRarityFollowsTheIndex: the words' weights a search uses (cached per
// generation of papers_fts) follow the papers the index holds.
func TestRarityFollowsTheIndex(t *testing.T) {
	v := newMetaVault(t)
	v.write("papers/a/paper.pdf", "gossip protocols spread rumours")
	v.write("papers/b/paper.pdf", "consensus among replicas")
	v.write("papers/c/paper.pdf", "consensus again")
	v.sync()
	weight := func() float64 {
		w, err := v.db.idf(t.Context(), []string{"gossip"})
		if err != nil {
			t.Fatal(err)
		}
		return w["gossip"]
	}
	before := weight()
	if again := weight(); again != before {
		t.Fatalf("gossip weighs %v, then %v on an unchanged index", before, again)
	}
	v.write("papers/b/paper.pdf", "consensus among replicas by gossip")
	v.sync()
	if after := weight(); after >= before {
		t.Errorf("gossip on 2 papers of 3 weighs %v, on 1 of 3 it weighed %v: want less", after, before)
	}
}
