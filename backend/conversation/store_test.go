package conversation_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/transcript"
	"github.com/google/go-cmp/cmp"
)

// planted are state.json files a hostile vault may ship for a conversation
// the user will open (Quick Chat and sidebar ids are predictable). Each
// names a folder other than its own.
var planted = []struct {
	name, state string
}{
	{"id leaving the vault", `{"id":"../../../elsewhere","messages":[]}`},
	{"absolute id", `{"id":"/tmp/agentero-planted","messages":[]}`},
	{"id of another conversation", `{"id":"other","messages":[]}`},
	{"runtime id leaving the vault", `{"id":"q1","runtimeId":"../../../elsewhere","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
	{"runtime id of another conversation", `{"id":"q1","runtimeId":"other.s1","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
	{"runtime id that is the conversation", `{"id":"q1","runtimeId":"q1","providerSessionId":"s-1","fingerprint":"f","messages":[]}`},
}

// plant lays out a vault-like folder inside a parent of its own, with the
// planted state of conversation q1, and returns the vault.
func plant(t *testing.T, state string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "a", "b", "vault")
	dir := filepath.Join(root, ".agentero", "chats", "q1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// tree lists every file and folder under dir, relative to it.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestLoadChecksStoredIDs: what Load returns names only the conversation's
// own folder, whatever the state file claims, and a runtime id not made for
// it is dropped with its session.
func TestLoadChecksStoredIDs(t *testing.T) {
	for _, c := range planted {
		t.Run(c.name, func(t *testing.T) {
			root := plant(t, c.state)
			s := conversation.NewStore(root, nil)
			conv, err := s.Load("q1")
			if err != nil {
				t.Fatal(err)
			}
			if conv.ID != "q1" {
				t.Errorf("id %q, want q1", conv.ID)
			}
			if conv.RuntimeID != "" || conv.ProviderSessionID != "" {
				t.Errorf("runtime id %q, session %q: want both dropped", conv.RuntimeID, conv.ProviderSessionID)
			}
			if err := s.Save(conv); err != nil {
				t.Fatal(err)
			}
			if err := s.Append(conv.ID, transcript.Entry{Kind: "user", Text: "hello"}); err != nil {
				t.Fatal(err)
			}
			want := []string{"a", "a/b", "a/b/vault", "a/b/vault/.agentero", "a/b/vault/.agentero/chats",
				"a/b/vault/.agentero/chats/q1", "a/b/vault/.agentero/chats/q1/state.json", "a/b/vault/.agentero/chats/q1/transcript.jsonl"}
			if diff := cmp.Diff(want, tree(t, filepath.Dir(filepath.Dir(filepath.Dir(root))))); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadKeepsOwnRuntimeID: a runtime id the host made for the
// conversation survives Load, so an unchanged grant continues its session.
func TestLoadKeepsOwnRuntimeID(t *testing.T) {
	root := plant(t, `{"id":"q1","runtimeId":"q1.3f2a","providerSessionId":"s-1","fingerprint":"f","messages":[]}`)
	conv, err := conversation.NewStore(root, nil).Load("q1")
	if err != nil {
		t.Fatal(err)
	}
	if conv.RuntimeID != "q1.3f2a" || conv.ProviderSessionID != "s-1" {
		t.Errorf("runtime id %q, session %q: want q1.3f2a and s-1 kept", conv.RuntimeID, conv.ProviderSessionID)
	}
}

// TestLoadRefusesLinks: a conversation's folder or files linked elsewhere
// (to another vault's conversation, to a private file) are not read as
// this vault's, and a FIFO in a transcript's place does not block.
func TestLoadRefusesLinks(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o700)
	secret := `{"id":"q1","messages":[{"id":"m1","role":"user","content":"another vault's secret"}]}`
	os.WriteFile(filepath.Join(other, "state.json"), []byte(secret), 0o600)
	os.WriteFile(filepath.Join(other, "transcript.jsonl"), []byte(`{"kind":"user","text":"another vault's secret"}`+"\n"), 0o600)
	cases := []struct {
		name  string
		plant func(chats string) error
	}{
		{"the conversation's folder", func(chats string) error { return os.Symlink(other, filepath.Join(chats, "q1")) }},
		{"the chats folder", func(chats string) error {
			os.Remove(chats)
			return os.Symlink(filepath.Dir(other), chats)
		}},
		{"its files", func(chats string) error {
			os.Mkdir(filepath.Join(chats, "q1"), 0o700)
			for _, f := range []string{"state.json", "transcript.jsonl"} {
				if err := os.Symlink(filepath.Join(other, f), filepath.Join(chats, "q1", f)); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			chats := filepath.Join(root, ".agentero", "chats")
			os.MkdirAll(chats, 0o700)
			if c.name == "the chats folder" {
				os.MkdirAll(filepath.Join(filepath.Dir(other), "q1"), 0o700)
				os.WriteFile(filepath.Join(filepath.Dir(other), "q1", "state.json"), []byte(secret), 0o600)
			}
			if err := c.plant(chats); err != nil {
				t.Fatal(err)
			}
			s := conversation.NewStore(root, nil)
			conv, err := s.Load("q1")
			if err == nil {
				t.Errorf("Load read %+v, want a refusal", conv.Messages)
			}
			entries, _ := s.Transcript("q1")
			for _, e := range entries {
				if strings.Contains(e.Text, "secret") {
					t.Errorf("Transcript read %q", e.Text)
				}
			}
		})
	}
	t.Run("a FIFO for a transcript", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, ".agentero", "chats", "q1")
		os.MkdirAll(dir, 0o700)
		if err := mkfifo(filepath.Join(dir, "transcript.jsonl")); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		done := make(chan error, 1)
		go func() { _, err := conversation.NewStore(root, nil).Transcript("q1"); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Error("Transcript read a FIFO")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Transcript blocked on a FIFO")
		}
	})
}
