package workspace_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// TestLookupMetadataNeedsConsent: nothing is looked up until the user
// switches it on; then the app's lookup runs after indexing, in the
// background, and its report says what failed.
func TestLookupMetadataNeedsConsent(t *testing.T) {
	root := corpustest.Vault(t, "1706.03762.pdf", "ironFleet-proving-practical-distributed-systems-correct.pdf")
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/arxiv/query" {
			w.Write([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1706.03762v7</id>
<published>2017-06-12T17:57:34Z</published><title>Attention Is All You Need</title><summary>Transformers.</summary>
<author><name>Ashish Vaswani</name></author></entry></feed>`))
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	f := open(t, root, workspace.Options{PoolSize: -1, Online: &metadata.Online{CrossrefBase: srv.URL + "/crossref", ArxivBase: srv.URL + "/arxiv", Gap: time.Millisecond}})
	ctx := background()
	if _, err := f.ws.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ws.LookupMetadata(ctx, false, false); !errors.Is(err, workspace.ErrInvalid) || !strings.Contains(err.Error(), "switched off") {
		t.Fatalf("lookup while switched off: %v", err)
	}
	s, _ := f.ws.Settings()
	s.MetadataOnline = true
	if err := f.ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	s.ContactEmail = "not an address"
	if err := f.ws.SaveSettings(s); !errors.Is(err, workspace.ErrInvalid) {
		t.Errorf("a bad contact email was saved: %v", err)
	}
	if requests.Load() != 0 {
		t.Fatalf("%d requests before the user asked", requests.Load())
	}
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var r workspace.OnlineReport
	for time.Now().Before(deadline) {
		if r = f.ws.MetadataLookup(); !r.Running && !r.Finished.IsZero() {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.Papers != 2 || r.Updated != 1 || r.Failed != 1 {
		t.Fatalf("report: %+v", r)
	}
	for _, rep := range r.Reports {
		if rep.Source == metadata.SourceCrossref && !strings.Contains(rep.Error, "Crossref answered HTTP 503") {
			t.Errorf("crossref failure: %+v", rep)
		}
	}
	d, err := f.ws.PaperMetadata(ctx, corpustest.Ref("1706.03762.pdf"))
	if err != nil || d.Source["title"] != metadata.SourceArxiv {
		t.Errorf("after the lookup: %+v, %v", d, err)
	}
	f.ws.Close()
}
