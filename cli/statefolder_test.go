package cli_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
)

// everyVerb is each command that opens a vault, with the arguments it needs.
func everyVerb(t *testing.T, dir string) [][]string {
	req := filepath.Join(t.TempDir(), "request.json")
	os.WriteFile(req, []byte(`{"surface": "quickChat"}`), 0o600)
	return [][]string{
		{"index", dir},
		{"search", dir, "consensus"},
		{"plan", dir, "--request", req},
		{"ask", dir, "--request", req, "What is in this vault?"},
		{"context", dir},
		{"compact", dir, "--conversation", "q1"},
		{"relations", dir, "papers/a"},
	}
}

// TestStateFolderLink: a vault whose .agentero is a link (out of it, or to
// a folder inside it) is refused by every command with one line saying so,
// and nothing is written through the link.
func TestStateFolderLink(t *testing.T) {
	for _, target := range []string{"outside", "inside"} {
		t.Run(target, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
			os.WriteFile(filepath.Join(dir, "notes", "n.md"), []byte("consensus\n"), 0o644)
			to := t.TempDir()
			if target == "inside" {
				to = filepath.Join(dir, "notes")
			}
			before, _ := os.ReadDir(to)
			if err := os.Symlink(to, filepath.Join(dir, ".agentero")); err != nil {
				t.Fatal(err)
			}
			for _, args := range everyVerb(t, dir) {
				_, errOut, code := run(t, args...)
				if code != 1 || !strings.Contains(errOut, ".agentero") || !strings.Contains(errOut, "symbolic link") ||
					strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
					t.Errorf("%s: exit %d, stderr %q; want 1 and one line about the linked .agentero", args[0], code, errOut)
				}
			}
			if after, _ := os.ReadDir(to); len(after) != len(before) {
				t.Errorf("written through the link: %v", after)
			}
		})
	}
}

// TestPlantedIndexCLI: a vault that ships an index with a trigger of its
// own is indexed anew, and the command says so.
func TestPlantedIndexCLI(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
	os.WriteFile(filepath.Join(dir, "notes", "n.md"), []byte("consensus\n"), 0o644)
	if _, errOut, code := run(t, "index", dir); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	db, err := sql.Open("sqlite3", "file:"+index.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TRIGGER files_copy AFTER INSERT ON files BEGIN UPDATE files SET text = new.text; END`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, errOut, code := run(t, "search", dir, "consensus")
	if code != 0 || !strings.Contains(errOut, "not one Agentero made") || !strings.Contains(errOut, "files_copy") {
		t.Errorf("exit %d, stderr %q; want a warning naming the trigger", code, errOut)
	}
	db, _ = sql.Open("sqlite3", "file:"+index.Path(dir))
	var n int
	db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'files_copy'`).Scan(&n)
	db.Close()
	if n != 0 {
		t.Error("the planted trigger is still in the index")
	}
	if _, errOut, _ := run(t, "search", dir, "consensus"); errOut != "" {
		t.Errorf("the rebuilt index warned again: %q", errOut)
	}
}
