package acp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
)

// provenance is a sentence only bitcoin's metadata.json holds: not its
// title, not its abstract, on no page.
const provenance = "Zanzibar archive copy, fetched from the author's mailing list in November 2008 by the curator."

// TestSourcesArePrecise runs a real agent whose answer cites one paper
// every way an answer does, and checks what the host lists as its sources:
// one per page, whatever the quote or the form of the link; the whole
// paper not when a page of it is cited; its title in quotation marks no
// source (nor when it is all the answer says of it); its metadata.json not
// when only linked, only when quoted; a passage quoted before its page is
// linked counts from the quote; pages of a paper the turn may not read
// never.
func TestSourcesArePrecise(t *testing.T) {
	root := corpustest.Vault(t, "bitcoin.pdf", "peercoin.pdf")
	meta := `{"title": "Bitcoin: A Peer-to-Peer Electronic Cash System", "authors": ["Satoshi Nakamoto"], "year": 2008, "provenance": "` + provenance + `"}`
	if err := os.WriteFile(filepath.Join(root, "papers", "bitcoin", "metadata.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(binary, "index", root).CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	db, err := index.Open(index.Path(root), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })

	pdf := "papers/bitcoin/bitcoin.pdf"
	page := func(n int) string {
		text, _, err := db.PageText(context.Background(), "papers/bitcoin", n)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	// A passage of page 2, word for word: a line of it and the next.
	lines := strings.Split(page(2), "\n")
	var passage string
	for i := 0; i+1 < len(lines) && len(passage) < 80; i++ {
		if len(lines[i]) > 50 && !strings.ContainsAny(lines[i]+lines[i+1], "\"“”…") {
			passage = strings.TrimSpace(lines[i] + "\n" + lines[i+1])
		}
	}
	if passage == "" {
		t.Fatal("page 2 has no passage to quote")
	}
	quoted := "“" + strings.ReplaceAll(passage, "\n", " ") + "”"

	head := "## Bitcoin\n\nBitcoin is introduced in “Bitcoin: A Peer-to-Peer Electronic Cash System” ([the paper](" + pdf + ")).\n\n" +
		"The paper says " + quoted + ".\n\n" +
		"- Transactions are chained [p. 3](" + pdf + "#page=3&quote=Each+owner+transfers), as " + pdf + "#page=3 shows, and <" + pdf + "#page=3&quote=hash+of+the+previous>.\n" +
		"- Its [metadata](papers/bitcoin/metadata.json) names the author.\n" +
		"- Peercoin builds on it ([p. 2](papers/peercoin/peercoin.pdf#page=2)).\n"
	tail := "\nThe passage above is on [p. 2](" + pdf + "#page=2)."
	for _, tt := range []struct {
		name   string
		answer string
		want   []string
	}{
		{"linked and named", head + tail, []string{pdf + "#page=2", pdf + "#page=3"}},
		{"metadata quoted", head + "- It was “" + provenance + "”\n" + tail, []string{pdf + "#page=2", pdf + "#page=3", "papers/bitcoin/metadata.json"}},
		{"a figures region", head + "- Figure 1 [is here](" + pdf + "#page=3&region=90,120.5,400,200), again [here](" + pdf + "#page=3&region=1,1,2,2).\n" + tail,
			[]string{pdf + "#page=2", pdf + "#page=3&region=90,120.5,400,200"}},
		{"a region on no page", head + "- [Figure 1](" + pdf + "#page=3&region=14000,120,900,200).\n" + tail, []string{pdf + "#page=2", pdf + "#page=3"}},
		{"named only", "Bitcoin is introduced in “Bitcoin: A Peer-to-Peer Electronic Cash System”.", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ag, _ := styled(t, "claude", map[string]string{"PEER_QUERY": "zanzibar archive curator", "PEER_ANSWER": tt.answer})
			ag.Name = "precise-" + strings.ReplaceAll(tt.name, " ", "-")
			h := newHost(t, root, db, ag)
			r := ask(t, h, ag.Name, ag.Name, sidebar, "Where does Bitcoin come from?")
			if r.Completed.Content != tt.answer {
				t.Fatalf("the answer arrived as %q", r.Completed.Content)
			}
			if diff := cmp.Diff(tt.want, r.Completed.Sources, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
			returned := usage(t, root, h, ag.Name)
			if !slices.Contains(returned, "papers/bitcoin/metadata.json") {
				t.Fatalf("the search did not return metadata.json (%v): the test tests nothing", returned)
			}
			for _, c := range r.Completed.Consulted {
				for _, s := range r.Completed.Sources {
					if key(t, c) == key(t, s) {
						t.Errorf("%s is both a source and consulted", c)
					}
				}
			}
			if tt.name == "linked and named" && !slices.Contains(r.Completed.Consulted, "papers/bitcoin/metadata.json") {
				t.Errorf("metadata.json, returned and not quoted, is not consulted: %v", r.Completed.Consulted)
			}
		})
	}
}

func key(t *testing.T, uri string) citation.Key {
	t.Helper()
	u, err := citation.Parse(uri)
	if err != nil {
		t.Fatalf("%q is not a citation URI: %v", uri, err)
	}
	return u.Key()
}
