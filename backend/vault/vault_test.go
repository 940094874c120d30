package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScanFindsPapersAtAnyDepth(t *testing.T) {
	root := t.TempDir()
	write(t, root, "papers/raft/paper.pdf", "%PDF")
	write(t, root, "papers/raft/metadata.json", `{"title":"Raft"}`)
	write(t, root, "papers/raft/NOTES.md", "notes")
	write(t, root, "papers/raft/source/refs.bib", "@article{}")
	write(t, root, "papers/raft/figures/fig1.pdf", "%PDF") // inside a paper: not a paper of its own
	write(t, root, "papers/consensus/old/paxos/b.pdf", "%PDF")
	write(t, root, "papers/consensus/old/paxos/a.pdf", "%PDF") // first by name wins
	write(t, root, "papers/empty-folder/readme.txt", "no pdf here")
	write(t, root, "papers/loose.pdf", "%PDF") // not in a paper folder
	write(t, root, "notes/consensus/summary.md", "summary")
	write(t, root, "notes/consensus/TODO", "a file with no extension")
	write(t, root, "notes/image.png", "\x89PNG")
	write(t, root, ".agentero/context/doc.md", "state")
	write(t, root, ".git/config", "hidden")
	write(t, root, "AGENTS.md", "guidance")

	s, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	var refs, pdfs, metas []string
	for _, p := range s.Papers {
		refs = append(refs, p.Ref)
		pdfs = append(pdfs, p.PDF)
		metas = append(metas, p.Metadata)
	}
	if diff := cmp.Diff([]string{"papers/consensus/old/paxos", "papers/raft"}, refs); diff != "" {
		t.Errorf("paper refs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"papers/consensus/old/paxos/a.pdf", "papers/raft/paper.pdf"}, pdfs); diff != "" {
		t.Errorf("paper PDFs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "papers/raft/metadata.json"}, metas); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	got := map[string]string{}
	for _, f := range s.Files {
		got[f.Path] = f.Paper
	}
	want := map[string]string{
		"AGENTS.md":                      "",
		"notes/consensus/TODO":           "",
		"notes/consensus/summary.md":     "",
		"papers/empty-folder/readme.txt": "",
		"papers/raft/NOTES.md":           "papers/raft",
		"papers/raft/metadata.json":      "papers/raft",
		"papers/raft/source/refs.bib":    "papers/raft",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("text files (-want +got):\n%s", diff)
	}
}

func TestScanRefusesMissingVault(t *testing.T) {
	if _, err := Scan(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Scan(missing) = %v, want not-exist", err)
	}
}

func TestResolveRefuses(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, root, "papers/a/paper.pdf", "%PDF")
	write(t, root, "papers/a-evil/paper.pdf", "%PDF")
	write(t, root, ".agentero/index.sqlite", "db")
	write(t, outside, "secret.txt", "secret")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "papers/a/link.txt"))
	os.Symlink(filepath.Join(root, "papers/a/paper.pdf"), filepath.Join(root, "papers/a/inside-link.pdf"))
	os.Symlink(filepath.Join(root, "papers/a/link.txt"), filepath.Join(root, "papers/a/chain.txt"))

	refused := []string{"", "/etc/passwd", "../secret.txt", "papers/../../x", "papers/a/../../..", "~/x",
		"papers/a/\x00.pdf", `papers\a\paper.pdf`, ".agentero/index.sqlite", "papers/./a/paper.pdf",
		"papers//a/paper.pdf", "papers/a/link.txt", "papers/a/chain.txt"}
	for _, rel := range refused {
		if _, err := Resolve(root, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("Resolve(%q) = %v, want ErrOutside", rel, err)
		}
	}
	for _, rel := range []string{"papers/a/paper.pdf", "papers/a/inside-link.pdf", "papers/a-evil/paper.pdf", "papers"} {
		if _, err := Resolve(root, rel); err != nil {
			t.Errorf("Resolve(%q) = %v, want ok", rel, err)
		}
	}
	if _, err := Resolve(root, "papers/b/paper.pdf"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"papers/a/paper.pdf", "../x", "papers/%2e%2e/x", "a/\x00", ".agentero/x", "papers/a/link.txt"} {
		f.Add(s)
	}
	root := f.TempDir()
	os.MkdirAll(filepath.Join(root, "papers", "a"), 0o755)
	os.WriteFile(filepath.Join(root, "papers", "a", "paper.pdf"), []byte("%PDF"), 0o644)
	rootReal, _ := filepath.EvalSymlinks(root)
	f.Fuzz(func(t *testing.T, rel string) {
		abs, err := Resolve(root, rel)
		if err != nil {
			return
		}
		in, rerr := filepath.Rel(rootReal, abs)
		if rerr != nil || in == ".." || filepath.IsAbs(in) || len(in) >= 2 && in[:2] == ".." {
			t.Fatalf("Resolve(%q) = %q escapes the vault", rel, abs)
		}
	})
}
