package userdir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFolder: a cache or configuration folder is used only when it is
// safely the user's: another user's folder (one pre-made in a shared
// /tmp), a link, a file or a folder others may write are refused; one
// others may only read is tightened; a missing one is made private.
func TestFolder(t *testing.T) {
	cases := []struct {
		name  string
		plant func(dir, outside string) error
		root  bool // the case needs root to chown a folder to another user
		want  error
	}{
		{"missing", func(string, string) error { return nil }, false, nil},
		{"readable by others", func(dir, _ string) error { return os.Mkdir(dir, 0o755) }, false, nil},
		{"writable by others", func(dir, _ string) error {
			os.Mkdir(dir, 0o777)
			return os.Chmod(dir, 0o777)
		}, false, ErrNotPrivate},
		{"writable by the group", func(dir, _ string) error {
			os.Mkdir(dir, 0o770)
			return os.Chmod(dir, 0o770)
		}, false, ErrNotPrivate},
		{"a link", func(dir, outside string) error { return os.Symlink(outside, dir) }, false, ErrNotPrivate},
		{"a file", func(dir, _ string) error { return os.WriteFile(dir, nil, 0o600) }, false, ErrNotPrivate},
		{"another user's", func(dir, _ string) error {
			if err := os.Mkdir(dir, 0o700); err != nil {
				return err
			}
			return os.Chown(dir, 65534, 65534)
		}, true, ErrNotPrivate},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a folder to another user")
			}
			base, outside := t.TempDir(), t.TempDir()
			dir := filepath.Join(base, "agentero")
			if err := c.plant(dir, outside); err != nil {
				t.Fatal(err)
			}
			got, err := Folder(dir, "sessions", "q1")
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if es, _ := os.ReadDir(outside); len(es) != 0 {
				t.Errorf("made through the link: %v", es)
			}
			if c.want != nil {
				return
			}
			if want := filepath.Join(dir, "sessions", "q1"); got != want {
				t.Errorf("folder %s, want %s", got, want)
			}
			for _, d := range []string{dir, filepath.Join(dir, "sessions"), got} {
				if st, err := os.Lstat(d); err != nil || st.Mode().Perm() != Perm {
					t.Errorf("%s: %v, want %v", d, st.Mode().Perm(), os.FileMode(Perm))
				}
			}
		})
	}
}

// TestFolderBelow: a folder below the checked one is checked too (a link
// there would lead out of the cache).
func TestFolderBelow(t *testing.T) {
	base, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(base, "sessions"))
	if _, err := Folder(base, "sessions", "q1"); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("err %v, want ErrNotPrivate", err)
	}
	for _, name := range []string{"..", "a/b", "", "."} {
		if _, err := Folder(base, name); err == nil {
			t.Errorf("Folder(%q) succeeded", name)
		}
	}
}

// TestCacheFallback: with no home, the cache is a folder of this user's
// own in the temporary directory, never a shared /tmp/agentero, and one
// another user made there first is refused.
func TestCacheFallback(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	dir, err := Cache()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != tmp || filepath.Base(dir) == "agentero" {
		t.Errorf("cache %s: want a per-user folder in %s", dir, tmp)
	}
	if os.Geteuid() != 0 {
		return
	}
	os.Chown(dir, 65534, 65534) // as if another user had made it first
	if _, err := Cache(); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("another user's cache folder: err %v, want ErrNotPrivate", err)
	}
}
