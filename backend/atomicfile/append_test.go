package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Append creates the file and its folder, then adds to the end; a full
// disk is met in test/fault (TestFullDisk), where a torn write is taken
// back.
func TestAppend(t *testing.T) {
	p := filepath.Join(t.TempDir(), "chats", "a", "transcript.jsonl")
	for _, line := range []string{"{\"n\":1}\n", "{\"n\":2}\n"} {
		if err := Append(p, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if want := "{\"n\":1}\n{\"n\":2}\n"; err != nil || string(got) != want {
		t.Errorf("read %q, %v; want %q", got, err, want)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if err := Append(filepath.Join(p, "under-a-file"), []byte("x"), 0o600); err == nil {
		t.Error("appending under a file succeeded")
	}
}
