package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "state.json")
	for _, body := range []string{"first", "second, longer than the first"} {
		if err := Write(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != body {
			t.Errorf("read %q, %v; want %q", got, err, body)
		}
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("leftover files: %v", entries)
	}
	if err := Write(filepath.Join(p, "under-a-file"), []byte("x"), 0o644); err == nil {
		t.Error("writing under a file succeeded")
	}
}
