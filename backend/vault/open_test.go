//go:build unix

package vault

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// secret is the text of a file outside the vault that no read may return.
const secret = "SENTINEL-outside-the-vault"

// hostile builds a vault with a file of every sort a shared folder may
// hold, and returns it and the folder outside it.
func hostile(t testing.TB) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "vault"), filepath.Join(base, "outside")
	write(t, outside, "secret.bib", secret)
	write(t, outside, "dir/secret.md", secret)
	write(t, root, "papers/a/paper.pdf", "%PDF-1.4")
	write(t, root, "papers/a/source/refs.bib", "@article{a, title={Inside}}")
	write(t, root, "papers/b/NOTES.md", "notes of b")
	write(t, root, ".agentero/index.sqlite", "state")
	write(t, root, ".agentero/context/doc.md", "a context document")
	write(t, root, ".claude/AGENTS.md", "guidance in .claude")
	write(t, root, "AGENTS.md", "guidance")
	link := func(target, rel string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	link("refs.bib", "papers/a/source/same.bib")
	link(filepath.Join(root, "papers/a/source/refs.bib"), "papers/a/source/absolute.bib")
	link("same.bib", "papers/a/source/chain.bib")
	link("../../b/NOTES.md", "papers/a/source/sibling.bib")
	link(filepath.Join(outside, "secret.bib"), "papers/a/source/outside.bib")
	link("../../../../outside/secret.bib", "papers/a/source/climb.bib")
	link("outside.bib", "papers/a/source/chain-out.bib")
	link(filepath.Join(outside, "dir"), "papers/a/source/dir-out")
	link("/dev/zero", "papers/a/source/zero.bib")
	link("/dev/random", "papers/a/source/random.bib")
	link("loop2.bib", "papers/a/source/loop1.bib")
	link("loop1.bib", "papers/a/source/loop2.bib")
	link("../../../.agentero/index.sqlite", "papers/a/source/state.bib")
	link("gone.bib", "papers/a/source/dangling.bib")
	link("../../notes/x.md", ".agentero/context/escape.md")
	link("doc.md", ".agentero/context/alias.md")
	link(".agentero/index.sqlite", "CLAUDE.md")
	if err := syscall.Mkfifo(filepath.Join(root, "papers/a/source/fifo.bib"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, root, "notes/x.md", "a note")
	l, err := net.Listen("unix", filepath.Join(root, "papers/a/source/socket.bib"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	f, err := os.Create(filepath.Join(root, "papers/a/metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse: 100 MB that take no room
		t.Fatal(err)
	}
	f.Close()
	return root, outside
}

// portable runs fn with openat2 (where there is one) and without it.
func portable(t *testing.T, fn func(t *testing.T)) {
	for _, force := range []bool{false, true} {
		name := "openat2"
		if force {
			name = "portable"
		}
		t.Run(name, func(t *testing.T) {
			old := forcePortable
			forcePortable = force
			defer func() { forcePortable = old }()
			fn(t)
		})
	}
}

func TestOpenConfines(t *testing.T) {
	root, _ := hostile(t)
	tests := []struct {
		rel      string
		kind     Kind
		want     string // the content read; "" when refused
		wantReal string
		wantErr  error
	}{
		{"papers/a/source/refs.bib", KindReferences, "@article{a, title={Inside}}", "papers/a/source/refs.bib", nil},
		{"papers/a/source/same.bib", KindReferences, "@article{a, title={Inside}}", "papers/a/source/refs.bib", nil},
		{"papers/a/source/absolute.bib", KindReferences, "@article{a, title={Inside}}", "papers/a/source/refs.bib", nil},
		{"papers/a/source/chain.bib", KindReferences, "@article{a, title={Inside}}", "papers/a/source/refs.bib", nil},
		{"papers/a/source/sibling.bib", KindReferences, "notes of b", "papers/b/NOTES.md", nil},
		{"papers/a/source/outside.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/climb.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/chain-out.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/dir-out/secret.md", KindText, "", "", ErrOutside},
		{"papers/a/source/zero.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/random.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/loop1.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/state.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/dangling.bib", KindReferences, "", "", fs.ErrNotExist},
		{"papers/a/source/missing.bib", KindReferences, "", "", fs.ErrNotExist},
		{"papers/a/source/fifo.bib", KindReferences, "", "", ErrNotRegular},
		{"papers/a/source/socket.bib", KindReferences, "", "", ErrNotRegular},
		{"papers/a/source", KindReferences, "", "", ErrNotRegular},
		{"papers/a/metadata.json", KindMetadata, "", "", ErrTooLarge},
		{"../outside/secret.bib", KindReferences, "", "", ErrOutside},
		{"/etc/passwd", KindText, "", "", ErrOutside},
		{"papers/../papers/a/source/refs.bib", KindReferences, "", "", ErrOutside},
		{"papers/a/source/refs.bib\x00", KindReferences, "", "", ErrOutside},
		{".agentero/index.sqlite", KindText, "", "", ErrOutside},
		{"AGENTS.md", KindGuidance, "guidance", "AGENTS.md", nil},
		{".claude/AGENTS.md", KindGuidance, "guidance in .claude", ".claude/AGENTS.md", nil},
		{"CLAUDE.md", KindGuidance, "", "", ErrOutside},
		{".agentero/context/doc.md", KindContextDoc, "a context document", ".agentero/context/doc.md", nil},
		{".agentero/context/alias.md", KindContextDoc, "a context document", ".agentero/context/doc.md", nil},
		{".agentero/context/escape.md", KindContextDoc, "", "", ErrOutside},
		{"notes/x.md", KindContextDoc, "", "", ErrOutside},
	}
	portable(t, func(t *testing.T) {
		for _, tt := range tests {
			t.Run(strings.ReplaceAll(tt.rel, "/", "_"), func(t *testing.T) {
				done := make(chan struct{})
				var got []byte
				var real string
				var err error
				go func() {
					defer close(done)
					var f *Handle
					if f, err = Open(root, tt.rel, tt.kind); err != nil {
						return
					}
					defer f.Close()
					real = f.Real
					got, err = f.ReadAll(context.Background())
				}()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatalf("Open(%q) hangs", tt.rel)
				}
				if tt.wantErr != nil {
					if !errors.Is(err, tt.wantErr) {
						t.Fatalf("Open(%q) = %q, %v; want %v", tt.rel, got, err, tt.wantErr)
					}
					var fe *FileError
					if !errors.As(err, &fe) || !strings.HasPrefix(fe.Error(), tt.rel+":") {
						t.Errorf("error %q does not name the file", err)
					}
					return
				}
				if err != nil || string(got) != tt.want || real != tt.wantReal {
					t.Errorf("Open(%q) = %q at %q, %v; want %q at %q", tt.rel, got, real, err, tt.want, tt.wantReal)
				}
			})
		}
	})
}

func TestOpenRefusesDevices(t *testing.T) {
	root := t.TempDir()
	// A device node inside the vault (a copied disk image, a shared drive
	// mounted with dev) is refused before the driver is opened.
	if err := syscall.Mknod(filepath.Join(root, "null.md"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
		t.Skip("cannot create a device node here:", err)
	}
	portable(t, func(t *testing.T) {
		if _, err := Open(root, "null.md", KindText); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Open(device) = %v, want ErrNotRegular", err)
		}
	})
}

func TestReadDirConfines(t *testing.T) {
	root, _ := hostile(t)
	portable(t, func(t *testing.T) {
		r, err := OpenRoot(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if _, _, err := r.ReadDir("papers/a/source/dir-out", KindText); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadDir(folder link out) = %v, want ErrOutside", err)
		}
		if _, _, err := r.ReadDir(".agentero", KindText); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadDir(.agentero) as content = %v, want ErrOutside", err)
		}
		_, es, err := r.ReadDir(".agentero/context", KindContextDoc)
		if err != nil || len(es) != 3 {
			t.Errorf("ReadDir(context folder) = %d entries, %v", len(es), err)
		}
		_, es, err = r.ReadDir(".", KindText)
		if err != nil || len(es) == 0 || es[0].Name() > es[len(es)-1].Name() {
			t.Errorf("ReadDir(root) = %v, %v; want sorted entries", es, err)
		}
	})
}

func TestCopyWithinDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe() // a read that never returns, like a hung mount
		defer pw.Close()
		var sink strings.Builder
		_, err := copyWithin(context.Background(), time.Second, &sink, pr, 100)
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("copy from a stuck reader = %v, want ErrTimeout", err)
		}
	})
	var sink strings.Builder
	if _, err := copyWithin(context.Background(), time.Second, &sink, strings.NewReader(strings.Repeat("x", 101)), 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("copy of a file that grew past its cap = %v, want ErrTooLarge", err)
	}
	// ReadAll's buffer, sized when the file was opened, grows up to the cap.
	for _, tt := range []struct {
		size    int
		wantErr error
	}{{0, nil}, {10, nil}, {100, nil}, {101, ErrTooLarge}, {5000, ErrTooLarge}} {
		buf := &capped{limit: 100, b: make([]byte, 0, 11)}
		_, err := copyWithin(context.Background(), time.Second, buf, strings.NewReader(strings.Repeat("x", tt.size)), 100)
		if !errors.Is(err, tt.wantErr) || err == nil && len(buf.b) != tt.size {
			t.Errorf("ReadAll of %d bytes (cap 100, opened at 10) = %d bytes, %v; want %v", tt.size, len(buf.b), err, tt.wantErr)
		}
	}
}

func TestScanReportsWhatItSkips(t *testing.T) {
	root, _ := hostile(t)
	write(t, root, "papers/c/paper.pdf", "%PDF-1.4")
	os.Symlink("/dev/zero", filepath.Join(root, "papers/c/a.pdf"))
	os.Symlink("../a/paper.pdf", filepath.Join(root, "papers/c/0.pdf"))
	s, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Papers {
		if p.Ref == "papers/c" && p.PDF != "papers/c/paper.pdf" {
			t.Errorf("papers/c's PDF is %q: a symlinked PDF was taken", p.PDF)
		}
	}
	skipped := map[string]bool{}
	for _, k := range s.Skipped {
		skipped[k.Path] = true
	}
	for _, want := range []string{"papers/a/source/outside.bib", "papers/a/source/fifo.bib", "papers/a/source/zero.bib",
		"papers/a/source/socket.bib", "papers/c/a.pdf", "papers/c/0.pdf", "CLAUDE.md"} {
		if !skipped[want] {
			t.Errorf("%s is not reported as skipped (skipped: %v)", want, s.Skipped)
		}
	}
	for _, f := range s.Files {
		if f.Path == "papers/a/source/outside.bib" || f.Path == "papers/a/source/fifo.bib" {
			t.Errorf("%s is listed as a text file", f.Path)
		}
	}
}

func FuzzOpen(f *testing.F) {
	for _, s := range []string{"papers/a/source/refs.bib", "papers/a/source/outside.bib", "papers/a/source/dir-out/secret.md",
		"../outside/secret.bib", "papers/a/source/climb.bib", ".agentero/context/escape.md", "papers/a/source/loop1.bib"} {
		f.Add(s, uint8(KindReferences))
	}
	root, _ := hostile(f)
	f.Fuzz(func(t *testing.T, rel string, k uint8) {
		kind := Kind(k%uint8(KindState)) + 1
		h, err := Open(root, rel, kind)
		if err != nil {
			return
		}
		defer h.Close()
		data, _ := h.ReadAll(context.Background())
		if strings.Contains(string(data), secret) {
			t.Fatalf("Open(%q) read the file outside the vault", rel)
		}
	})
}

// BenchmarkOpen measures what confinement costs a read of a small file
// (metadata.json), against a plain os.ReadFile.
func BenchmarkOpen(b *testing.B) {
	root := b.TempDir()
	write(b, root, "papers/a/b/metadata.json", `{"title":"A"}`)
	os.Symlink("b", filepath.Join(root, "papers/a/link"))
	b.Run("os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(filepath.Join(root, "papers/a/b/metadata.json")); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, force := range []bool{false, true} {
		name := "openat2"
		if force {
			name = "portable"
		}
		for _, rel := range []string{"papers/a/b/metadata.json", "papers/a/link/metadata.json"} {
			b.Run(name+"/"+strings.ReplaceAll(rel, "/", "_"), func(b *testing.B) {
				forcePortable = force
				defer func() { forcePortable = false }()
				for b.Loop() {
					if _, err := ReadFile(context.Background(), root, rel, KindMetadata); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
