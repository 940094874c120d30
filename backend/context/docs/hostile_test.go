//go:build unix

package docs_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/docs"
)

// TestHostileContextFiles plants context files a plain read would hang on
// or run out of memory with: Scan returns at once, and the documents are
// problems, never read.
func TestHostileContextFiles(t *testing.T) {
	root := vaultWith(t, map[string]string{"a.md": "---\ntrigger: always_on\n---\nalpha\n"})
	ctx := filepath.Join(root, filepath.FromSlash(docs.Dir))
	if err := syscall.Mkfifo(filepath.Join(ctx, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(ctx, "zero.md")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(ctx, "big.md"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(100 << 20)
	big.Close()
	done := make(chan *docs.Catalog, 1)
	go func() { done <- scan(t, root) }()
	var c *docs.Catalog
	select {
	case c = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Scan hangs")
	}
	want := []docs.Problem{
		{Path: ".agentero/context/big.md", Problem: "is larger than 1048576 bytes"},
		{Path: ".agentero/context/fifo.md", Problem: "is not a regular file"},
		{Path: ".agentero/context/zero.md", Problem: "is a symlink that leaves the context folder"},
	}
	if diff := cmp.Diff(want, c.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}

	// Rules that link to /dev/zero are an error, at once.
	if err := os.Symlink("/dev/zero", filepath.Join(ctx, docs.RulesFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := docs.Scan(root); err == nil || !strings.Contains(err.Error(), "links outside the vault") {
		t.Errorf("Scan with rules linked to /dev/zero = %v, want a refusal", err)
	}
}
