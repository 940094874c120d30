package docs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEdit(t *testing.T) {
	root := t.TempDir()
	doc := "---\ndescription: How to cite\ntrigger: always_on\npriority: high\n---\nCite pages.\n"
	if err := Save(root, "style/cite.md", doc); err != nil {
		t.Fatal(err)
	}
	got, err := Source(root, "style/cite.md")
	if err != nil || got != doc {
		t.Fatalf("source = %q, %v", got, err)
	}
	c, err := Scan(root)
	if err != nil || c.Len() != 1 || c.Docs()[0].Trigger != "always_on" {
		t.Fatalf("scan after save: %+v %v", c, err)
	}
	var in *InputError
	if err := Save(root, "bad.md", "---\ntrigger: sometimes\n---\nx"); !errors.As(err, &in) || !strings.Contains(err.Error(), "trigger") {
		t.Errorf("unknown trigger saved: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, ".agentero", "context", "bad.md")); err == nil {
		t.Error("a refused document was written")
	}
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, ".agentero", "context", "link"))
	for _, id := range []string{"../escape.md", "/abs.md", ".hidden.md", "notes.txt", "link/x.md", "a/../../b.md"} {
		if err := Save(root, id, "text"); err == nil {
			t.Errorf("Save(%q) succeeded", id)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote through a symlink: %v", entries)
	}
	if err := Delete(root, "style/cite.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := Source(root, "style/cite.md"); !errors.Is(err, ErrNotFound) {
		t.Errorf("source after delete: %v", err)
	}
}
