package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestMetadataCommand lists a real vault's metadata, then looks it up
// online (a fake arXiv answering in the API's Atom format): only with
// --online, and what the user edited stays.
func TestMetadataCommand(t *testing.T) {
	root := corpustest.Vault(t, "1706.03762.pdf", "paxos-made-simple.pdf")
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path != "/arxiv/query" || r.URL.Query().Get("id_list") != "1706.03762" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry>
<id>http://arxiv.org/abs/1706.03762v7</id><published>2017-06-12T17:57:34Z</published><title>Attention Is All You Need</title>
<summary>The dominant sequence transduction models are based on complex recurrent or convolutional neural networks.</summary>
<author><name>Ashish Vaswani</name></author><author><name>Noam Shazeer</name></author></entry></feed>`))
	}))
	defer srv.Close()
	e := env(t)
	e.Workspace.Online = &metadata.Online{ArxivBase: srv.URL + "/arxiv", CrossrefBase: srv.URL + "/crossref", Gap: time.Millisecond}

	out, stderr, code := runIn(t, e, "metadata", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Papers []struct {
			Ref, Title string
			Authors    []string
			Year       int
		}
		Lookup *json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Papers) != 2 {
		t.Fatalf("output %s: %v", out, err)
	}
	if got.Papers[0].Title != "Attention Is All You Need" || got.Papers[0].Authors[0] != "Ashish Vaswani" || got.Papers[0].Year != 2017 {
		t.Errorf("offline metadata: %+v", got.Papers[0])
	}
	if got.Lookup != nil || requests.Load() != 0 {
		t.Fatalf("looked up without --online (%d requests)", requests.Load())
	}

	// the user set the year by hand; the lookup leaves it
	ref := corpustest.Ref("1706.03762.pdf")
	if err := os.WriteFile(filepath.Join(root, ref, "metadata.json"), []byte(`{"year": 2018, "edited": ["year"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runIn(t, e, "metadata", root, "--online")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "looked up 1 papers online: 1 updated, 0 failed") || !strings.Contains(out, "wrote title, authors, abstract") {
		t.Errorf("output:\n%s", out)
	}
	data, _ := os.ReadFile(filepath.Join(root, ref, "metadata.json"))
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	if m["year"] != float64(2018) || m["title"] != "Attention Is All You Need" || m["source"].(map[string]any)["title"] != "arxiv" {
		t.Errorf("metadata.json after the lookup: %s", data)
	}
	if !strings.Contains(out, "Ashish Vaswani et al.: Attention Is All You Need (2018)") {
		t.Errorf("the index does not show the user's year:\n%s", out)
	}
	// looked up before: not again without --again
	n := requests.Load()
	if _, _, code := runIn(t, e, "metadata", root, "--online"); code != 0 || requests.Load() != n {
		t.Errorf("looked up again without --again (exit %d)", code)
	}
	if _, _, code := runIn(t, e, "metadata", root, "--again"); code != 2 {
		t.Errorf("--again without --online: exit %d, want 2", code)
	}
}
