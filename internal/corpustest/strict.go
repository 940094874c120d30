package corpustest

import (
	"fmt"
	"os"
	"testing"
)

// StrictEnv names the variable `make test` sets. With it, what a test needs
// and cannot find — the shared corpus, the native PDFium, the scripted peer
// agent, the MCP inspector — fails the test instead of skipping it, so a
// broken checkout cannot pass while testing little. A plain `go test ./...`
// still skips, and says why.
const StrictEnv = "AGENTERO_TEST_STRICT"

// Strict reports whether missing test dependencies are failures.
func Strict() bool { return os.Getenv(StrictEnv) != "" }

// Unavailable stops t because something it needs is missing: a failure
// under `make test`, a skip otherwise. The message says what is missing;
// it should also say how to get it.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Strict() {
		t.Fatalf("%s (required under make test: %s is set)", msg, StrictEnv)
	}
	t.Skip(msg)
}

// NeedCorpus returns the corpus folder, or stops t when it is missing.
func NeedCorpus(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(Dir()); err != nil {
		Unavailable(t, "the shared corpus is not beside the repository (../shared/corpus): %v", err)
	}
	return Dir()
}
