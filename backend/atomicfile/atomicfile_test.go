package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
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
	// A write that fails names the file written, not its temporary twin,
	// and leaves no temporary file behind.
	dir := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(filepath.Join(dir, "grant.json", "in-the-way"), 0o700)
	err := Write(filepath.Join(dir, "grant.json"), []byte("{}"), Private)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "grant.json")) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("write over a folder: %v; want an error naming grant.json only", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("leftover files: %v", entries)
	}
}

// TestPrivate: state written private gets a private folder, and state an
// older version left open (0644 files in 0755 folders) is tightened the
// next time it is written; a file meant for others (a sidecar) leaves its
// folder as it is.
func TestPrivate(t *testing.T) {
	cases := []struct {
		name             string
		perm             os.FileMode
		append           bool
		wantFile, wantIn os.FileMode
	}{
		{"state", Private, false, 0o600, 0o700},
		{"transcript", Private, true, 0o600, 0o700},
		{"sidecar", 0o644, false, 0o644, 0o755},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, old := range []bool{false, true} {
				dir := filepath.Join(t.TempDir(), "chats", "q1")
				p := filepath.Join(dir, "state")
				if old { // as older versions left it
					os.MkdirAll(dir, 0o755)
					os.WriteFile(p, []byte("old\n"), 0o644)
				}
				if c.append {
					if err := Append(p, []byte("line\n"), c.perm); err != nil {
						t.Fatal(err)
					}
				} else if err := Write(p, []byte("new\n"), c.perm); err != nil {
					t.Fatal(err)
				}
				st, _ := os.Stat(p)
				in, _ := os.Stat(dir)
				if st.Mode().Perm() != c.wantFile || in.Mode().Perm() != c.wantIn {
					t.Errorf("existing %v: file %v in folder %v, want %v in %v", old, st.Mode().Perm(), in.Mode().Perm(), c.wantFile, c.wantIn)
				}
			}
		})
	}
}

// TestNoFollow: an append-only state file or one read back is never a link
// planted in its place (to a file outside the vault), nor a FIFO that
// would block the reader.
func TestNoFollow(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "private.txt")
	os.WriteFile(outside, []byte("secret\n"), 0o600)
	link := filepath.Join(dir, "transcript.jsonl")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := Append(link, []byte("written through the link\n"), Private); err == nil {
		t.Error("Append opened a symbolic link")
	}
	if got, _ := os.ReadFile(outside); string(got) != "secret\n" {
		t.Errorf("the link's target now holds %q", got)
	}
	if f, err := Open(link); err == nil {
		f.Close()
		t.Error("Open followed a symbolic link")
	}
	fifo := filepath.Join(dir, "usage.jsonl")
	if err := syscallMkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if f, err := Open(fifo); err == nil {
		f.Close()
		t.Error("Open took a FIFO")
	}
	if err := Append(fifo, []byte("line\n"), Private); err == nil {
		t.Error("Append took a FIFO")
	}
}
