package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/workspace"
)

// TestLayoutRemembered saves the window's panes and reads them back as a
// new start would (a new Config on the same folder); a damaged file is the
// default layout, never an error that blocks the window.
func TestLayoutRemembered(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg")
	c := workspace.NewConfig(dir, "/bin/true")
	if l := c.Layout(); len(l.Sizes) != 0 || len(l.Collapsed) != 0 {
		t.Fatalf("fresh layout %+v, want empty", l)
	}
	if err := c.SaveLayout(workspace.Layout{Sizes: map[string]int{"library": 300, "bad": -5}, Collapsed: map[string]bool{"chat": true}}); err != nil {
		t.Fatal(err)
	}
	l := workspace.NewConfig(dir, "/bin/true").Layout()
	if l.Sizes["library"] != 300 || !l.Collapsed["chat"] || l.Sizes["bad"] != 0 {
		t.Errorf("layout read back as %+v", l)
	}
	if st, err := os.Stat(filepath.Join(dir, "layout.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("layout.json: %v, %v; want a private file", st, err)
	}
	os.WriteFile(filepath.Join(dir, "layout.json"), []byte("{not json"), 0o600)
	if l := c.Layout(); len(l.Sizes) != 0 {
		t.Errorf("damaged layout read as %+v, want the default", l)
	}
}
