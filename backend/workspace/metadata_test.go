package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestSaveMetadata edits a real paper's metadata as the editor does: the
// index shows the edit at once, search finds the paper by it, and
// metadata.json marks the fields as the user's.
func TestSaveMetadata(t *testing.T) {
	root := corpustest.Vault(t, "peercoin.pdf")
	f := open(t, root, workspace.Options{PoolSize: -1})
	ctx := background()
	if _, err := f.ws.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	ref := corpustest.Ref("peercoin.pdf")
	d, err := f.ws.PaperMetadata(ctx, ref)
	if err != nil || d.Exists || len(d.Edited) != 0 {
		t.Fatalf("before: %+v, %v", d, err)
	}
	v := metadata.Values{Title: "PPCoin: Peer-to-Peer Crypto-Currency with Proof-of-Stake (white paper)", Authors: []string{"Sunny King", "Scott Nadal"},
		Year: 2012, Tags: []string{"proof of stake"}}
	p, err := f.ws.SaveMetadata(ctx, ref, v, []string{metadata.Title, metadata.Authors, metadata.Tags})
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != v.Title || p.TitleSource != "metadata.json" || len(p.Authors) != 2 || p.Authors[1] != "Scott Nadal" {
		t.Errorf("the index after the edit: %q from %s, authors %v", p.Title, p.TitleSource, p.Authors)
	}
	hits, err := f.ws.Search(ctx, "Nadal", 5)
	if err != nil || len(hits) == 0 || hits[0].Ref != ref {
		t.Errorf("search by the edited author: %+v, %v", hits, err)
	}
	d, err = f.ws.PaperMetadata(ctx, ref)
	if err != nil || strings.Join(d.Edited, ",") != "authors,tags,title" || d.Source["title"] != metadata.SourceUser {
		t.Errorf("after: %+v, %v", d, err)
	}
	data, _ := os.ReadFile(filepath.Join(root, ref, "metadata.json"))
	if !strings.Contains(string(data), `"edited"`) {
		t.Errorf("metadata.json: %s", data)
	}

	// an invalid year is refused with a sentence, and nothing changes
	_, err = f.ws.SaveMetadata(ctx, ref, metadata.Values{Year: 12}, []string{metadata.Year})
	if !errors.Is(err, workspace.ErrInvalid) || !strings.Contains(err.Error(), "four digits") {
		t.Errorf("invalid year: %v", err)
	}
	if _, err := f.ws.SaveMetadata(ctx, "papers/none", v, []string{metadata.Title}); !errors.Is(err, workspace.ErrNotFound) {
		t.Errorf("unknown paper: %v", err)
	}
	f.ws.Close()
}
