package metadata

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// crossrefIronFleet is Crossref's answer for a DOI in the shape its REST
// API documents (/works/{doi}: status, message-type, message).
const crossrefIronFleet = `{"status":"ok","message-type":"work","message-version":"1.0.0","message":{
 "indexed":{"date-parts":[[2024,1,5]]},"publisher":"ACM","DOI":"10.1145/2815400.2815428","type":"proceedings-article",
 "title":["IronFleet: proving practical distributed systems correct"],
 "author":[{"given":"Chris","family":"Hawblitzel","sequence":"first","affiliation":[{"name":"Microsoft Research"}]},
           {"given":"Jon","family":"Howell","sequence":"additional","affiliation":[]}],
 "issued":{"date-parts":[[2015,10,4]]},"container-title":["Proceedings of the 25th Symposium on Operating Systems Principles"],
 "abstract":"<jats:p>Distributed systems are notorious for harboring subtle bugs.</jats:p>"}}`

// arxivAttention is the arXiv API's Atom feed for an id_list query.
const arxivAttention = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?id_list%3D1706.03762" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: id_list=1706.03762</title>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/1706.03762v7</id>
    <updated>2023-08-02T00:41:18Z</updated>
    <published>2017-06-12T17:57:34Z</published>
    <title>Attention Is All You
  Need</title>
    <summary>  The dominant sequence transduction models are based on complex recurrent or
convolutional neural networks.</summary>
    <author><name>Ashish Vaswani</name></author>
    <author><name>Noam Shazeer</name></author>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">15 pages, 5 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/1706.03762v7" rel="alternate" type="text/html"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>`

const arxivError = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_9999.99999</id>
    <title>Error</title><summary>incorrect id format for 9999.99999</summary></entry>
</feed>`

type fake struct {
	mu       sync.Mutex
	requests []*http.Request
	at       []time.Time
}

func (f *fake) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r)
		f.at = append(f.at, time.Now())
		f.mu.Unlock()
		switch {
		case r.URL.Path == "/crossref/works/10.1145/2815400.2815428":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(crossrefIronFleet))
		case strings.HasPrefix(r.URL.Path, "/crossref/works/10.9999/"):
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("Resource not found."))
		case r.URL.Path == "/crossref/works/10.1000/slow":
			time.Sleep(2 * time.Second)
		case r.URL.Path == "/arxiv/query" && r.URL.Query().Get("id_list") == "1706.03762":
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write([]byte(arxivAttention))
		case r.URL.Path == "/arxiv/query" && r.URL.Query().Get("id_list") == "9999.99999":
			w.Write([]byte(arxivError))
		case r.URL.Path == "/arxiv/query":
			w.Write([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title></feed>`))
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOnlineLookup(t *testing.T) {
	f := &fake{}
	srv := f.server(t)
	o := &Online{CrossrefBase: srv.URL + "/crossref", ArxivBase: srv.URL + "/arxiv", Gap: 50 * time.Millisecond, Timeout: 500 * time.Millisecond}
	ctx := context.Background()

	root, ref := paperVault(t, `{"title": "IronFleet (from Zotero)", "zotero_key": "K1"}`)
	// the user corrected the year: a lookup must not change it
	if err := Save(ctx, root, ref, Values{Year: 2016}, []string{Year}); err != nil {
		t.Fatal(err)
	}
	r := o.Lookup(ctx, root, ref, "https://doi.org/10.1145/2815400.2815428", "")
	if r.Error != "" || r.Source != SourceCrossref || strings.Join(r.Wrote, ",") != "authors,abstract" {
		t.Fatalf("crossref lookup: %+v", r)
	}
	rec, _ := Load(ctx, root, ref)
	if rec.Values.Title != "IronFleet (from Zotero)" || rec.Values.Year != 2016 {
		t.Errorf("overwrote the imported title or the user's year: %+v", rec.Values)
	}
	if strings.Join(rec.Values.Authors, ";") != "Chris Hawblitzel;Jon Howell" || rec.Source["authors"] != SourceCrossref {
		t.Errorf("authors %v from %q", rec.Values.Authors, rec.Source["authors"])
	}
	m, _, _ := Read(ctx, root, ref)
	if m.Abstract != "Distributed systems are notorious for harboring subtle bugs." {
		t.Errorf("abstract %q", m.Abstract)
	}

	root2, ref2 := paperVault(t, "")
	r = o.Lookup(ctx, root2, ref2, "", "arXiv:1706.03762v5")
	if r.Error != "" || r.Source != SourceArxiv || r.ID != "1706.03762" {
		t.Fatalf("arxiv lookup: %+v", r)
	}
	rec, _ = Load(ctx, root2, ref2)
	if rec.Values.Title != "Attention Is All You Need" || rec.Values.Year != 2017 || len(rec.Values.Authors) != 2 || rec.Source["title"] != SourceArxiv {
		t.Errorf("from arXiv: %+v %v", rec.Values, rec.Source)
	}

	// errors are reported in sentences, and nothing is written
	root3, ref3 := paperVault(t, "")
	for _, c := range []struct{ doi, arxiv, want string }{
		{"10.9999/nothing", "", "Crossref does not know it"},
		{"10.1000/slow", "", "did not answer within"},
		{"", "9999.99999", "arXiv refused the id"},
		{"", "2401.00001", "arXiv does not know 2401.00001"},
		{"", "", "no DOI or arXiv id"},
	} {
		r := o.Lookup(ctx, root3, ref3, c.doi, c.arxiv)
		if !strings.Contains(r.Error, c.want) {
			t.Errorf("lookup %q/%q: error %q, want %q", c.doi, c.arxiv, r.Error, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root3, ref3, "metadata.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed lookup wrote metadata.json")
	}

	// polite: a User-Agent naming Agentero, a mailto only when the user set one,
	// and a pause between two requests to one service
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "Agentero/") || strings.Contains(ua, "mailto") {
			t.Errorf("user agent %q", ua)
		}
	}
	for i := 1; i < len(f.at); i++ {
		if f.requests[i].URL.Path[:4] == f.requests[i-1].URL.Path[:4] && f.at[i].Sub(f.at[i-1]) < 40*time.Millisecond {
			t.Errorf("requests %d and %d to one service %s apart", i-1, i, f.at[i].Sub(f.at[i-1]))
		}
	}
	o.Contact = "me@example.org"
	if ua := o.userAgent(); !strings.Contains(ua, "mailto:me@example.org") {
		t.Errorf("user agent with a contact: %q", ua)
	}
}
