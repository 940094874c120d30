package docs_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/docs"
)

// TestReceiptsAndConflicts: a write returns a receipt (revision, etag, size,
// sha256 of what is stored); an edit carrying a stale revision or etag is a
// conflict and leaves the document as it was.
func TestReceiptsAndConflicts(t *testing.T) {
	root := t.TempDir()
	first := "---\ndescription: Lab rules\ntrigger: always_on\n---\nWear goggles.\n"
	r1, err := docs.Write(root, "lab.md", first, docs.Expect{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(first))
	if !r1.Created || r1.SizeBytes != len(first) || r1.SHA256 != hex.EncodeToString(sum[:]) || r1.Revision == "" || r1.Etag == "" {
		t.Fatalf("receipt = %+v", r1)
	}
	if st, _ := docs.Stat(root, "lab.md"); st.Revision != r1.Revision || st.Etag != r1.Etag {
		t.Fatalf("stat %+v differs from the receipt %+v", st, r1)
	}
	second := "---\ndescription: Lab rules\ntrigger: always_on\n---\nWear goggles and gloves.\n"
	r2, err := docs.Write(root, "lab.md", second, docs.Expect{Revision: r1.Revision})
	if err != nil || r2.Created || r2.Revision == r1.Revision {
		t.Fatalf("edit at the current revision: %+v, %v", r2, err)
	}
	path := filepath.Join(root, ".agentero", "context", "lab.md")
	for name, stale := range map[string]docs.Expect{
		"stale revision":               {Revision: r1.Revision},
		"stale etag":                   {Etag: r1.Etag},
		"current revision, stale etag": {Revision: r2.Revision, Etag: r1.Etag},
	} {
		if _, err := docs.Write(root, "lab.md", "---\ntrigger: manual\n---\nlost\n", stale); !errors.Is(err, docs.ErrConflict) {
			t.Errorf("%s: err = %v, want a conflict", name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != second {
			t.Fatalf("%s: the document was written anyway:\n%s", name, got)
		}
	}
	if _, err := docs.Write(root, "new.md", "x\n", docs.Expect{Revision: "rev-0"}); !errors.Is(err, docs.ErrConflict) {
		t.Errorf("an expectation on a missing document: %v", err)
	}
	var in *docs.InputError
	if _, err := docs.Write(root, "lab.md", "---\ntrigger: always\n---\n", docs.Expect{Revision: r2.Revision}); !errors.As(err, &in) {
		t.Errorf("bad front matter: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != second {
		t.Fatal("a refused write changed the document")
	}
}

// TestSensitiveNeverPreloadedRemote: a sensitive always-on document is in
// the manifest of a local session, and its body never in a remote one's.
func TestSensitiveNeverPreloadedRemote(t *testing.T) {
	root := t.TempDir()
	docs.Write(root, "keys.md", "---\ndescription: Lab accounts\ntrigger: always_on\nsensitivity: sensitive\ntrustLevel: user\n---\nThe lab password is hunter2.\n", docs.Expect{})
	docs.Write(root, "open.md", "---\ndescription: Open rules\ntrigger: always_on\n---\nBe kind.\n", docs.Expect{})
	c, err := docs.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := c.Assemble(0)
	if err != nil {
		t.Fatal(err)
	}
	local, remote := m.RenderFor(true, false), m.RenderFor(true, true)
	if !containsAll(local, "hunter2", "Be kind.", `trust="user"`) {
		t.Errorf("local manifest:\n%s", local)
	}
	if !containsAll(remote, "Be kind.", "Lab accounts", "sensitive: its body is never sent") || strings.Contains(remote, "hunter2") {
		t.Errorf("remote manifest leaks or loses a document:\n%s", remote)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
