package vault

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestStateFolder: Agentero's state folder, and every folder in it, is a
// real folder of the vault; a link in any position (to a folder outside the
// vault, or back into it) or a file there is refused, and nothing is made
// through it.
func TestStateFolder(t *testing.T) {
	cases := []struct {
		name  string
		plant func(root, outside string) error
		want  error // nil: made, private
	}{
		{"missing", func(string, string) error { return nil }, nil},
		{"open folder of an older version", func(root, _ string) error {
			return os.MkdirAll(filepath.Join(root, ".agentero", "chats", "q1"), 0o755)
		}, nil},
		{".agentero links out", func(root, outside string) error {
			return os.Symlink(outside, filepath.Join(root, ".agentero"))
		}, ErrStateLink},
		{".agentero links into the vault", func(root, _ string) error {
			os.Mkdir(filepath.Join(root, "notes"), 0o755)
			return os.Symlink("notes", filepath.Join(root, ".agentero"))
		}, ErrStateLink},
		{".agentero is a file", func(root, _ string) error {
			return os.WriteFile(filepath.Join(root, ".agentero"), nil, 0o644)
		}, ErrStateLink},
		{"chats links out", func(root, outside string) error {
			os.Mkdir(filepath.Join(root, ".agentero"), 0o755)
			return os.Symlink(outside, filepath.Join(root, ".agentero", "chats"))
		}, ErrStateLink},
		{"a conversation links out", func(root, outside string) error {
			os.MkdirAll(filepath.Join(root, ".agentero", "chats"), 0o755)
			return os.Symlink(outside, filepath.Join(root, ".agentero", "chats", "q1"))
		}, ErrStateLink},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			if err := c.plant(root, outside); err != nil {
				t.Fatal(err)
			}
			dir, err := StateFolder(root, "chats", "q1")
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if es, _ := os.ReadDir(outside); len(es) != 0 {
				t.Errorf("made outside the vault: %v", es)
			}
			if c.want != nil {
				return
			}
			if want := filepath.Join(root, ".agentero", "chats", "q1"); dir != want {
				t.Errorf("dir %s, want %s", dir, want)
			}
			for _, d := range []string{".agentero", ".agentero/chats", ".agentero/chats/q1"} {
				st, err := os.Lstat(filepath.Join(root, d))
				if err != nil || !st.IsDir() || st.Mode().Perm() != StatePerm {
					t.Errorf("%s: %v %v, want a folder %v", d, st.Mode(), err, os.FileMode(StatePerm))
				}
			}
		})
	}
}

// TestStateFolderNames: the folder names asked for stay below .agentero.
func TestStateFolderNames(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{"..", "../x", "chats/../../x", "/etc", "", "a//b", `a\b`} {
		if _, err := StateFolder(root, rel); err == nil {
			t.Errorf("StateFolder(%q) succeeded", rel)
		}
	}
}
