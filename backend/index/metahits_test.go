package index

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
)

// readingExtractor returns a document whose one page is the file's bytes,
// so a test sees exactly which file the extractor was handed; a file of
// spaces is a page without text (a scan), one of words a page of text.
type readingExtractor struct{}

func (readingExtractor) ExtractFile(_ context.Context, f *os.File) (*pdf.Document, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return &pdf.Document{Pages: []pdf.Page{{Number: 1, Text: string(data)}}}, nil
}

// scanPDF is the bytes of a page without text.
const scanPDF = "          "

// metaVault is a vault written file by file, synced into its index.
type metaVault struct {
	t    *testing.T
	root string
	db   *DB
	tick time.Time
}

func newMetaVault(t *testing.T) *metaVault {
	root := t.TempDir()
	db, err := Open(filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &metaVault{t: t, root: root, db: db, tick: time.Now().Add(-time.Hour)}
}

// write writes a file of the vault with a modification time of its own,
// so that the next sync sees it changed.
func (v *metaVault) write(rel, body string) {
	v.t.Helper()
	p := filepath.Join(v.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		v.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		v.t.Fatal(err)
	}
	v.tick = v.tick.Add(time.Second)
	if err := os.Chtimes(p, v.tick, v.tick); err != nil {
		v.t.Fatal(err)
	}
}

func (v *metaVault) sync() {
	v.t.Helper()
	snap, err := vault.Scan(v.root)
	if err != nil {
		v.t.Fatal(err)
	}
	if _, err := NewIndexer(v.db, readingExtractor{}, SyncOptions{}).Sync(v.t.Context(), snap); err != nil {
		v.t.Fatal(err)
	}
}

func (v *metaVault) search(query string, scope Scope) []Hit {
	v.t.Helper()
	res, err := v.db.Search(v.t.Context(), Query{Text: query, Scope: scope})
	if err != nil {
		v.t.Fatal(err)
	}
	return res.Hits
}

// metaHits are the refs of the hits of query (in the whole library) found
// by their metadata, and of the others.
func (v *metaVault) metaHits(query string) (byMeta, byText []string) {
	v.t.Helper()
	for _, h := range v.search(query, Scope{AllPapers: true}) {
		if strings.Contains(h.Snippet, "found by its metadata") {
			byMeta = append(byMeta, h.Ref)
		} else {
			byText = append(byText, h.Ref)
		}
	}
	return byMeta, byText
}

// textlessRows counts the rows of textless_fts.
func (v *metaVault) textlessRows() int {
	v.t.Helper()
	var n int
	if err := v.db.sql.QueryRow(`SELECT count(*) FROM textless_fts`).Scan(&n); err != nil {
		v.t.Fatal(err)
	}
	return n
}

// TestMetadataHitsFollowThePaper changes a scanned paper every way a vault
// can: its metadata.json edited, its PDF given text and taken it away
// again, its folder renamed, the paper removed and another scan listed in
// its place. A search finds it by the metadata it has now, never by what
// it had before.
func TestMetadataHitsFollowThePaper(t *testing.T) {
	v := newMetaVault(t)
	v.write("papers/a-text/paper.pdf", "consensus among replicas with a leader")
	v.write("papers/z-scan/paper.pdf", scanPDF)
	v.write("papers/z-scan/metadata.json", `{"title": "Probabilistic Counting Algorithms for Data Base Applications",
		"authors": ["Philippe Flajolet", "G. Nigel Martin"], "year": 1985, "doi": "10.1016/0022-0000(85)90041-8",
		"abstract": "Hashing estimates the number of distinct elements of a multiset."}`)
	v.sync()
	if p, err := v.db.Paper(t.Context(), "papers/z-scan"); err != nil || p.Status != StatusNoText {
		t.Fatalf("scan: %+v, %v; want status %s", p, err, StatusNoText)
	}

	// title, authors, year, DOI and abstract; stems and quoted phrases as
	// a page is searched
	for _, q := range []string{"probabilistic counting", "Flajolet", "nigel martin 1985", "10.1016/0022-0000(85)90041-8",
		"distinct elements hashing", "count algorithm", `"data base applications"`, "FLAJOLET probabilistic"} {
		if byMeta, _ := v.metaHits(q); len(byMeta) != 1 || byMeta[0] != "papers/z-scan" {
			t.Errorf("%q: found by metadata %v, want papers/z-scan", q, byMeta)
		}
	}
	hits := v.search("probabilistic counting", Scope{AllPapers: true})
	want := "Probabilistic Counting Algorithms for Data Base Applications — Philippe Flajolet, G. Nigel Martin (1985) · found by its metadata: no text layer (a scan without OCR)"
	if len(hits) == 0 || hits[0].Snippet != want || hits[0].Page != 1 || hits[0].CitationURI != "papers/z-scan/paper.pdf#page=1" {
		t.Errorf("hit %+v, want page 1 with the snippet %q", hits, want)
	}
	// every term must be there; a phrase must stand as quoted
	for _, q := range []string{"probabilistic counting zookeeper", `"applications data base"`, "1986", "consensus"} {
		if byMeta, _ := v.metaHits(q); len(byMeta) != 0 {
			t.Errorf("%q: found by metadata %v, want none", q, byMeta)
		}
	}

	// metadata.json edited: the new title is found, the old one no longer
	v.write("papers/z-scan/metadata.json", `{"title": "LogLog Counting of Large Cardinalities", "authors": ["Marianne Durand"], "year": 2003}`)
	v.sync()
	if byMeta, _ := v.metaHits("loglog cardinalities durand 2003"); len(byMeta) != 1 {
		t.Errorf("after the edit, the new title: found by metadata %v, want papers/z-scan", byMeta)
	}
	for _, q := range []string{"probabilistic", "flajolet", "1985", "distinct elements"} {
		if byMeta, _ := v.metaHits(q); len(byMeta) != 0 {
			t.Errorf("after the edit, %q (the old metadata): found by metadata %v", q, byMeta)
		}
	}

	// re-extracted with text: found by its page, no longer by its metadata
	v.write("papers/z-scan/paper.pdf", "loglog counting estimates cardinalities of large multisets")
	v.sync()
	if p, _ := v.db.Paper(t.Context(), "papers/z-scan"); p.Status != StatusOK {
		t.Fatalf("the scan given text: status %q, want ok", p.Status)
	}
	if byMeta, byText := v.metaHits("loglog cardinalities"); len(byMeta) != 0 || len(byText) != 1 || byText[0] != "papers/z-scan" {
		t.Errorf("a paper with text: found by metadata %v and by text %v, want only its page", byMeta, byText)
	}
	if byMeta, byText := v.metaHits("durand"); len(byMeta) != 0 || len(byText) != 0 {
		t.Errorf("a paper with text, by an author its pages do not name: found by metadata %v and by text %v, want nothing", byMeta, byText)
	}
	if n := v.textlessRows(); n != 0 {
		t.Errorf("%d rows in textless_fts with no paper without text", n)
	}

	// its text gone again (a PDF replaced by a scan): found by metadata
	v.write("papers/z-scan/paper.pdf", scanPDF+"  ")
	v.sync()
	if byMeta, _ := v.metaHits("durand"); len(byMeta) != 1 || byMeta[0] != "papers/z-scan" {
		t.Errorf("a scan again: found by metadata %v, want papers/z-scan", byMeta)
	}

	// its folder renamed: found under its new ref
	if err := os.Rename(filepath.Join(v.root, "papers/z-scan"), filepath.Join(v.root, "papers/y-scan")); err != nil {
		t.Fatal(err)
	}
	v.sync()
	if byMeta, _ := v.metaHits("durand"); len(byMeta) != 1 || byMeta[0] != "papers/y-scan" {
		t.Errorf("renamed: found by metadata %v, want papers/y-scan", byMeta)
	}

	// removed; then another scan, which takes the removed paper's id
	var oldID int64
	v.db.sql.QueryRow(`SELECT id FROM papers WHERE ref = 'papers/y-scan'`).Scan(&oldID)
	if err := os.RemoveAll(filepath.Join(v.root, "papers/y-scan")); err != nil {
		t.Fatal(err)
	}
	v.sync()
	if byMeta, byText := v.metaHits("durand"); len(byMeta)+len(byText) != 0 {
		t.Errorf("removed: found by metadata %v and by text %v", byMeta, byText)
	}
	if n := v.textlessRows(); n != 0 {
		t.Errorf("%d rows in textless_fts after the only scan was removed", n)
	}
	v.write("papers/x-scan/paper.pdf", scanPDF)
	v.write("papers/x-scan/metadata.json", `{"title": "HyperLogLog in Practice"}`)
	v.sync()
	var newID int64
	v.db.sql.QueryRow(`SELECT id FROM papers WHERE ref = 'papers/x-scan'`).Scan(&newID)
	if newID != oldID {
		t.Logf("the new scan has id %d, the removed one had %d: the reuse this checks did not happen", newID, oldID)
	}
	if byMeta, _ := v.metaHits("durand loglog"); len(byMeta) != 0 {
		t.Errorf("a new scan found by the removed one's metadata: %v", byMeta)
	}
	if byMeta, _ := v.metaHits("hyperloglog practice"); len(byMeta) != 1 || byMeta[0] != "papers/x-scan" {
		t.Errorf("the new scan: found by metadata %v, want papers/x-scan", byMeta)
	}
}

// TestMetadataHitsScopeAndCap: a result leads with at most maxMetadataHits
// scans, by ref, and only those of its scope.
func TestMetadataHitsScopeAndCap(t *testing.T) {
	v := newMetaVault(t)
	for i := range maxMetadataHits + 2 {
		ref := fmt.Sprintf("papers/scans/s%d", i)
		v.write(ref+"/paper.pdf", scanPDF)
		v.write(ref+"/metadata.json", fmt.Sprintf(`{"title": "A Survey of Sketches, part %d"}`, i))
	}
	v.write("papers/other/scan/paper.pdf", scanPDF)
	v.write("papers/other/scan/metadata.json", `{"title": "Sketches: a survey"}`)
	v.write("papers/other/text/paper.pdf", "a survey of sketches for streams")
	v.sync()

	hits := v.search("survey sketches", Scope{AllPapers: true})
	var byMeta []string
	for _, h := range hits {
		if strings.Contains(h.Snippet, "found by its metadata") {
			byMeta = append(byMeta, h.Ref)
		}
	}
	want := []string{"papers/other/scan", "papers/scans/s0", "papers/scans/s1", "papers/scans/s2", "papers/scans/s3"}
	if strings.Join(byMeta, " ") != strings.Join(want, " ") {
		t.Errorf("found by metadata %v, want the first %d by ref: %v", byMeta, maxMetadataHits, want)
	}
	if len(hits) <= maxMetadataHits || hits[maxMetadataHits].Ref != "papers/other/text" {
		t.Errorf("hits %+v: want the page of papers/other/text after the metadata hits", hits)
	}
	for _, c := range []struct {
		scope Scope
		want  string
	}{
		{Scope{Folders: []string{"papers/other"}}, "papers/other/scan papers/other/text"},
		{Scope{Papers: []string{"papers/scans/s5", "papers/other/text"}}, "papers/scans/s5 papers/other/text"},
		// as context_search scopes a grant of papers: each with its folder
		{Scope{Papers: []string{"papers/scans/s5", "papers/other/text"}, Folders: []string{"papers/scans/s5", "papers/other/text"}}, "papers/scans/s5 papers/other/text"},
		{Scope{Papers: []string{"papers/other/text"}, Folders: []string{"papers/other/text"}}, "papers/other/text"},
		{Scope{Papers: []string{"papers/scans/s6"}, Folders: []string{"papers/scans/s6", "papers/other"}}, "papers/other/scan papers/scans/s6 papers/other/text"},
		{Scope{Folders: []string{"papers/scan"}}, ""}, // a name that only starts like papers/scans
		{Scope{Files: []string{"notes.md"}}, ""},
	} {
		var got []string
		for _, h := range v.search("survey sketches", c.scope) {
			if h.Path == "" { // a folder's scope holds its text files too: metadata.json
				got = append(got, h.Ref)
			}
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("scope %+v: hits %v, want %q", c.scope, got, c.want)
		}
	}
}

// TestMetadataHitsUpgrade: an index made before textless_fts is searched
// read-only as it is (the scans' rows matched in Go), and opened
// read-write it gains the table, filled with the scans it already holds.
func TestMetadataHitsUpgrade(t *testing.T) {
	v := newMetaVault(t)
	v.write("papers/scan/paper.pdf", scanPDF)
	v.write("papers/scan/metadata.json", `{"title": "Probabilistic Counting: a Paper", "authors": ["Philippe Flajolet"]}`)
	v.write("papers/text/paper.pdf", "counting words on a page")
	v.sync()
	path := v.db.path
	// As an index of the Agentero before migration 007 left it (010's
	// fields, 009's figures and 008's section columns undone first).
	var version int
	v.db.sql.QueryRow(`PRAGMA user_version`).Scan(&version)
	if version != 10 {
		t.Fatalf("user_version %d: undo the migrations after 007 here too", version)
	}
	if _, err := v.db.sql.Exec(`DROP TRIGGER fields_fts_ad; DROP TABLE fields_fts; DROP TRIGGER figures_ai; DROP TRIGGER figures_ad; DROP TABLE figures_fts; DROP TABLE figures;
		ALTER TABLE sections DROP COLUMN start; ALTER TABLE sections DROP COLUMN source;
		DROP TRIGGER textless_fts_ai; DROP TRIGGER textless_fts_au; DROP TRIGGER textless_fts_ad;
		DROP TABLE textless_fts; PRAGMA user_version = 6`); err != nil {
		t.Fatal(err)
	}
	v.db.Close()

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ro.textless {
		t.Fatal("an index without textless_fts opened as if it had it")
	}
	if figs, err := ro.Captions(t.Context(), "papers/text"); err != nil || len(figs) != 0 {
		t.Errorf("read-only, before migration 009: captions %v, %v; want none and no error", figs, err)
	}
	if figs, err := ro.FigureHits(t.Context(), FigureQuery{Text: "figure 1", Scope: Scope{AllPapers: true}}); err != nil || len(figs) != 0 {
		t.Errorf("read-only, before migration 009: figure hits %v, %v; want none and no error", figs, err)
	}
	// matched in Go: a word, or a stem of five letters or more
	for q, want := range map[string]bool{"flajolet": true, "counted": true, "paxos": false, "probable": false} {
		res, err := ro.Search(t.Context(), Query{Text: q, Scope: Scope{AllPapers: true}})
		found := err == nil && len(res.Hits) > 0 && res.Hits[0].Ref == "papers/scan" && strings.Contains(res.Hits[0].Snippet, "found by its metadata")
		if err != nil || found != want {
			t.Errorf("read-only, before migration 007, %q: hits %+v, %v; want papers/scan found by its metadata: %v", q, res.Hits, err, want)
		}
	}
	ro.Close()

	v.db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.db.textless || v.textlessRows() != 1 {
		t.Fatalf("after the upgrade: textless_fts %v with %d rows, want the one scan", v.db.textless, v.textlessRows())
	}
	if byMeta, _ := v.metaHits("flajolet counting"); len(byMeta) != 1 || byMeta[0] != "papers/scan" {
		t.Errorf("after the upgrade: found by metadata %v, want papers/scan", byMeta)
	}
	if byMeta, _ := v.metaHits("words page"); len(byMeta) != 0 {
		t.Errorf("after the upgrade, a paper with text found by metadata: %v", byMeta)
	}
}
