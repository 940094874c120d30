package index_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
)

// TestCorpusUnreadableText indexes the corpus's two hard cases: a paper
// whose fonts have no usable encoding (its text layer reads "HJI?KLGM
// ‹?B7NPORQ…") and an image-only scan with a metadata.json. The garbled
// paper is badged as needing OCR and none of its garbage is searchable or
// readable; both are found by their titles and metadata.
func TestCorpusUnreadableText(t *testing.T) {
	garbled := "a-response-to-cheriton-and-skeens-criticism-of-causal-and-totally-ordered-communication.pdf"
	scan := "1985-Flajolet-Probabilistic-counting.pdf"
	root := makeVault(t, []string{garbled, scan})
	meta := `{"title": "Probabilistic Counting Algorithms for Data Base Applications",
		"authors": ["Philippe Flajolet", "G. Nigel Martin"], "year": 1985}`
	if err := os.WriteFile(filepath.Join(root, refOf(scan), "metadata.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, root)
	st := syncVault(t, db, sharedExtractor(), root)
	ctx := context.Background()

	p, err := db.Paper(ctx, refOf(garbled))
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != index.StatusGarbled || p.NoTextPages != p.Pages || !strings.Contains(p.Error, "needs OCR") {
		t.Errorf("garbled paper: status %q, %d of %d pages without text, error %q", p.Status, p.NoTextPages, p.Pages, p.Error)
	}
	if strings.ContainsAny(p.Title, "?<>`\\") {
		t.Errorf("garbled paper's title is its garbage: %q", p.Title)
	}
	warned := false
	for _, w := range st.Warnings {
		warned = warned || w.Ref == refOf(garbled) && strings.Contains(w.Error, "needs OCR")
	}
	if !warned {
		t.Errorf("the sync's warnings do not name the garbled paper: %v", st.Warnings)
	}
	for n := 1; n <= p.Pages; n++ {
		text, _, err := db.PageText(ctx, p.Ref, n)
		if err != nil || text != "" {
			t.Fatalf("page %d of the garbled paper holds %q (%v): garbage offered as text", n, text, err)
		}
	}
	// a token of its garbage finds nothing
	res, err := db.Search(ctx, index.Query{Text: "NPORQ NTSUSUV", Scope: index.Scope{AllPapers: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 {
		t.Errorf("garbage is searchable: %+v", res.Hits)
	}

	s, err := db.Paper(ctx, refOf(scan))
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != index.StatusNoText {
		t.Errorf("scan: status %q", s.Status)
	}
	for query, want := range map[string]string{
		"probabilistic counting":   refOf(scan),
		"Flajolet":                 refOf(scan),
		"cheriton skeen criticism": refOf(garbled),
	} {
		res, err := db.Search(ctx, index.Query{Text: query, Scope: index.Scope{AllPapers: true}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Ref != want || res.Hits[0].Page != 1 {
			t.Errorf("search %q: hits %+v, want %s found by its metadata", query, res.Hits, want)
		}
	}
	// out of scope, it is not found
	res, err = db.Search(ctx, index.Query{Text: "probabilistic counting", Scope: index.Scope{Papers: []string{refOf(garbled)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 {
		t.Errorf("a paper out of scope found by its metadata: %+v", res.Hits)
	}
	// in scope as a granted paper, or through its folder (or the vault's
	// "."), it is; a sibling folder's grant does not reach it
	for _, scope := range []index.Scope{{Papers: []string{refOf(scan)}}, {Folders: []string{path.Dir(refOf(scan))}}, {Folders: []string{"."}}} {
		res, err := db.Search(ctx, index.Query{Text: "probabilistic counting", Scope: scope})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Ref != refOf(scan) {
			t.Errorf("scope %+v: hits %+v, want the scan found by its metadata", scope, res.Hits)
		}
	}
	res, err = db.Search(ctx, index.Query{Text: "probabilistic counting", Scope: index.Scope{Folders: []string{refOf(scan) + "-elsewhere"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 0 {
		t.Errorf("a folder whose name only starts like the paper's reached it: %+v", res.Hits)
	}
}
