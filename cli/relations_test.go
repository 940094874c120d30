package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

type cardT struct {
	Title, DOI, ArxivID, PaperPath, MatchBy, CitationURI string
	Year                                                 int
}

func findCard(cards []cardT, ref string) *cardT {
	for i, c := range cards {
		if c.PaperPath == ref {
			return &cards[i]
		}
	}
	return nil
}

func TestRelationsJSON(t *testing.T) {
	root := corpustest.Vault(t, "paxos-made-simple.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf",
		"impossibility-of-consensus-with-one-faulty-process.pdf")
	const (
		paxos = "papers/paxos-made-simple"
		raft  = "papers/in-search-of-an-understandable-consensus-algorithm"
		flp   = "papers/impossibility-of-consensus-with-one-faulty-process"
	)
	out, errOut, code := run(t, "relations", root, paxos, "--json")
	if code != 0 {
		t.Fatalf("relations exit %d: %s", code, errOut)
	}
	var all map[string][]cardT
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("relations --json: %v\n%s", err, out)
	}
	if len(all) != 3 || all["references"] == nil || all["citedBy"] == nil || all["related"] == nil {
		t.Fatalf("want references, citedBy and related; got %s", out)
	}
	c := findCard(all["references"], flp)
	if c == nil || c.MatchBy != "title" || c.CitationURI != flp+"/impossibility-of-consensus-with-one-faulty-process.pdf" ||
		c.Title != "Impossibility of Distributed Consensus with One Faulty Process" {
		t.Errorf("paxos references FLP: %+v in %s", c, out)
	}
	for _, ext := range all["references"][1:] {
		if ext.PaperPath != "" || ext.CitationURI != "" {
			t.Errorf("a reference outside the library has a path or a URI to open: %+v", ext)
		}
	}
	if c := findCard(all["citedBy"], raft); c == nil || c.MatchBy != "title" {
		t.Errorf("paxos cited by raft: %+v in %s", c, out)
	}
	for _, kind := range []string{"references", "citedBy", "related"} {
		if findCard(all[kind], paxos) != nil {
			t.Errorf("%s of paxos holds paxos itself", kind)
		}
	}
	noSidecar := filepath.Join(root, "papers", "paxos-made-simple", "source")
	if _, err := os.Stat(noSidecar); err == nil {
		t.Error("relations wrote into a paper folder without --write-sidecars")
	}

	// One kind, by the paper's PDF path; sidecars on request.
	out, errOut, code = run(t, "relations", root, raft+"/in-search-of-an-understandable-consensus-algorithm.pdf",
		"--kind", "citedBy", "--json", "--write-sidecars")
	if code != 0 {
		t.Fatalf("relations --kind citedBy exit %d: %s", code, errOut)
	}
	var one map[string][]cardT
	if err := json.Unmarshal([]byte(out), &one); err != nil {
		t.Fatal(err)
	}
	if _, ok := one["citedBy"]; len(one) != 1 || !ok {
		t.Errorf("--kind citedBy printed %s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "papers", "paxos-made-simple", "source", "agentero-cite.json")); err != nil {
		t.Errorf("--write-sidecars wrote no sidecar: %v", err)
	}

	out, _, code = run(t, "relations", root, paxos, "--kind", "references")
	if code != 0 || !strings.Contains(out, "Impossibility of Distributed Consensus") || !strings.Contains(out, flp) {
		t.Errorf("human output (exit %d):\n%s", code, out)
	}

	for _, bad := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"relations", root}, 2, "want 2 arguments"},
		{[]string{"relations", root, paxos, "--kind", "cites"}, 2, "unknown relation kind"},
		{[]string{"relations", root, paxos, "--limit", "0"}, 2, "--limit"},
		{[]string{"relations", root, "papers/nope"}, 1, "no paper papers/nope"},
	} {
		_, errOut, code := run(t, bad.args...)
		if code != bad.code || !strings.Contains(errOut, bad.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", bad.args[2:], code, errOut, bad.code, bad.msg)
		}
	}
}
