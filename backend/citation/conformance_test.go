package citation

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateConformance = flag.Bool("update-conformance", false, "rewrite testdata/conformance.json from Parse")

// conformanceURIs are the citation URIs whose reading the UI must agree
// with: frontend/src/lib/citation-conformance.test.ts reads the same table
// with the UI's parser, so that a chip opens what the backend checked.
var conformanceURIs = []string{
	"papers/raft/raft.pdf#page=3&quote=Raft%20decomposes",
	"papers/raft/raft.pdf",
	"papers/raft/raft.pdf#page=6",
	"papers/a%20b/x.pdf#quote=two+words",
	"papers/x.pdf#page=2&quote=a%26b",
	"papers/raft/raft.pdf#page=3&label=iv",
	"papers/raft/raft.pdf#page=3&region=72,96.5,230,180",
	"papers/raft/raft.pdf#page=3&region=72,96.5,230,180&quote=Figure+2",
	"papers/raft/raft.pdf#page=3&region=14000,0,401,20",
	"papers/raft/raft.pdf#region=1,2,3,4",
	"papers/raft/raft.pdf#page=3&region=1,2,3",
	"papers/raft/raft.pdf#page=3&region=-1,2,3,4",
	"papers/raft/raft.pdf#page=0",
	"papers/raft/raft.pdf#page=abc",
	"papers/raft/raft.pdf#page=1234567",
	"papers/raft/raft.pdf#quote=%zz",
	"/etc/passwd",
	"papers/../x.pdf",
	".agentero/index.sqlite",
	"https://doi.org/10.1/x",
	"https://arxiv.org/abs/1706.03762",
	"http://example.com/x",
	"javascript:alert(1)",
}

// conformanceRow is how one URI reads: ok, and its fields when it is.
type conformanceRow struct {
	URI   string `json:"uri"`
	OK    bool   `json:"ok"`
	Path  string `json:"path,omitempty"`
	Page  int    `json:"page,omitempty"`
	Quote string `json:"quote,omitempty"`
	URL   string `json:"url,omitempty"`
	// Region is x, y, width, height; absent when the URI names none (or one dropped).
	Region []float64 `json:"region,omitempty"`
}

func TestConformanceTable(t *testing.T) {
	var got []conformanceRow
	for _, s := range conformanceURIs {
		u, err := Parse(s)
		row := conformanceRow{URI: s, OK: err == nil, Path: u.Path, Page: u.Page, Quote: u.Quote, URL: u.URL}
		if r := u.Region; !r.IsZero() {
			row.Region = []float64{r.X, r.Y, r.Width, r.Height}
		}
		got = append(got, row)
	}
	file := filepath.Join("testdata", "conformance.json")
	if *updateConformance {
		data, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update-conformance)", err)
	}
	var want []conformanceRow
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse reads the table differently (-file +Parse); the UI's parser must change with it:\n%s", diff)
	}
}
