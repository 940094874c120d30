//go:build unix

package snapshot_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/snapshot"
)

// TestGuidanceHostileFiles plants guidance files that would hang or flood
// a plain read: the snapshot is built at once, says why each was left out,
// and holds none of it.
func TestGuidanceHostileFiles(t *testing.T) {
	fifo := func(t *testing.T, root, rel string) {
		if err := syscall.Mkfifo(filepath.Join(root, rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target string) func(t *testing.T, root, rel string) {
		return func(t *testing.T, root, rel string) {
			if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
				t.Fatal(err)
			}
		}
	}
	sparse := func(t *testing.T, root, rel string) {
		f, err := os.Create(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(100 << 20); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		plant  func(t *testing.T, root, rel string)
		at     string
		issues []snapshot.Issue
	}{
		{"AGENTS.md is a FIFO", fifo, "AGENTS.md", []snapshot.Issue{{Path: "AGENTS.md", Problem: "is not a file"}}},
		{"AGENTS.md links to /dev/zero", link("/dev/zero"), "AGENTS.md", []snapshot.Issue{{Path: "AGENTS.md", Problem: "is a symlink that leaves the vault"}}},
		{"AGENTS.md is 100 MB", sparse, "AGENTS.md", []snapshot.Issue{{Path: "AGENTS.md", Problem: "is larger than 262144 bytes"}}},
		{"an import is a FIFO", fifo, "x.md", []snapshot.Issue{{Path: "CLAUDE.md", Problem: "line 1: @import x.md: is not a file"}}},
		{"an import links to /dev/random", link("/dev/random"), "x.md", []snapshot.Issue{{Path: "CLAUDE.md", Problem: "line 1: @import x.md: is a symlink that leaves the vault"}}},
		{"an import is 100 MB", sparse, "x.md", []snapshot.Issue{{Path: "CLAUDE.md", Problem: "line 1: @import x.md: is larger than 262144 bytes"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, map[string]string{"CLAUDE.md": "<!-- @import x.md -->\n"})
			tt.plant(t, root, tt.at)
			done := make(chan *snapshot.Snapshot, 1)
			go func() {
				s, err := snapshot.Build(root, opts())
				if err != nil {
					t.Errorf("Build: %v", err)
				}
				done <- s
			}()
			var s *snapshot.Snapshot
			select {
			case s = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("Build hangs")
			}
			if s == nil {
				return
			}
			if diff := cmp.Diff(tt.issues, s.Issues); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			if s.Bytes.Total > 1024 {
				t.Errorf("the snapshot holds %d bytes of what was planted", s.Bytes.Total)
			}
		})
	}
}
