package workspace

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// FilePrefix is the URL path the vault's files are served under.
const FilePrefix = "/vault/"

// ServeFile serves the vault file named by the request's path,
// /vault/<vault-relative path>, for the PDF viewer. Only files inside the
// vault are served: no traversal, no symlink leaving it, nothing under
// .agentero.
func (w *Workspace) ServeFile(rw http.ResponseWriter, r *http.Request) {
	rel, ok := strings.CutPrefix(r.URL.Path, FilePrefix)
	if !ok {
		http.NotFound(rw, r)
		return
	}
	abs, err := vault.Resolve(w.Root(), rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			http.Error(rw, "this file is no longer in the vault", http.StatusNotFound)
			return
		}
		http.Error(rw, "not a file of this vault", http.StatusForbidden)
		return
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		http.NotFound(rw, r)
		return
	}
	http.ServeFile(rw, r, abs)
}

// CheckExternal refuses every link the app would open in the browser except
// the external links a card may carry (SPEC §1): DOI and arXiv pages.
func CheckExternal(uri string) error {
	if !IsExternal(uri) {
		return invalid(errors.New("only doi.org and arxiv.org links open from Agentero"))
	}
	return nil
}
