package acp

import (
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/vault"
	sdk "github.com/coder/acp-go-sdk"
)

// locator turns the paths an agent names (a tool call's locations, the
// paths in its raw input) into what the UI shows of them: whether a path
// lies inside the vault, and the citation URI that opens it there.
//
// Paths are canonicalised the way the agent's own tools would resolve
// them: relative to the session's working folder, "~" as the home folder,
// ".." after symlinks, so that neither a relative path nor a link can hide
// that a tool reaches into the vault. A locator is read-only after it is
// made and safe for concurrent use.
type locator struct {
	vault string // the vault root, symlinks resolved
	cwd   string // the session's working folder
	home  string // "" when unknown: "~" paths are then not resolved
}

func newLocator(vaultRoot, cwd string) *locator {
	l := &locator{vault: filepath.Clean(vaultRoot), cwd: cwd}
	if real, err := filepath.EvalSymlinks(vaultRoot); err == nil {
		l.vault = real
	}
	if home, err := os.UserHomeDir(); err == nil {
		l.home = home
	}
	return l
}

// canonical returns the absolute path p names, with every symlink of its
// existing part resolved; false when p cannot name a file.
func (l *locator) canonical(p string) (string, bool) {
	p = strings.TrimSpace(p)
	if p == "" || strings.ContainsRune(p, 0) {
		return "", false
	}
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		if dec, err := url.PathUnescape(rest); err == nil {
			rest = dec
		}
		p = rest
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if l.home == "" {
			return "", false
		}
		p = l.home + p[1:]
	case !filepath.IsAbs(p):
		if l.cwd == "" {
			return "", false
		}
		p = l.cwd + string(filepath.Separator) + p
	}
	return resolvePath(p), true
}

// resolvePath resolves an absolute path component by component, as the
// system does: a symlink is followed before a later ".." applies. Past the
// first component that does not exist, the rest is applied as written.
func resolvePath(p string) string {
	cur := string(filepath.Separator)
	exists := true
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		if exists {
			if st, err := os.Lstat(next); err != nil {
				exists = false
			} else if st.Mode()&os.ModeSymlink != 0 {
				if real, err := filepath.EvalSymlinks(next); err == nil {
					next = real
				} else {
					exists = false // a dangling link: keep its own name
				}
			}
		}
		cur = next
	}
	return cur
}

// inVault returns the vault-relative slash path of an absolute canonical
// path, and whether it lies inside the vault ("." for the root itself).
func (l *locator) inVault(real string) (string, bool) {
	rel, err := filepath.Rel(l.vault, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// locate describes one path the agent named. Inside the vault, a file the
// viewer can open gets a citation URI: a PDF at page when one is known,
// any other file as itself. A path outside is shown, never opened.
func (l *locator) locate(path string, line, page int) events.ToolLocation {
	loc := events.ToolLocation{Path: path, Line: line}
	real, ok := l.canonical(path)
	if !ok {
		return loc
	}
	rel, in := l.inVault(real)
	loc.InVault = in
	if !in || !vault.ValidRel(rel) {
		return loc // outside, the root itself, or Agentero's own state
	}
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return loc
	}
	if !strings.EqualFold(filepath.Ext(rel), ".pdf") {
		page = 0
	}
	loc.CitationURI = citation.New(rel, page, "").String()
	return loc
}

// locations describes a tool call's locations. raw is the call's raw
// input: a page it names is where a PDF opens.
func (l *locator) locations(locs []sdk.ToolCallLocation, raw any) []events.ToolLocation {
	if len(locs) == 0 {
		return nil
	}
	page := pageHint(raw)
	out := make([]events.ToolLocation, 0, len(locs))
	for _, lc := range locs {
		line := 0
		if lc.Line != nil {
			line = *lc.Line
		}
		out = append(out, l.locate(lc.Path, line, page))
	}
	return out
}

// reach describes the paths inside the vault that a raw input names but
// the explicit locations do not, and reports whether anything (explicit or
// not) lies inside the vault.
func (l *locator) reach(explicit []events.ToolLocation, raw any, more []string) ([]events.ToolLocation, bool) {
	in := false
	seen := map[string]bool{}
	for _, lc := range explicit {
		in = in || lc.InVault
		seen[lc.Path] = true
	}
	var extra []events.ToolLocation
	page := pageHint(raw)
	for _, p := range append(inputPaths(raw), more...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		if lc := l.locate(p, 0, page); lc.InVault {
			in = true
			extra = append(extra, lc)
		}
	}
	return extra, in
}

// pathKeys are the raw-input keys whose values agents use for paths
// (compared lower-cased, without '_' and '-').
var pathKeys = map[string]bool{
	"path": true, "paths": true, "filepath": true, "file": true, "files": true, "filename": true,
	"notebookpath": true, "absolutepath": true, "abspath": true, "dir": true, "directory": true,
	"folder": true, "cwd": true, "workdir": true, "workingdirectory": true, "root": true,
	"target": true, "targetpath": true, "targetfile": true, "destination": true, "dest": true,
	"source": true, "sourcepath": true, "src": true, "oldpath": true, "newpath": true, "uri": true,
}

// Bounds of the walk through a raw input.
const (
	maxInputDepth = 6
	maxInputPaths = 64
)

// inputPaths lists the paths a tool's raw input names: the values of
// path-like keys as they are, and in any other text (a shell command) the
// words that are absolute paths, "~" paths or file URLs.
func inputPaths(raw any) []string {
	var out []string
	var walk func(v any, pathKey bool, depth int)
	walk = func(v any, pathKey bool, depth int) {
		if depth > maxInputDepth || len(out) >= maxInputPaths {
			return
		}
		switch v := v.(type) {
		case string:
			if pathKey {
				out = append(out, v)
				return
			}
			for _, w := range strings.FieldsFunc(v, func(r rune) bool {
				return r <= ' ' || strings.ContainsRune("\"'`=;|&<>(),", r)
			}) {
				if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "file://") {
					out = append(out, w)
				}
			}
		case []any:
			for _, e := range v {
				walk(e, pathKey, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				norm := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(k))
				walk(v[k], pathKeys[norm], depth+1)
			}
		}
	}
	walk(raw, false, 0)
	if len(out) > maxInputPaths {
		out = out[:maxInputPaths]
	}
	return out
}

// pageHint is the page a raw input names (page, pages "3-5", pageNumber,
// startPage), 0 when none.
func pageHint(raw any) int {
	m, ok := raw.(map[string]any)
	if !ok {
		return 0
	}
	for _, k := range []string{"page", "pages", "page_number", "pageNumber", "start_page", "startPage"} {
		switch v := m[k].(type) {
		case float64:
			if v >= 1 {
				return int(v)
			}
		case string:
			first := strings.FieldsFunc(v, func(r rune) bool { return r < '0' || r > '9' })
			if len(first) > 0 {
				if n, err := strconv.Atoi(first[0]); err == nil && n >= 1 {
					return n
				}
			}
		}
	}
	return 0
}
