package refs

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"
)

// openIndex opens (creating) the index file at path, closed with the test.
func openIndex(t *testing.T, path string) *index.DB {
	t.Helper()
	db, err := index.Open(path, index.Options{Schemas: []index.Schema{Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// insertPapers writes papers rows as the indexer does, with what refs reads.
func insertPapers(t *testing.T, db *sql.DB, papers ...index.RefInput) {
	t.Helper()
	for _, p := range papers {
		if _, err := db.Exec(`INSERT INTO papers (ref, pdf_path, title, year, doi, arxiv_id, pdf_sha256, extractor_version, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.Ref, p.PDFPath, p.Title, p.Year, p.DOI, p.ArxivID, p.SHA256, p.ExtractorVersion, p.Status); err != nil {
			t.Fatal(err)
		}
	}
}

// storedDB is a migrated index with the papers of refs, the papers table
// filled directly.
func storedDB(t *testing.T, refs ...string) *index.DB {
	t.Helper()
	db := openIndex(t, filepath.Join(t.TempDir(), "index.sqlite"))
	if err := migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	for _, ref := range refs {
		insertPapers(t, db.SQL(), index.RefInput{Ref: ref, PDFPath: ref + "/paper.pdf", Title: "Title of " + ref, Status: index.StatusOK})
	}
	return db
}

func TestListRoundTripAndEdges(t *testing.T) {
	ctx := context.Background()
	db := storedDB(t, "papers/a", "papers/b", "papers/c")
	put := func(ref string, cites ...Citation) {
		t.Helper()
		l := List{Ref: ref, ScanKey: "scan-" + ref, LibKey: "lib-1", Mode: ModePDF, Citations: cites}
		if err := putList(ctx, db, l, time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
	}
	b := Citation{ID: "1", Display: "[1]", Raw: "B. Author. Title of b. 2001.", Title: "Title of b", Authors: []string{"B. Author"},
		Year: 2001, IDs: []string{"doi:10.1/b"}, DOI: "10.1/b", MatchRef: "papers/b", MatchBy: ByDOI, WorkKey: "paper:papers/b"}
	ext := Citation{ID: "2", Raw: "Someone. Elsewhere. 1999.", Title: "Elsewhere", Authors: []string{}, IDs: []string{}, Year: 1999,
		WorkKey: "title:elsewhere"}
	put("papers/a", b, ext)
	put("papers/c", Citation{ID: "1", Raw: "b again", Authors: []string{}, MatchRef: "papers/b", MatchBy: ByTitle, WorkKey: "paper:papers/b"}, ext)

	got, err := ReadList(ctx, db, "papers/a")
	if err != nil {
		t.Fatal(err)
	}
	want := List{Ref: "papers/a", ScanKey: "scan-papers/a", LibKey: "lib-1", Mode: ModePDF, Citations: []Citation{b, ext}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadList after putList (-want +got):\n%s", d)
	}
	if _, err := ReadList(ctx, db, "papers/b"); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("ReadList of a paper with no list: %v, want ErrNotFound", err)
	}
	if err := putList(ctx, db, List{Ref: "papers/gone"}, time.Now()); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("putList of a paper not in the index: %v, want ErrNotFound", err)
	}

	citing, err := citingPapers(ctx, db, "papers/b")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]edge{{"papers/a", "papers/b", ByDOI}, {"papers/c", "papers/b", ByTitle}}, citing); d != "" {
		t.Errorf("citingPapers (-want +got):\n%s", d)
	}
	edges, err := citationEdges(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(citing, edges); d != "" {
		t.Errorf("citationEdges (-want +got):\n%s", d)
	}
	coupled, own, err := coupledPapers(ctx, db, "papers/a")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]coupling{{Ref: "papers/c", Shared: 2, Total: 2}}, coupled); d != "" || own != 2 {
		t.Errorf("coupledPapers: own %d, want 2; (-want +got):\n%s", own, d)
	}
}

func TestSetMatchesUpdatesOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	db := storedDB(t, "papers/a", "papers/b")
	l := List{Ref: "papers/a", ScanKey: "s", LibKey: "old", Mode: ModePDF,
		Citations: []Citation{{ID: "1", Raw: "x", Authors: []string{}}, {ID: "2", Raw: "y", Authors: []string{}}}}
	if err := putList(ctx, db, l, time.Now()); err != nil {
		t.Fatal(err)
	}
	cs := []Citation{
		{ID: "1", Raw: "x", MatchRef: "papers/b", MatchBy: ByTitle, WorkKey: "paper:papers/b"}, // not in changed: not written
		{ID: "2", Raw: "y", MatchRef: "papers/b", MatchBy: ByTitle, WorkKey: "paper:papers/b"},
	}
	if err := setMatches(ctx, db, "papers/a", "new", cs, []int{1}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadList(ctx, db, "papers/a")
	if err != nil {
		t.Fatal(err)
	}
	type match struct{ Ref, By, Work string }
	var gotMatches []match
	for _, c := range got.Citations {
		gotMatches = append(gotMatches, match{c.MatchRef, c.MatchBy, c.WorkKey})
	}
	if d := cmp.Diff([]match{{}, {"papers/b", ByTitle, "paper:papers/b"}}, gotMatches); d != "" || got.LibKey != "new" {
		t.Errorf("after setMatches: library key %q, want new; matches (-want +got):\n%s", got.LibKey, d)
	}
	if err := setMatches(ctx, db, "papers/gone", "new", nil, nil); !errors.Is(err, index.ErrNotFound) {
		t.Errorf("setMatches on a missing paper = %v, want ErrNotFound", err)
	}
}

// The papers of the schema tests: a cites b (by DOI) and a work outside
// the library; b's list is empty.
var (
	paperA = index.RefInput{Ref: "papers/a", PDFPath: "papers/a/a.pdf", Title: "A study of everything", Year: 2020,
		SHA256: "sha-a", ExtractorVersion: 1, Status: index.StatusOK}
	paperB = index.RefInput{Ref: "papers/b", PDFPath: "papers/b/b.pdf", Title: "The part-time parliament", Year: 1998,
		DOI: "10.1145/279227.279229", SHA256: "sha-b", ExtractorVersion: 1, Status: index.StatusOK}
	citesB = Citation{ID: "1", Display: "[1]", Raw: "L. Lamport. The part-time parliament. ACM TOCS, 1998. doi:10.1145/279227.279229",
		Title: "The part-time parliament", Authors: []string{"L. Lamport"}, Year: 1998, Venue: "ACM TOCS",
		DOI: "10.1145/279227.279229", IDs: []string{"doi:10.1145/279227.279229"}, MatchRef: paperB.Ref, MatchBy: ByDOI,
		WorkKey: "paper:" + paperB.Ref}
	citesElsewhere = Citation{ID: "2", Display: "[2]", Raw: "Someone. A work outside the library. 1999.",
		Title: "A work outside the library", Authors: []string{"Someone"}, Year: 1999, IDs: []string{},
		WorkKey: "title:aworkoutsidethelibrary"}
)

// keysOf are the scan and library keys Sync computes for paper p of a vault
// at root holding papers: a list stored with them is up to date.
func keysOf(root string, p index.RefInput, papers ...index.RefInput) (scanKey, libKey string) {
	vr, err := vault.OpenRoot(root)
	if err != nil {
		panic(err)
	}
	defer vr.Close()
	return findSource(context.Background(), vr, p).key, newLibrary(papers).key
}

// oldIndex writes at path an index as Agentero wrote it before refs owned
// its tables: the index's migrations of then (testdata/index-v3, kept as
// they were released), schema version 3, with papers a and b and the
// reference lists Sync wrote for them then.
func oldIndex(t *testing.T, root, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	files, err := filepath.Glob(filepath.Join("testdata", "index-v3", "*.sql"))
	if err != nil || len(files) != 3 {
		t.Fatalf("old index migrations: %v %v", files, err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	insertPapers(t, db, paperA, paperB)
	for _, p := range []index.RefInput{paperA, paperB} {
		scanKey, libKey := keysOf(root, p, paperA, paperB)
		if _, err := db.Exec(`INSERT INTO ref_lists (paper_id, scan_key, lib_key, mode, note)
			SELECT id, ?, ?, 'agentero-pdf', '' FROM papers WHERE ref = ?`, scanKey, libKey, p.Ref); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range []Citation{citesB, citesElsewhere} {
		authors := `["` + c.Authors[0] + `"]`
		ids := ""
		if len(c.IDs) > 0 {
			ids = c.IDs[0]
		}
		if _, err := db.Exec(`INSERT INTO citations (paper_id, ord, cid, display, raw, title, authors, year, venue, doi,
			url, ids, match_id, match_by, work_key)
			VALUES ((SELECT id FROM papers WHERE ref = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, (SELECT id FROM papers WHERE ref = ?), ?, ?)`,
			paperA.Ref, i, c.ID, c.Display, c.Raw, c.Title, authors, c.Year, c.Venue, c.DOI, ids, c.MatchRef, c.MatchBy, c.WorkKey); err != nil {
			t.Fatal(err)
		}
	}
}

// refsSchema is the SQL SQLite keeps for refs' tables and their indexes.
func refsSchema(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT sql FROM sqlite_master WHERE tbl_name IN ('ref_lists', 'citations') AND sql IS NOT NULL
		ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// versions are the index's schema version and refs' own.
func versions(t *testing.T, db *sql.DB) (indexVersion, refsVersion int) {
	t.Helper()
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&indexVersion); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT version FROM schema_versions WHERE owner = 'refs'`).Scan(&refsVersion); err != nil {
		t.Fatal(err)
	}
	return indexVersion, refsVersion
}

// An index gets refs' tables from refs, whether it is new or was made when
// the index created them itself; either way the reference lists survive a
// reopen, are up to date for Sync, and go with their papers.
func TestRefsOwnsItsTables(t *testing.T) {
	ctx := context.Background()
	// The schema of the tables as the index created them before.
	wantSchema := func() []string {
		path := filepath.Join(t.TempDir(), "old.sqlite")
		oldIndex(t, t.TempDir(), path)
		db, err := sql.Open("sqlite3", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return refsSchema(t, db)
	}()
	if len(wantSchema) != 4 {
		t.Fatalf("the old index holds %d refs objects, want 2 tables and 2 indexes: %q", len(wantSchema), wantSchema)
	}
	wantList := List{Ref: paperA.Ref, Mode: ModePDF, Citations: []Citation{citesB, citesElsewhere}}

	tests := []struct {
		name string
		// setup leaves at index.Path(root) an index with papers a and b,
		// a's list wantList, b's empty, both up to date.
		setup func(t *testing.T, root string)
	}{
		{"new index", func(t *testing.T, root string) {
			db := openIndex(t, index.Path(root))
			insertPapers(t, db.SQL(), paperA, paperB)
			// Before Sync made the tables, readers see no lists.
			if _, err := ReadList(ctx, db, paperA.Ref); !errors.Is(err, index.ErrNotFound) {
				t.Errorf("ReadList before any Sync: %v, want ErrNotFound", err)
			}
			for _, k := range Kinds {
				if cards, err := Relations(ctx, db, paperA.Ref, k, 10); err != nil || len(cards) != 0 {
					t.Errorf("%s before any Sync: %v, %v; want none", k, cards, err)
				}
			}
			st, err := Sync(ctx, db, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]string{paperA.Ref, paperB.Ref}, st.Scanned); d != "" {
				t.Errorf("first Sync scanned (-want +got):\n%s", d)
			}
			// As Sync stores a list read from a's pages.
			l := wantList
			l.ScanKey, l.LibKey = keysOf(root, paperA, paperA, paperB)
			if err := putList(ctx, db, l, time.Now()); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}},
		{"index made before refs owned its tables", func(t *testing.T, root string) {
			oldIndex(t, root, index.Path(root))
			db := openIndex(t, index.Path(root))
			// The old tables read as they are before refs migrates them.
			l, err := ReadList(ctx, db, paperA.Ref)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(wantList.Citations, l.Citations); d != "" {
				t.Errorf("old index, before Sync (-want +got):\n%s", d)
			}
			st, err := Sync(ctx, db, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Scanned)+len(st.Rematched)+len(st.Removed) != 0 {
				t.Errorf("first Sync on an old index: %+v, want its lists kept as they are", st)
			}
			db.Close()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.setup(t, root)

			db := openIndex(t, index.Path(root)) // reopened
			if d := cmp.Diff(wantSchema, refsSchema(t, db.SQL())); d != "" {
				t.Errorf("refs' tables differ from those the index made (-want +got):\n%s", d)
			}
			var latest int // the index's own version: that of a new index
			if err := openIndex(t, filepath.Join(t.TempDir(), "new.sqlite")).SQL().QueryRow(`PRAGMA user_version`).Scan(&latest); err != nil {
				t.Fatal(err)
			}
			if iv, rv := versions(t, db.SQL()); iv != latest || rv != 1 {
				t.Errorf("schema versions: index %d, refs %d; want %d and 1", iv, rv, latest)
			}
			st, err := Sync(ctx, db, root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Scanned)+len(st.Rematched)+len(st.Removed) != 0 {
				t.Errorf("Sync after reopening: %+v, want nothing to do", st)
			}
			got, err := ReadList(ctx, db, paperA.Ref)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(wantList.Citations, got.Citations); d != "" || got.Mode != ModePDF {
				t.Errorf("a's list after reopening: mode %q; citations (-want +got):\n%s", got.Mode, d)
			}
			cards, err := Relations(ctx, db, paperB.Ref, CitedBy, 10)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]Card{{Title: paperA.Title, Year: paperA.Year, PaperPath: paperA.Ref, MatchBy: ByDOI,
				CitationURI: paperA.PDFPath}}, cards); d != "" {
				t.Errorf("b cited by (-want +got):\n%s", d)
			}

			// The paper a citation is matched to leaves: the citation stays,
			// unmatched. The citing paper leaves: its list goes with it.
			if _, err := db.SQL().Exec(`DELETE FROM papers WHERE ref = ?`, paperB.Ref); err != nil {
				t.Fatal(err)
			}
			got, err = ReadList(ctx, db, paperA.Ref)
			if err != nil {
				t.Fatal(err)
			}
			if c := got.Citations[0]; c.MatchRef != "" || c.MatchBy != "" || len(got.Citations) != 2 {
				t.Errorf("a's list after b left: %+v, want both citations, the first unmatched", got.Citations)
			}
			if _, err := db.SQL().Exec(`DELETE FROM papers WHERE ref = ?`, paperA.Ref); err != nil {
				t.Fatal(err)
			}
			var lists, citations int
			if err := db.SQL().QueryRow(`SELECT (SELECT count(*) FROM ref_lists), (SELECT count(*) FROM citations)`).Scan(&lists, &citations); err != nil {
				t.Fatal(err)
			}
			if lists != 0 || citations != 0 {
				t.Errorf("after both papers left: %d lists, %d citations; want none", lists, citations)
			}
		})
	}
}
