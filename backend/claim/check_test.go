package claim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/google/go-cmp/cmp"
)

const (
	raftPDF    = "papers/in-search-of-an-understandable-consensus-algorithm/in-search-of-an-understandable-consensus-algorithm.pdf"
	bitcoinPDF = "papers/bitcoin/bitcoin.pdf"
	scanPDF    = "papers/1985-Flajolet-Probabilistic-counting/1985-Flajolet-Probabilistic-counting.pdf"
)

// smallVault is Raft, Bitcoin, a scan without text and a note, indexed.
func smallVault(t *testing.T) (string, *index.DB) {
	t.Helper()
	root := corpustest.Vault(t, "in-search-of-an-understandable-consensus-algorithm.pdf", "bitcoin.pdf", "1985-Flajolet-Probabilistic-counting.pdf")
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "raft.md"), []byte("# Raft\n\nElection timeouts are chosen randomly from 150 to 300 ms, so split votes are rare.\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "notes", "folder"), 0o755)
	db, err := indexVault(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return root, db
}

// verdictOf is what a test compares of a check.
type verdictOf struct {
	URI       string
	Page      int
	Verdict   citation.Verdict
	FoundPage int
	Why       string
}

func TestCheckVerdicts(t *testing.T) {
	root, db := smallVault(t)
	link := applink.Link{Vault: root, Ref: "papers/in-search-of-an-understandable-consensus-algorithm", Page: 6, Quote: "Raft uses randomized election timeouts"}.String()
	otherVault := applink.Link{Vault: "/elsewhere", Ref: "papers/x", Page: 2}.String()
	for _, tc := range []struct {
		name  string
		md    string
		grant *grant.Grant
		want  []verdictOf
	}{
		{"a quote on its page", "“Raft uses randomized election timeouts to ensure that split votes are rare” [" + raftPDF + "#page=6]", nil,
			[]verdictOf{{raftPDF + "#page=6", 6, citation.Verified, 0, "the quote is on page 6"}}},
		{"a quote on another page", "“Raft uses randomized election timeouts to ensure that split votes are rare” [" + raftPDF + "#page=2]", nil,
			[]verdictOf{{raftPDF + "#page=2", 2, citation.WrongPage, 6, "the quote is not on page 2; it is on page 6"}}},
		{"a quote on no page", "“Raft uses carefully tuned election timeouts to make split votes impossible” [" + raftPDF + "#page=6]", nil,
			[]verdictOf{{raftPDF + "#page=6", 6, citation.Weak, 0, "the quote is on no page of the paper; page 6 has 5 of its 8 content words"}}},
		{"the URI's quote", "Timeouts are random [p. 6](" + raftPDF + "#page=6&quote=Raft+uses+randomized+election+timeouts)", nil,
			[]verdictOf{{raftPDF + "#page=6&quote=Raft+uses+randomized+election+timeouts", 6, citation.Verified, 0, "the quote is on page 6"}}},
		{"the issue's example: a figure on another page", "Raft's election timeouts are 150–300 ms [" + raftPDF + "#page=1].", nil,
			[]verdictOf{{raftPDF + "#page=1", 1, citation.WrongPage, 6, "page 1 has 2 of its 4 content words but not 150 or 300; page 6 has them all"}}},
		{"a changed number", "Raft's election timeouts are chosen randomly from 150–350 ms [" + raftPDF + "#page=6].", nil,
			[]verdictOf{{raftPDF + "#page=6", 6, citation.Weak, 0, "page 6 has its words and 150 but not 350"}}},
		{"supported", "Raft's election timeouts are chosen randomly from 150–300 ms [" + raftPDF + "#page=6].", nil,
			[]verdictOf{{raftPDF + "#page=6", 6, citation.Supported, 0, "page 6 has its words and 150 and 300"}}},
		{"unsupported", "Bitcoin miners must solve a hash puzzle by scanning for nonces [" + raftPDF + "#page=6].", nil,
			[]verdictOf{{raftPDF + "#page=6", 6, citation.Unsupported, 0, "page 6 has none of its 7 content words; no page holds most of them (page 1 has the most)"}}},
		{"a whole paper", "Proof-of-work is essentially one-CPU-one-vote [" + bitcoinPDF + "].", nil,
			[]verdictOf{{bitcoinPDF, 0, citation.Supported, 3, "page 3 has its words"}}},
		{"a paper's folder", "Proof-of-work is essentially one-CPU-one-vote [papers/bitcoin].", nil,
			[]verdictOf{{"papers/bitcoin", 0, citation.Supported, 3, "page 3 has its words"}}},
		{"an agentero link of this vault", "Raft's timeouts are random [6](" + link + ").", nil,
			[]verdictOf{{link, 6, citation.Verified, 0, "the quote is on page 6"}}},
		{"an agentero link of another vault", "Raft's timeouts are random [6](" + otherVault + ").", nil, []verdictOf{}},
		{"a note", "Timeouts are random, 150 to 300 ms, so split votes are rare [notes](notes/raft.md).", nil,
			[]verdictOf{{"notes/raft.md", 0, citation.Supported, 0, "the file has its words and 150 and 300"}}},
		{"a quote of a note", "“chosen randomly from 150 to 300 ms” [notes](notes/raft.md).", nil,
			[]verdictOf{{"notes/raft.md", 0, citation.Verified, 0, "the quote is in the file"}}},
		{"a scan without text", "Probabilistic counting uses hashing [" + scanPDF + "#page=2].", nil,
			[]verdictOf{{scanPDF + "#page=2", 2, citation.Weak, 0, "page 2 has no text to check against (a scan without a text layer?)"}}},
		{"past the paper's end", "Raft [" + raftPDF + "#page=99].", nil,
			[]verdictOf{{raftPDF + "#page=99", 99, citation.Broken, 0, "page 99 is past the end of the paper (17 pages)"}}},
		{"no such paper", "Raft [papers/raft/paper.pdf#page=2].", nil,
			[]verdictOf{{"papers/raft/paper.pdf#page=2", 2, citation.Broken, 0, "papers/raft/paper.pdf is not the PDF of a paper in the vault's index"}}},
		{"Agentero's own state", "Raft [.agentero/index.sqlite].", nil,
			[]verdictOf{{".agentero/index.sqlite", 0, citation.Broken, 0, "the URI is not a citation of the vault: its path names a hidden file or folder"}}},
		{"outside the vault", "Raft [x](../../etc/passwd).", nil,
			[]verdictOf{{"../../etc/passwd", 0, citation.Broken, 0, "the URI is not a citation of the vault: its path must be a plain path inside the vault"}}},
		{"a page zero", "Raft [x](" + raftPDF + "#page=0).", nil,
			[]verdictOf{{raftPDF + "#page=0", 0, citation.Broken, 0, "the URI is not a citation of the vault: its page must be a whole number from 1"}}},
		{"a missing note", "Raft [x](notes/gone.md).", nil,
			[]verdictOf{{"notes/gone.md", 0, citation.Broken, 0, "notes/gone.md names no file of the vault"}}},
		{"a folder", "Raft [x](notes/folder).", nil,
			[]verdictOf{{"notes/folder", 0, citation.Broken, 0, "notes/folder is a folder or a special file, not a paper or a text file"}}},
		{"a bare path in prose that names nothing", "Edit src/main.go and notes/none.md to fix it.", nil, []verdictOf{}},
		{"outside the grant", "Proof-of-work is one-CPU-one-vote [" + bitcoinPDF + "#page=3]. Raft's timeouts are random [" + raftPDF + "#page=6].",
			&grant.Grant{Mode: grant.ModeMCP, Allowed: []grant.Source{{Kind: grant.KindPaper, Ref: "papers/in-search-of-an-understandable-consensus-algorithm"}}},
			[]verdictOf{
				{bitcoinPDF + "#page=3", 3, citation.Outside, 0, bitcoinPDF + " is not among the sources this turn may read"},
				{raftPDF + "#page=6", 6, citation.Supported, 0, "page 6 has its words"},
			}},
		{"a list of sources takes the verdict of its citation above", "Raft picks timeouts from 150–350 ms [" + raftPDF + "#page=6].\n\nSources:\n- " + raftPDF + "#page=6\n- " + bitcoinPDF + "#page=3\n", nil,
			[]verdictOf{
				{raftPDF + "#page=6", 6, citation.Weak, 0, "page 6 has 3 of its 4 content words and 150 but not 350"},
				{raftPDF + "#page=6", 6, citation.Weak, 0, "as where it is cited with words: page 6 has 3 of its 4 content words and 150 but not 350"},
				{bitcoinPDF + "#page=3", 3, citation.Supported, 0, "no words beside it to check; page 3 is there"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checks, err := claim.Check(t.Context(), tc.md, db, claim.Options{Vault: root, Grant: tc.grant})
			if err != nil {
				t.Fatal(err)
			}
			got := []verdictOf{}
			for _, c := range checks {
				got = append(got, verdictOf{c.URI, c.Page, c.Verdict, c.FoundPage, c.Why})
				if tc.md[c.Start:c.End] == "" || !strings.Contains(tc.md[c.Start:c.End], strings.SplitN(c.URI, "#", 2)[0]) {
					t.Errorf("check of %q placed at %d..%d: %q", c.URI, c.Start, c.End, tc.md[c.Start:c.End])
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.md, diff)
			}
		})
	}
}

// The line of a citation is the line it starts on.
func TestCheckLines(t *testing.T) {
	root, db := smallVault(t)
	md := "# Notes\n\nRaft's timeouts are random\n[" + raftPDF + "#page=6].\n\n- Bitcoin [" + bitcoinPDF + "#page=3]\n"
	checks, err := claim.Check(t.Context(), md, db, claim.Options{Vault: root})
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, c := range checks {
		lines = append(lines, c.Line)
	}
	if diff := cmp.Diff([]int{4, 6}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
