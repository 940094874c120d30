package transcript_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/transcript"
	"github.com/google/go-cmp/cmp"
)

// What is appended is read back, in order, across appends; a torn line
// between them is skipped, not an error; the file is the user's alone.
func TestAppendRead(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	first := []transcript.Entry{
		{At: at, Turn: "m1", Kind: "user", Text: "why?"},
		{At: at, Turn: "m1", Kind: "tool_call", ToolCall: "c1", Text: "context_search"},
	}
	if err := transcript.Append(dir, first...); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, transcript.File), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"turn":"m1","kind":"assis` + "\n")
	f.Close()
	last := transcript.Entry{At: at, Turn: "m1", Kind: "assistant", Text: "because", SessionID: "s1",
		Data: map[string]any{"sources": []any{"papers/a/a.pdf#page=2"}}}
	if err := transcript.Append(dir, last); err != nil {
		t.Fatal(err)
	}
	got, err := transcript.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := append(first, last)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	st, err := os.Stat(filepath.Join(dir, transcript.File))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("transcript mode %v, want 0600", st.Mode().Perm())
	}
}

// A conversation without a transcript has no entries; a transcript that
// is a link is refused, not followed.
func TestReadMissingAndLink(t *testing.T) {
	dir := t.TempDir()
	got, err := transcript.Read(dir)
	if err != nil || got != nil {
		t.Fatalf("missing transcript: %v, %v; want nothing", got, err)
	}
	other := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	if err := os.WriteFile(other, []byte(`{"turn":"m1","kind":"user","text":"planted"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(dir, transcript.File)); err != nil {
		t.Fatal(err)
	}
	if got, err := transcript.Read(dir); err == nil {
		t.Errorf("a linked transcript was read: %+v", got)
	}
}
