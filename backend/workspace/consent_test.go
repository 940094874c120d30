package workspace_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestImportLooksUpOnlyWithConsent: in the app (a started workspace), a
// paper added while the user has not allowed lookups is looked up nowhere;
// once the user said "Look up online" (at the first import, or in
// Settings), the papers an add brings in are looked up after it, by their
// arXiv id, and nothing but that id is sent.
func TestImportLooksUpOnlyWithConsent(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	var mu sync.Mutex
	var asked []string // the request URIs the fake services received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.RequestURI())
		mu.Unlock()
		if r.URL.Path == "/arxiv/query" {
			w.Write([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1706.03762v7</id>
<published>2017-06-12T17:57:34Z</published><title>Attention Is All You Need</title><summary>Transformers.</summary>
<author><name>Ashish Vaswani</name></author></entry></feed>`))
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	requests := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}

	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1,
		Online: &metadata.Online{CrossrefBase: srv.URL + "/crossref", ArxivBase: srv.URL + "/arxiv", Gap: time.Millisecond}})
	defer f.ws.Close()
	if err := f.ws.Start(); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "attention.pdf")
	corpustest.CopyFile(t, filepath.Join(corpus, "1706.03762.pdf"), src)

	// Without consent: the add indexes, and nothing is looked up.
	rep, err := f.ws.Add(background(), []string{src})
	if err != nil || len(rep.Added) != 1 {
		t.Fatalf("add: %+v, %v", rep, err)
	}
	ref := rep.Added[0].Ref
	if p, err := f.ws.Papers(background()); err != nil || len(p) != 1 || p[0].ArxivID == "" {
		t.Fatalf("the added paper has no arXiv id to look up, so this test could not fail: %+v, %v", p, err)
	}
	// A lookup would have started before Add returned; give a wrong one
	// the time to reach the fake server.
	time.Sleep(300 * time.Millisecond)
	if got := requests(); len(got) != 0 {
		t.Fatalf("looked up without consent: %v", got)
	}
	if r := f.ws.MetadataLookup(); r.Running || !r.Finished.IsZero() {
		t.Fatalf("a lookup ran without consent: %+v", r)
	}

	// "Look up online": the next add is looked up after it is indexed.
	s, _ := f.ws.Settings()
	s.MetadataOnline, s.MetadataOnlineAsked = true, true
	if err := f.ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "raft.pdf")
	corpustest.CopyFile(t, filepath.Join(corpus, "in-search-of-an-understandable-consensus-algorithm.pdf"), other)
	if rep, err := f.ws.Add(background(), []string{other}); err != nil || len(rep.Added) != 1 {
		t.Fatalf("second add: %+v, %v", rep, err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var r workspace.OnlineReport
	for time.Now().Before(deadline) {
		if r = f.ws.MetadataLookup(); !r.Running && !r.Finished.IsZero() {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.Papers != 1 || r.Updated != 1 || len(r.Reports) != 1 || r.Reports[0].Ref != ref {
		t.Fatalf("the lookup after the add: %+v", r)
	}
	got := requests()
	if len(got) != 1 || got[0] != "/arxiv/query?id_list=1706.03762" {
		t.Errorf("requests: %v, want only the arXiv id 1706.03762", got)
	}
	d, err := f.ws.PaperMetadata(background(), ref)
	if err != nil || d.Source["abstract"] != metadata.SourceArxiv {
		t.Errorf("after the lookup: %+v, %v", d, err)
	}
}
