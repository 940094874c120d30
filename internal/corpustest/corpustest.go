// Package corpustest lays the shared corpus of real papers (../shared/corpus
// beside the repository) out as vaults for tests: one paper folder per PDF,
// papers/<stem>/<file>, with copies the tests may change.
package corpustest

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir is the corpus folder.
func Dir() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "corpus")
}

// Ref is the paper ref a corpus file gets in a test vault.
func Ref(file string) string { return "papers/" + strings.TrimSuffix(file, ".pdf") }

// Vault lays files out as a vault in a new temp dir and returns its root.
// A missing corpus stops the test (see Unavailable).
func Vault(t testing.TB, files ...string) string {
	t.Helper()
	root := t.TempDir()
	LayOut(t, root, files...)
	return root
}

// LayOut copies files into the vault at root.
func LayOut(t testing.TB, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		src := filepath.Join(Dir(), f)
		if _, err := os.Stat(src); err != nil {
			Unavailable(t, "corpus paper missing (../shared/corpus beside the repository): %v", err)
		}
		dir := filepath.Join(root, filepath.FromSlash(Ref(f)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		CopyFile(t, src, filepath.Join(dir, f))
	}
}

// CopyFile copies one file.
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
