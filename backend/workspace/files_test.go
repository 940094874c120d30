package workspace_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentero/agentero/backend/workspace"
)

// The PDF viewer's file server serves the PDFs of the vault's papers and
// nothing else: not the HTML or SVG a paper folder may hold (on the app's
// origin they could call its bindings), not a PDF the index does not know,
// not a link leaving the vault; and what it serves is a PDF the webview
// may not sniff into anything else, in a sandbox.
func TestServeFile(t *testing.T) {
	root := t.TempDir()
	paper := filepath.Join(root, "papers", "a")
	os.MkdirAll(paper, 0o755)
	os.WriteFile(filepath.Join(paper, "paper.pdf"), []byte("%PDF-1.4 a"), 0o644)
	os.WriteFile(filepath.Join(paper, "page.html"), []byte("<script>window.go.main.App.Reindex()</script>"), 0o644)
	os.WriteFile(filepath.Join(paper, "figure.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), 0o644)
	os.WriteFile(filepath.Join(paper, "NOTES.md"), []byte("notes"), 0o644)
	os.WriteFile(filepath.Join(paper, "zz-second.pdf"), []byte("%PDF-1.4 second"), 0o644) // not the paper's PDF
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "loose.pdf"), []byte("%PDF-1.4 loose"), 0o644) // not in a paper folder
	os.MkdirAll(filepath.Join(root, ".agentero"), 0o755)
	os.WriteFile(filepath.Join(root, ".agentero", "secret.json"), []byte("{}"), 0o644)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "passwd"), []byte("root"), 0o644)
	linked := filepath.Join(root, "papers", "b")
	os.MkdirAll(linked, 0o755)
	os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(linked, "b.pdf"))
	f := open(t, root, workspace.Options{PoolSize: -1})
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	// After indexing, the paper's PDF is swapped for a FIFO: serving it
	// must not block.
	fifo := filepath.Join(root, "papers", "c")
	os.MkdirAll(fifo, 0o755)
	os.WriteFile(filepath.Join(fifo, "c.pdf"), []byte("%PDF-1.4 c"), 0o644)
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	// An indexed paper's folder swapped for a link leaving the vault, and
	// another's PDF swapped for a link into Agentero's own state: the
	// index still knows both paths, the opener refuses them.
	swapped := filepath.Join(root, "papers", "d")
	os.MkdirAll(swapped, 0o755)
	os.WriteFile(filepath.Join(swapped, "d.pdf"), []byte("%PDF-1.4 d"), 0o644)
	hidden := filepath.Join(root, "papers", "e")
	os.MkdirAll(hidden, 0o755)
	os.WriteFile(filepath.Join(hidden, "e.pdf"), []byte("%PDF-1.4 e"), 0o644)
	if _, err := f.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "d.pdf"), []byte("%PDF-1.4 outside"), 0o644)
	os.RemoveAll(swapped)
	os.Symlink(outside, swapped)
	os.WriteFile(filepath.Join(root, ".agentero", "e.pdf"), []byte("%PDF-1.4 state"), 0o644)
	os.Remove(filepath.Join(hidden, "e.pdf"))
	os.Symlink(filepath.Join(root, ".agentero", "e.pdf"), filepath.Join(hidden, "e.pdf"))
	os.Remove(filepath.Join(fifo, "c.pdf"))
	syscall.Mkfifo(filepath.Join(fifo, "c.pdf"), 0o644)

	for _, tt := range []struct {
		method, path string
		code         int
	}{
		{http.MethodGet, "/vault/papers/a/paper.pdf", http.StatusOK},
		{http.MethodHead, "/vault/papers/a/paper.pdf", http.StatusOK},
		{http.MethodPost, "/vault/papers/a/paper.pdf", http.StatusMethodNotAllowed},
		{http.MethodGet, "/vault/papers/a/page.html", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/a/figure.svg", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/a/NOTES.md", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/a/zz-second.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/notes/loose.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/a/missing.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/a", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/b/b.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/c/c.pdf", http.StatusNotFound},
		{http.MethodGet, "/vault/papers/d/d.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/papers/e/e.pdf", http.StatusForbidden},
		{http.MethodGet, "/vault/../" + filepath.Base(outside) + "/passwd", http.StatusNotFound},
		{http.MethodGet, "/vault/.agentero/secret.json", http.StatusNotFound},
		{http.MethodGet, "/other/papers/a/paper.pdf", http.StatusNotFound},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rw := httptest.NewRecorder()
			r := httptest.NewRequest(tt.method, "http://wails.localhost/", nil)
			r.URL.Path = tt.path
			f.ws.ServeFile(rw, r)
			if rw.Code != tt.code {
				t.Errorf("status %d, want %d", rw.Code, tt.code)
			}
			h := rw.Header()
			if h.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(h.Get("Content-Security-Policy"), "sandbox;") ||
				!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("headers %v: want nosniff and a sandboxing policy on every answer", h)
			}
			if rw.Code != http.StatusOK {
				if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
					t.Errorf("a refusal served as %q: %q", ct, rw.Body.String())
				}
				return
			}
			if ct := h.Get("Content-Type"); ct != "application/pdf" {
				t.Errorf("Content-Type %q, want application/pdf", ct)
			}
			if tt.method == http.MethodGet && rw.Body.String() != "%PDF-1.4 a" {
				t.Errorf("served %q", rw.Body.String())
			}
		})
	}
}
