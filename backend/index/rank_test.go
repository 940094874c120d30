package index

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rankOrder returns the rowids of table t that match q, ordered by the
// rank expression.
func rankOrder(t *testing.T, db *DB, q, rank string) []int64 {
	t.Helper()
	rows, err := db.sql.QueryContext(context.Background(), `SELECT rowid FROM t WHERE t MATCH ? ORDER BY `+rank, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func rankTable(t *testing.T, docs map[int64]string) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.sql.Exec(`CREATE VIRTUAL TABLE t USING fts5(text)`); err != nil {
		t.Fatal(err)
	}
	for id, text := range docs {
		if _, err := db.sql.Exec(`INSERT INTO t(rowid, text) VALUES (?, ?)`, id, text); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestRankPapersByPagesHoldingAllWords(t *testing.T) {
	filler := strings.Repeat("lorem ", 400)
	db := rankTable(t, map[int64]string{
		1: "alpha beta\n" + filler,                                    // together once
		2: "alpha\n" + filler + "\nbeta",                              // far apart: on different pages
		3: "alpha beta\n" + filler + "\nbeta alpha\n" + filler,        // together twice
		4: "alpha alpha alpha\n" + filler,                             // no beta
		5: "gamma alpha\n" + filler + "\nbeta\n" + filler + "\nalpha", // far apart, alpha more often
	})
	got := rankOrder(t, db, "alpha AND beta", "agentero_paper_rank(t, 0, 0, 1, 0)")
	if want := []int64{3, 1, 5, 2}; !slices.Equal(got, want) {
		t.Errorf("paper order %v, want %v (pages holding both words first, more such pages better)", got, want)
	}
	// One word: the more often it is there, the better.
	got = rankOrder(t, db, "alpha", "agentero_paper_rank(t, 0, 0, 1, 0)")
	if len(got) != 5 || got[0] != 4 || !slices.Contains(got[3:], 1) || !slices.Contains(got[3:], 2) {
		t.Errorf("single-word order %v, want 4 (three alphas) first and 1, 2 (one alpha) last", got)
	}
}

func TestRankPagesWithWeights(t *testing.T) {
	db := rankTable(t, map[int64]string{
		1: "alpha alpha alpha beta",
		2: "alpha beta beta beta",
		3: "alpha beta " + strings.Repeat("lorem ", 200),
	})
	if got := rankOrder(t, db, "alpha AND beta", "agentero_page_rank(t, 0, 0, 1, 5)"); got[0] != 2 {
		t.Errorf("beta weighted up: order %v, want 2 first", got)
	}
	if got := rankOrder(t, db, "alpha AND beta", "agentero_page_rank(t, 0, 0, 5, 1)"); got[0] != 1 {
		t.Errorf("alpha weighted up: order %v, want 1 first", got)
	}
	// Length normalisation: the long page with one of each ranks last with
	// b = 0.75 and equal weights.
	if got := rankOrder(t, db, "alpha AND beta", "agentero_page_rank(t, 0.75, 0)"); got[2] != 3 {
		t.Errorf("with length normalisation: order %v, want the long page 3 last", got)
	}
}

// TestRankPagesByTier: pages holding the whole query as a phrase come
// first, then those holding every term, then the rest by their terms'
// weights, however often the words are repeated.
func TestRankPagesByTier(t *testing.T) {
	db := rankTable(t, map[int64]string{
		1: "beta beta beta beta alpha",               // both words, not as the phrase
		2: "lorem alpha beta ipsum",                  // the phrase
		3: "beta beta beta beta beta beta beta beta", // the rarer word alone, often
		4: "alpha alpha alpha alpha alpha alpha",     // the commoner word alone, often
		5: "beta",                                    // the rarer word alone, once
	})
	got := rankOrder(t, db, `"alpha beta" OR alpha OR beta`, "agentero_page_rank(t, 0, 1, 0, 1, 3)")
	if want := []int64{2, 1, 3, 5, 4}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v (phrase, every term, then by weight: beta weighs 3, alpha 1)", got, want)
	}
}

func TestPaperText(t *testing.T) {
	got := paperText([]string{"The model, the Model and MODELS.\nnaïve café", "", "x-ray 42 x ray"})
	want := "the model and models naïve café\n\nx ray 42"
	if got != want {
		t.Errorf("paperText = %q, want %q", got, want)
	}
}
