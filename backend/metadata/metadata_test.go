package metadata

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func paperVault(t *testing.T, meta string) (string, string) {
	t.Helper()
	root := t.TempDir()
	ref := "papers/raft"
	if err := os.MkdirAll(filepath.Join(root, ref), 0o755); err != nil {
		t.Fatal(err)
	}
	if meta != "" {
		if err := os.WriteFile(filepath.Join(root, ref, "metadata.json"), []byte(meta), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, ref
}

func readJSON(t *testing.T, root, ref string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ref, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSaveMarksTheUsersFields(t *testing.T) {
	root, ref := paperVault(t, `{"title": "Old", "zotero_key": "ABCD1234", "year": 2013}`)
	ctx := context.Background()
	v := Values{Title: "  In Search of an  Understandable Consensus Algorithm ", Authors: []string{"Diego Ongaro", " John Ousterhout", ""},
		Year: 2014, DOI: "https://doi.org/10.5555/2643634.2643666", Tags: []string{"consensus", "consensus"}}
	if err := Save(ctx, root, ref, v, []string{Title, Authors, Year, DOI, Tags}); err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, root, ref)
	if m["title"] != "In Search of an Understandable Consensus Algorithm" || m["year"] != float64(2014) || m["doi"] != "10.5555/2643634.2643666" {
		t.Errorf("values: %v", m)
	}
	if m["zotero_key"] != "ABCD1234" {
		t.Errorf("an unknown key was lost: %v", m)
	}
	if a := m["authors"].([]any); len(a) != 2 || a[1] != "John Ousterhout" {
		t.Errorf("authors %v", a)
	}
	if tags := m["tags"].([]any); len(tags) != 1 {
		t.Errorf("tags %v", tags)
	}
	rec, err := Load(ctx, root, ref)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rec.Edited, ",") != "authors,doi,tags,title,year" || rec.Source["title"] != SourceUser {
		t.Errorf("provenance: edited %v, source %v", rec.Edited, rec.Source)
	}

	// a lookup fills what the user did not set, never what they did
	wrote, err := Merge(ctx, root, ref, Values{Title: "Raft (extended)", Year: 2013, ArxivID: "arXiv:1234.56789v2"}, []string{Title, Year, ArxivID}, SourceCrossref)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(wrote, ",") != ArxivID {
		t.Errorf("merge wrote %v, want only arxiv_id", wrote)
	}
	m = readJSON(t, root, ref)
	if m["title"] != "In Search of an Understandable Consensus Algorithm" || m["year"] != float64(2014) || m["arxiv_id"] != "1234.56789" {
		t.Errorf("after merge: %v", m)
	}
	if src := m["source"].(map[string]any); src["arxiv_id"] != SourceCrossref || src["title"] != SourceUser {
		t.Errorf("sources %v", src)
	}

	// clearing a field gives it back to the PDF
	if err := Save(ctx, root, ref, Values{}, []string{Year}); err != nil {
		t.Fatal(err)
	}
	rec, _ = Load(ctx, root, ref)
	if rec.Values.Year != 0 || strings.Contains(strings.Join(rec.Edited, ","), "year") {
		t.Errorf("cleared year: %+v", rec)
	}
}

func TestSaveRefusesInvalidValues(t *testing.T) {
	root, ref := paperVault(t, "")
	err := Save(context.Background(), root, ref, Values{Year: 201, DOI: "doi.org/abc", ArxivID: "not an id"}, []string{Year, DOI, ArxivID})
	var inv *InvalidError
	if !errors.As(err, &inv) || len(inv.Problems) != 3 {
		t.Fatalf("err = %v", err)
	}
	for _, p := range inv.Problems {
		if !strings.HasSuffix(p.Message, ".") || p.Message[0] < 'A' || p.Message[0] > 'Z' {
			t.Errorf("not a sentence: %q", p.Message)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ref, "metadata.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid edit wrote metadata.json: %v", err)
	}
	if err := Save(context.Background(), root, ref, Values{Year: 2017}, []string{Year}); err != nil {
		t.Errorf("a new metadata.json: %v", err)
	}
}

func TestSaveStaysInTheVault(t *testing.T) {
	root, _ := paperVault(t, "")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "papers", "escape")); err != nil {
		t.Skip(err)
	}
	err := Save(context.Background(), root, "papers/escape", Values{Title: "x"}, []string{Title})
	if err == nil {
		t.Fatal("wrote through a link out of the vault")
	}
	if _, err := os.Stat(filepath.Join(outside, "metadata.json")); err == nil {
		t.Error("metadata.json written outside the vault")
	}
	if err := Save(context.Background(), root, "../elsewhere", Values{Title: "x"}, []string{Title}); err == nil {
		t.Error("a ref outside the vault was accepted")
	}
}

// TestLookupRewritesAPDFAbstract: an online lookup rewrites the abstract
// read from the PDF when the paper was added, but not its other fields
// read from the PDF, nor an abstract the user or an import wrote.
func TestLookupRewritesAPDFAbstract(t *testing.T) {
	for _, tc := range []struct {
		name, meta string
		wrote      string
	}{
		{"read from the PDF", `{"title": "Raft", "abstract": "Raft is a consensus algorithm", "source": {"title": "pdf", "abstract": "pdf"}}`, "abstract"},
		{"an import's", `{"title": "Raft", "abstract": "From Zotero.", "source": {"title": "pdf", "abstract": "zotero"}}`, ""},
		{"the user's", `{"title": "Raft", "abstract": "Mine.", "edited": ["abstract"], "source": {"abstract": "user"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, ref := paperVault(t, tc.meta)
			wrote, err := Merge(context.Background(), root, ref, Values{Title: "In Search of an Understandable Consensus Algorithm",
				Abstract: "Raft is a consensus algorithm for managing a replicated log."}, []string{Title, abstractField}, SourceArxiv)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(wrote, ","); got != tc.wrote {
				t.Errorf("wrote %q, want %q", got, tc.wrote)
			}
			if m := readJSON(t, root, ref); m["title"] != "Raft" {
				t.Errorf("title %q: a lookup rewrote the title read from the PDF", m["title"])
			}
		})
	}
}
