package workspace_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentero/agentero/backend/workspace"
)

// The PDF viewer's file server serves the vault's files and nothing else.
func TestServeFile(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "papers", "a"), 0o755)
	os.WriteFile(filepath.Join(root, "papers", "a", "paper.pdf"), []byte("%PDF-1.4 a"), 0o644)
	os.MkdirAll(filepath.Join(root, ".agentero"), 0o755)
	os.WriteFile(filepath.Join(root, ".agentero", "secret.json"), []byte("{}"), 0o644)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "passwd"), []byte("root"), 0o644)
	os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(root, "papers", "a", "link.pdf"))
	f := open(t, root, workspace.Options{PoolSize: -1})

	for _, tt := range []struct {
		path string
		code int
	}{
		{"/vault/papers/a/paper.pdf", http.StatusOK},
		{"/vault/papers/a/missing.pdf", http.StatusNotFound},
		{"/vault/papers/a", http.StatusNotFound},
		{"/vault/../" + filepath.Base(outside) + "/passwd", http.StatusForbidden},
		{"/vault/papers/a/link.pdf", http.StatusForbidden},
		{"/vault/.agentero/secret.json", http.StatusForbidden},
		{"/other/papers/a/paper.pdf", http.StatusNotFound},
	} {
		rw := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "http://wails.localhost/", nil)
		r.URL.Path = tt.path
		f.ws.ServeFile(rw, r)
		if rw.Code != tt.code {
			t.Errorf("%s: status %d, want %d", tt.path, rw.Code, tt.code)
		}
		if rw.Code == http.StatusOK && rw.Body.String() != "%PDF-1.4 a" {
			t.Errorf("%s: served %q", tt.path, rw.Body.String())
		}
	}
}
