// Package docs reads a vault's context documents (SPEC §8.2): Markdown files
// under <vault>/.agentero/context/ whose front matter says when they enter a
// session (trigger) and how much they matter (priority), plus the folder's
// root rules. It assembles the always-on manifest and the model-decision
// index of a new session, and serves the read-only listing and segment
// reads an agent uses for the rest. Editing documents is for the user, never
// for the agent: nothing here writes.
package docs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// Dir is the vault-relative context folder.
const Dir = vault.StateDir + "/context"

// MaxDocBytes is the largest document read; larger ones are reported, not
// loaded.
const MaxDocBytes = 1 << 20

// maxDocs bounds how many documents a folder may hold: past it the folder
// is not a set of context documents but something copied there by mistake.
const maxDocs = 5000

// Doc is a context document as the catalog knows it. Trigger and Priority
// are the effective ones, after the root rules.
type Doc struct {
	ID          string   `json:"id"` // slash path relative to the context folder
	Description string   `json:"description"`
	Trigger     Trigger  `json:"trigger"`
	Priority    Priority `json:"priority"`
	Bytes       int      `json:"bytes"`               // body bytes, front matter excluded
	Preload     bool     `json:"preload,omitempty"`   // named by preloadPaths
	Forbidden   bool     `json:"forbidden,omitempty"` // named by forbiddenLoad
	TrustLevel  string   `json:"trustLevel"`          // user, workspace (default) or external
	Sensitivity string   `json:"sensitivity"`         // public, internal (default) or sensitive
	// NoFrontMatter marks a document without front matter: it is treated
	// as manual (never loaded on its own), which the user is told.
	NoFrontMatter bool `json:"noFrontMatter,omitempty"`
}

// Problem is a document that could not be used, with the reason to show the
// user.
type Problem struct {
	Path    string `json:"path"` // vault-relative
	Problem string `json:"problem"`
}

// Catalog is the context folder of a vault as scanned: its valid documents
// sorted by id, its rules, and the documents it could not use. It is read
// only after Scan and safe for concurrent use.
type Catalog struct {
	root     string // real absolute path of the vault; "" when there is no context folder
	docs     []Doc
	rules    Rules
	Problems []Problem
	// Notices are documents that are used, but maybe not as the user
	// meant: one without front matter is treated as manual.
	Notices []Problem
}

// ErrNotFound is returned for an id that names no readable document.
// Refusals (traversal, symlinks leaving the folder) return it too, so
// nothing outside the folder is confirmed or named.
var ErrNotFound = errors.New("no context document has that id: list them with context_list_docs")

// InputError is a bad argument (limit, cursor, offset); its text is safe
// to show an agent as is.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

func inputErrorf(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }

// Scan reads the context folder of the vault at vaultRoot. A vault without
// one gives an empty catalog. A malformed document is a Problem; malformed
// rules are an error, since ignoring them could load what the user forbade.
// The folder is listed, and every file read, through the vault's confined
// opener: a link that leaves the context folder is a Problem, never read.
func Scan(vaultRoot string) (*Catalog, error) {
	c := &Catalog{}
	rootReal, err := filepath.EvalSymlinks(vaultRoot)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	vr, err := vault.OpenRoot(rootReal)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	defer vr.Close()
	_, top, err := vr.ReadDir(Dir, vault.KindContextDoc)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open context folder: %w", err)
	}
	c.root = rootReal
	if c.rules, err = readRules(rootReal); err != nil {
		return nil, err
	}
	var walk func(sub string, entries []fs.DirEntry) error
	walk = func(sub string, entries []fs.DirEntry) error {
		for _, d := range entries {
			id := path.Join(sub, d.Name())
			if strings.HasPrefix(d.Name(), ".") {
				continue
			}
			if d.IsDir() {
				_, children, err := vr.ReadDir(Dir+"/"+id, vault.KindContextDoc)
				if err != nil {
					c.Problems = append(c.Problems, Problem{Path: Dir + "/" + id, Problem: "cannot be read"})
					continue
				}
				if err := walk(id, children); err != nil {
					return err
				}
				continue
			}
			if !isDocName(d.Name()) {
				continue
			}
			if len(c.docs)+len(c.Problems) >= maxDocs {
				return fmt.Errorf("the context folder holds more than %d documents", maxDocs)
			}
			c.add(id)
		}
		return nil
	}
	if err := walk("", top); err != nil {
		return nil, fmt.Errorf("scan context folder: %w", err)
	}
	sort.Slice(c.docs, func(i, j int) bool { return c.docs[i].ID < c.docs[j].ID })
	sort.Slice(c.Problems, func(i, j int) bool { return c.Problems[i].Path < c.Problems[j].Path })
	for _, p := range c.rules.PreloadPaths {
		if !c.anyMatch(p) {
			c.Problems = append(c.Problems, Problem{Path: Dir + "/" + RulesFile, Problem: fmt.Sprintf("preloadPaths %q matches no document", p)})
		}
	}
	return c, nil
}

func (c *Catalog) add(id string) {
	data, err := c.readFile(id)
	if errors.Is(err, ErrNotFound) {
		err = errors.New("cannot be read")
	}
	if err != nil {
		c.Problems = append(c.Problems, Problem{Path: Dir + "/" + id, Problem: err.Error()})
		return
	}
	m, body, err := parseDoc(data)
	if err != nil {
		c.Problems = append(c.Problems, Problem{Path: Dir + "/" + id, Problem: err.Error()})
		return
	}
	c.docs = append(c.docs, Doc{
		ID:          id,
		Description: m.description,
		Trigger:     m.trigger,
		Priority:    c.rules.priority(id, m.priority),
		Bytes:       len(body),
		Preload:     c.rules.preloaded(id),
		Forbidden:   c.rules.forbidden(id),
		TrustLevel:  m.trustLevel,
		Sensitivity: m.sensitivity,

		NoFrontMatter: !m.front,
	})
	if !m.front && !c.rules.preloaded(id) {
		c.Notices = append(c.Notices, Problem{Path: Dir + "/" + id,
			Problem: "no front matter: treated as manual (listed and readable through the tools, never loaded on its own; add a --- block with a trigger to change that)"})
	}
}

func (c *Catalog) anyMatch(pattern string) bool {
	for _, d := range c.docs {
		if match(pattern, d.ID) {
			return true
		}
	}
	for _, p := range c.Problems {
		if id, ok := strings.CutPrefix(p.Path, Dir+"/"); ok && match(pattern, id) {
			return true // named, but broken: its own problem says why
		}
	}
	return false
}

// Len is the number of usable documents. The MCP server offers the
// document tools only when it is not zero.
func (c *Catalog) Len() int { return len(c.docs) }

// Docs returns the usable documents, sorted by id.
func (c *Catalog) Docs() []Doc { return append([]Doc(nil), c.docs...) }

// Rules returns the root rules in force.
func (c *Catalog) Rules() Rules { return c.rules }

func (c *Catalog) doc(id string) (Doc, bool) {
	i := sort.Search(len(c.docs), func(i int) bool { return c.docs[i].ID >= id })
	if i < len(c.docs) && c.docs[i].ID == id {
		return c.docs[i], true
	}
	return Doc{}, false
}

// body reads the current body of a known document.
func (c *Catalog) body(id string) ([]byte, error) {
	if _, ok := c.doc(id); !ok {
		return nil, ErrNotFound
	}
	data, err := c.readFile(id)
	if err != nil {
		return nil, fmt.Errorf("read context document %s: %w", id, err)
	}
	_, body, err := parseDoc(data)
	if err != nil {
		return nil, fmt.Errorf("context document %s: %w", id, err)
	}
	return body, nil
}

// readFile reads a document by id through the vault's opener, refusing ids
// that are not clean paths to Markdown files and files whose real path
// leaves the context folder.
func (c *Catalog) readFile(id string) ([]byte, error) {
	if c.root == "" || !validID(id) {
		return nil, ErrNotFound
	}
	data, err := vault.ReadFile(context.Background(), c.root, Dir+"/"+id, vault.KindContextDoc)
	if err != nil {
		return nil, readProblem(err)
	}
	return data, nil
}

// readProblem is why the opener refused a context folder's file: ErrNotFound
// for a missing one, else the reason to show the user.
func readProblem(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ErrNotFound
	case errors.Is(err, vault.ErrOutside):
		return errors.New("is a symlink that leaves the context folder")
	case errors.Is(err, vault.ErrNotRegular):
		return errors.New("is not a regular file")
	case errors.Is(err, vault.ErrTooLarge):
		return fmt.Errorf("is larger than %d bytes", MaxDocBytes)
	case errors.Is(err, vault.ErrTimeout):
		return errors.New("took too long to read")
	}
	return fmt.Errorf("cannot be read: %w", err)
}

// maxID bounds ids as the tool schema does.
const maxID = 1024

// validID reports whether id is a clean relative slash path to a Markdown
// file, with no traversal, hidden component, NUL or backslash.
func validID(id string) bool {
	if id == "" || len(id) > maxID || strings.ContainsAny(id, "\x00\\") || strings.HasPrefix(id, "/") || path.Clean(id) != id {
		return false
	}
	for _, seg := range strings.Split(id, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return isDocName(path.Base(id))
}

func isDocName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		return true
	}
	return false
}
