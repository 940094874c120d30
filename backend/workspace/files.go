package workspace

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// FilePrefix is the URL path the vault's PDFs are served under.
const FilePrefix = "/vault/"

// PDFPolicy is the Content-Security-Policy of every response of ServeFile:
// a sandbox with nothing allowed, so that even a document the webview
// would render in place of a PDF (had a link or a frame taken it there)
// runs no script, loads nothing and is not of the app's origin, whose
// pages may call the Go bindings.
const PDFPolicy = "sandbox; default-src 'none'; frame-ancestors 'none'; form-action 'none'"

// ServeFile serves the PDF viewer the paper PDF named by the request's
// path, /vault/<vault-relative path>. It serves PDFs the index knows for a
// paper and nothing else (a vault may hold HTML or SVG files, which on the
// app's origin could call its bindings): only GET and HEAD, always as
// application/pdf with nosniff and the sandboxing PDFPolicy, only a regular
// file inside the vault (no traversal, no symlink leaving it, nothing under
// .agentero).
func (w *Workspace) ServeFile(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h.Set("Content-Security-Policy", PDFPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rel, ok := strings.CutPrefix(r.URL.Path, FilePrefix)
	if !ok || !vault.ValidRel(rel) {
		http.NotFound(rw, r)
		return
	}
	known, err := call(r.Context(), w, func(ctx context.Context) (bool, error) { return w.lib.DB().IsPaperPDF(ctx, rel) })
	if err != nil {
		w.log.Warn("serve pdf", "path", rel, "err", err)
		http.Error(rw, "the index could not be read", http.StatusInternalServerError)
		return
	}
	if !known {
		http.Error(rw, "not a paper of this vault", http.StatusForbidden)
		return
	}
	// The confined opener: beneath the vault, no symlink leaving it or
	// landing in .agentero, a regular file only (a FIFO in the PDF's place
	// would block, a device would never end), within the PDF cap.
	f, err := vault.Open(w.Root(), rel, vault.KindPDF)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			http.Error(rw, "this file is no longer in the vault", http.StatusNotFound)
		case errors.Is(err, vault.ErrOutside):
			http.Error(rw, "not a file of this vault", http.StatusForbidden)
		default:
			http.NotFound(rw, r)
		}
		return
	}
	defer f.Close()
	h.Set("Content-Type", "application/pdf")
	http.ServeContent(rw, r, "", f.ModTime, f.File)
}
