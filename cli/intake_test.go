package cli_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

// report is the JSON of add and import, as SPEC §12 has it: papers as
// refs, what was not brought in with why.
type report struct {
	Added   []string
	Updated []string
	Skipped []struct {
		File, Ref, Why string
	}
	WithoutPDF []struct{ Key, Title, Why string }
	Unchanged  []string
}

// TestAddCommand adds a corpus PDF with the built binary, finds it by
// search at once, and adds it again to be told it is there.
func TestAddCommand(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	vault := filepath.Join(t.TempDir(), "new vault") // not there yet: add makes it
	pdfPath := filepath.Join(t.TempDir(), "download (1).pdf")
	corpustest.CopyFile(t, filepath.Join(corpus, "paxos-made-simple.pdf"), pdfPath)
	cmd := exec.Command(binary, "add", vault, pdfPath, "--init", "--json")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agentero add: %v\n%s", err, out)
	}
	var rep report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rep.Added) != 1 || !strings.Contains(rep.Added[0], "paxos-simple") {
		t.Fatalf("added %+v, want a folder named for the title the PDF shows", rep.Added)
	}
	stdout, stderr, code := run(t, "search", vault, "Paxos algorithm", "--json")
	if code != 0 || !strings.Contains(stdout, rep.Added[0]+"/paper.pdf#page=") {
		t.Errorf("search after add (%d): %s %s", code, stdout, stderr)
	}
	stdout, stderr, code = run(t, "add", vault, pdfPath)
	if code != 0 || !strings.Contains(stdout, "already in the vault as "+rep.Added[0]) || !strings.Contains(stdout, "0 added") {
		t.Errorf("second add (%d): %s %s", code, stdout, stderr)
	}
	stdout, stderr, code = run(t, "add", vault, pdfPath, "--json")
	var again report
	if err := json.Unmarshal([]byte(stdout), &again); err != nil || code != 0 {
		t.Fatalf("second add --json (%d): %v %s %s", code, err, stdout, stderr)
	}
	if len(again.Added) != 0 || len(again.Skipped) != 1 || again.Skipped[0].File != pdfPath || !strings.Contains(again.Skipped[0].Why, rep.Added[0]) {
		t.Errorf("second add --json: %s, want nothing added and the file skipped with why", stdout)
	}
}

func TestAddCommandUsage(t *testing.T) {
	if _, stderr, code := run(t, "add", t.TempDir()); code != 2 || !strings.Contains(stderr, "at least one file") {
		t.Errorf("add without files: %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "import", "endnote", "x", t.TempDir()); code != 2 || !strings.Contains(stderr, "want zotero, bibtex or csl") {
		t.Errorf("import endnote: %d %s", code, stderr)
	}
	if _, stderr, code := run(t, "import", "zotero", t.TempDir(), t.TempDir()); code != 1 || !strings.Contains(stderr, "has no zotero.sqlite") {
		t.Errorf("import of a non-Zotero folder: %d %s", code, stderr)
	}
	newVault := filepath.Join(t.TempDir(), "vault")
	if _, stderr, code := run(t, "import", "zotero", t.TempDir(), newVault); code != 1 || !strings.Contains(stderr, "has no zotero.sqlite") {
		t.Errorf("import of a non-Zotero folder into a new vault: %d %s", code, stderr)
	}
	if _, err := os.Stat(newVault); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed import left the vault folder it made: %v", err)
	}
	if _, stderr, code := run(t, "import", "bibtex", "x.bib", t.TempDir(), "--base-dir", t.TempDir()); code != 2 || !strings.Contains(stderr, "--base-dir is for import zotero only") {
		t.Errorf("import bibtex --base-dir: %d %s", code, stderr)
	}
	missing := filepath.Join(t.TempDir(), "no-such-base")
	if _, stderr, code := run(t, "import", "zotero", t.TempDir(), t.TempDir(), "--base-dir", missing); code != 1 || !strings.Contains(stderr, "the base directory "+missing+" is not a folder") {
		t.Errorf("import zotero --base-dir to nothing: %d %s", code, stderr)
	}
}

func TestImportBibTeXCommand(t *testing.T) {
	corpus := corpustest.NeedCorpus(t)
	home := t.TempDir()
	corpustest.CopyFile(t, filepath.Join(corpus, "bitcoin.pdf"), filepath.Join(home, "bitcoin.pdf"))
	bib := filepath.Join(home, "refs.bib")
	os.WriteFile(bib, []byte(`@misc{nakamoto2008, author = {Nakamoto, Satoshi}, title = {Bitcoin: A Peer-to-Peer Electronic Cash System},
  year = 2008, file = {:bitcoin.pdf:PDF}}
@book{lynch1996, author = {Lynch, Nancy A.}, title = {Distributed Algorithms}, year = {1996}}`), 0o644)
	vault := t.TempDir()
	e := env(t)
	stdout, stderr, code := runIn(t, e, "import", "bibtex", bib, vault, "--json")
	if code != 0 {
		t.Fatalf("import (%d): %s", code, stderr)
	}
	var rep report
	json.Unmarshal([]byte(stdout), &rep)
	if len(rep.Added) != 1 || rep.Added[0] != "papers/nakamoto-2008-bitcoin-peer-peer-electronic-cash" ||
		len(rep.WithoutPDF) != 1 || rep.WithoutPDF[0].Key != "lynch1996" || rep.WithoutPDF[0].Title != "Distributed Algorithms" {
		t.Fatalf("report %s", stdout)
	}
	stdout, _, code = runIn(t, e, "search", vault, "Nakamoto", "--json")
	if code != 0 || !strings.Contains(stdout, rep.Added[0]) {
		t.Errorf("not searchable after import: %s", stdout)
	}
	stdout, _, _ = runIn(t, e, "import", "bibtex", bib, vault)
	if !strings.HasPrefix(stdout, "0 added, 0 updated, 1 unchanged, 0 skipped, 1 without PDF") {
		t.Errorf("second import: %s", stdout)
	}
	stdout, _, _ = runIn(t, e, "import", "bibtex", bib, vault, "--json")
	var again report
	json.Unmarshal([]byte(stdout), &again)
	if len(again.Added) != 0 || len(again.Updated) != 0 || len(again.Unchanged) != 1 || again.Unchanged[0] != rep.Added[0] {
		t.Errorf("second import --json: %s, want the paper unchanged", stdout)
	}
}
