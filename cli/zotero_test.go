package cli_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/zoterotest"
)

// zoteroReport is the JSON of import zotero.
type zoteroReport struct {
	Added, Updated, Unchanged []string
	WithoutPDF                []struct{ Key, Title, Why string }
	Gone                      []struct{ Key, Ref, Why string }
	Notes                     []struct{ Ref, Note string }
}

func dirHash(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			out[p] = hex.EncodeToString(sum[:])
		}
		return nil
	})
	return out
}

// TestImportZoteroCommand runs the built program on a Zotero data folder
// while Zotero holds its database locked: a paper in a nested collection
// with a second PDF, a standalone PDF named by its file (its title and
// author read from the PDF), an item whose file is missing. The papers are
// searchable when the command returns, Zotero's folder is untouched, and
// running it again changes nothing.
func TestImportZoteroCommand(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	z := zoterotest.New(t)
	cs := z.Collection("Distributed Systems", "COLLDIST", 0)
	consensus := z.Collection("Consensus/Agreement", "COLLCONS", cs)
	paxos := z.Item("journalArticle", "PAXOS001", map[string]string{"title": "Paxos Made Simple", "date": "2001-11-00 November 2001"},
		[2]string{"Leslie", "Lamport"})
	z.Stored(paxos, "STORPAX1", "Lamport - 2001 - Paxos Made Simple.pdf", filepath.Join(corpus, "paxos-made-simple.pdf"))
	z.Stored(paxos, "STORPAX2", "Paxos Made Moderately Complex.pdf", filepath.Join(corpus, "paxos-made-moderately-complex.pdf"))
	z.File(consensus, paxos)
	z.Stored(0, "ALONEBTC", "bitcoin.pdf", filepath.Join(corpus, "bitcoin.pdf"))
	z.Exec(`INSERT INTO itemDataValues (value) VALUES ('bitcoin.pdf')`)
	z.Exec(`INSERT INTO itemData VALUES ((SELECT itemID FROM items WHERE key = 'ALONEBTC'), ?, (SELECT valueID FROM itemDataValues WHERE value = 'bitcoin.pdf'))`, zoterotest.Fields["title"])
	gone := z.Item("journalArticle", "GONEFILE", map[string]string{"title": "A Paper Whose File Is Gone"})
	z.Stored(gone, "STORGONE", "gone.pdf", "")
	z.Lock()
	before := dirHash(t, z.Dir)

	vault := t.TempDir()
	cmd := exec.Command(binary, "import", "zotero", z.Dir, vault, "--json")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agentero import zotero: %v\n%s", err, out)
	}
	var rep zoteroReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wantPaxos := "papers/Distributed Systems/Consensus-Agreement/lamport-2001-paxos-simple"
	if len(rep.Added) != 2 || rep.Added[0] != wantPaxos || !strings.HasPrefix(rep.Added[1], "papers/nakamoto-") || !strings.HasSuffix(rep.Added[1], "-bitcoin-peer-peer-electronic-cash") {
		t.Fatalf("added %q, want paxos in its collection's folder and the standalone PDF named from what it says\n%s", rep.Added, out)
	}
	if len(rep.WithoutPDF) != 1 || rep.WithoutPDF[0].Key != "GONEFILE" || !strings.Contains(rep.WithoutPDF[0].Why, "STORGONE/gone.pdf does not exist") {
		t.Errorf("without PDF %+v, want the missing file named", rep.WithoutPDF)
	}
	if len(rep.Notes) != 1 || rep.Notes[0].Ref != wantPaxos || !strings.Contains(rep.Notes[0].Note, "1 more PDF") {
		t.Errorf("notes %+v, want paxos's second PDF reported", rep.Notes)
	}
	if after := dirHash(t, z.Dir); len(after) != len(before) {
		t.Errorf("Zotero's folder changed: %d files, then %d", len(before), len(after))
	} else {
		for p, h := range before {
			if after[p] != h {
				t.Errorf("Zotero's %s changed", p)
			}
		}
	}
	e := env(t)
	stdout, stderr, code := runIn(t, e, "search", vault, "Paxos algorithm", "--json")
	if code != 0 || !strings.Contains(stdout, citation.New(wantPaxos+"/paper.pdf", 0, "").String()+"#page=") { // its folder's space encoded
		t.Errorf("search after import (%d): %s %s", code, stdout, stderr)
	}
	stdout, stderr, code = runIn(t, e, "import", "zotero", z.Dir, vault)
	if code != 0 || !strings.HasPrefix(stdout, "0 added, 0 updated, 2 unchanged, 0 skipped, 1 without PDF, 0 errors\n") ||
		!strings.Contains(stdout, "note: "+wantPaxos+": 1 more PDF") {
		t.Errorf("second import (%d): %s %s", code, stdout, stderr)
	}
}
