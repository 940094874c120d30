package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentero/agentero/backend/vault"
)

// Candidates are the guidance files looked for at the vault root, in order;
// the first that exists is the one used. Parent folders are never searched.
var Candidates = []string{"AGENTS.md", "CLAUDE.md", ".claude/AGENTS.md"}

// importing is the one candidate whose <!-- @import path --> lines are
// expanded.
const importing = "CLAUDE.md"

// DefaultMaxImportDepth bounds nested imports: CLAUDE.md is depth 0, what
// it imports depth 1, and so on.
const DefaultMaxImportDepth = 5

// MaxGuidanceBytes bounds the expanded guidance: it is sent at the start of
// every session, so a file past this is a mistake, not guidance.
const MaxGuidanceBytes = 256 << 10

// Guidance is the chosen guidance file with its imports expanded.
type Guidance struct {
	Path  string `json:"path"` // vault-relative
	Text  string `json:"text"`
	Bytes int    `json:"bytes"`
}

// Import is one @import line met while expanding. Problem is set when it
// was not expanded; Path is then the path as written.
type Import struct {
	Path    string `json:"path"`
	From    string `json:"from"` // the importing file, vault-relative
	Line    int    `json:"line"`
	Depth   int    `json:"depth"`
	Bytes   int    `json:"bytes,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// Issue is something in the vault's guidance or context documents that was
// left out of the snapshot, with the reason to show the user.
type Issue struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// guidance finds and expands the vault's guidance file. Every file is read
// through the vault's confined opener (vault.KindGuidance).
type guidance struct {
	root     string // real path of the vault
	vr       *vault.Root
	maxDepth int
	size     int // bytes expanded so far
	imports  []Import
	issues   []Issue
	done     map[string]bool // real paths already expanded
	stack    []string        // vault-relative paths being expanded, outermost first
	stackAbs []string
}

func (g *guidance) choose() *Guidance {
	for _, cand := range Candidates {
		_, st, err := g.vr.Stat(cand, vault.KindGuidance)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if _, lerr := os.Lstat(filepath.Join(g.root, filepath.FromSlash(cand))); lerr == nil {
				// A dangling symlink exists: say so rather than fall through.
				g.issues = append(g.issues, Issue{cand, "is a symlink whose target cannot be read"})
				return nil
			}
			continue
		case err != nil:
			g.issues = append(g.issues, Issue{cand, problem(err)})
			return nil
		case st.IsDir():
			continue
		}
		real, text, err := g.read(cand)
		if err != nil {
			g.issues = append(g.issues, Issue{cand, err.Error()})
			return nil
		}
		g.size = len(text)
		if cand == importing {
			g.done[real] = true
			g.stack, g.stackAbs = []string{cand}, []string{real}
			text = g.expand(cand, text, 0)
		}
		return &Guidance{Path: cand, Text: text, Bytes: len(text)}
	}
	return nil
}

var importLine = regexp.MustCompile(`^<!--\s*@import\s+(.*?)\s*-->$`)

// expand replaces the @import lines of text (the file from, at depth) by the
// files they name, outside fenced code blocks. A line that cannot be
// expanded stays as a visible note and becomes an issue.
func (g *guidance) expand(from, text string, depth int) string {
	var b strings.Builder
	fence := ""
	lines := strings.SplitAfter(text, "\n")
	for n, line := range lines {
		t := strings.TrimSpace(line)
		if f := fenceOf(t); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(t, fence) && strings.TrimLeft(t, fence[:1]) == "":
				fence = ""
			}
		}
		m := importLine.FindStringSubmatch(t)
		if fence != "" || m == nil {
			b.WriteString(line)
			continue
		}
		raw := strings.Trim(m[1], `"'`)
		imp := Import{Path: raw, From: from, Line: n + 1, Depth: depth + 1}
		body, err := g.include(&imp, raw)
		if err != nil {
			imp.Problem = err.Error()
			g.imports = append(g.imports, imp)
			if !errors.Is(err, errDuplicate) {
				g.issues = append(g.issues, Issue{from, fmt.Sprintf("line %d: @import %s: %s", n+1, raw, err)})
			}
			fmt.Fprintf(&b, "<!-- @import %s: not imported (%s) -->\n", raw, err)
			continue
		}
		b.WriteString(body)
		if !strings.HasSuffix(body, "\n") && body != "" {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// fenceOf returns the fence a line opens or closes (``` or ~~~ and longer), or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(t, c+c+c) {
			return t[:len(t)-len(strings.TrimLeft(t, c))]
		}
	}
	return ""
}

var errDuplicate = errors.New("already imported above")

// include resolves, reads and expands one import, recording it.
func (g *guidance) include(imp *Import, raw string) (string, error) {
	if imp.Depth > g.maxDepth {
		return "", fmt.Errorf("the import depth limit of %d is reached", g.maxDepth)
	}
	rel, err := g.resolve(imp.From, raw)
	if err != nil {
		return "", err
	}
	imp.Path = rel
	real, text, err := g.read(rel)
	if err != nil {
		return "", err
	}
	for i, s := range g.stackAbs {
		if s == real {
			return "", fmt.Errorf("import cycle %s", strings.Join(append(append([]string(nil), g.stack[i:]...), rel), " → "))
		}
	}
	if g.done[real] {
		return "", errDuplicate
	}
	if g.size+len(text) > MaxGuidanceBytes {
		return "", fmt.Errorf("the guidance would pass %d bytes", MaxGuidanceBytes)
	}
	g.done[real] = true
	g.size += len(text)
	at := len(g.imports)
	imp.Bytes = len(text)
	g.imports = append(g.imports, *imp)
	g.stack, g.stackAbs = append(g.stack, rel), append(g.stackAbs, real)
	text = g.expand(rel, text, imp.Depth)
	g.stack, g.stackAbs = g.stack[:len(g.stack)-1], g.stackAbs[:len(g.stackAbs)-1]
	g.imports[at].Bytes = len(text)
	return text, nil
}

// resolve turns an import path, relative to the importing file, into a
// clean vault-relative path. Absolute paths, home paths, URLs, paths that
// climb out of the vault and Agentero's own folder are refused.
func (g *guidance) resolve(from, raw string) (string, error) {
	switch {
	case raw == "":
		return "", errors.New("no path")
	case strings.ContainsAny(raw, "\x00\\"):
		return "", errors.New("only slash paths inside the vault are imported")
	case strings.HasPrefix(raw, "/"), strings.HasPrefix(raw, "~"), filepath.IsAbs(raw), filepath.VolumeName(raw) != "", strings.Contains(raw, "://"):
		return "", errors.New("absolute paths are not imported: use a path relative to the importing file")
	}
	rel := path.Clean(path.Join(path.Dir(from), raw))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", errors.New("the path leaves the vault")
	}
	if stateDir(rel) {
		return "", fmt.Errorf("%s/ is Agentero's own folder and is not imported", vault.StateDir)
	}
	return rel, nil
}

// read reads a vault file for the guidance through the opener: a regular
// file whose real path stays in the vault and outside Agentero's folder,
// and small enough to send. real is its real vault-relative path.
func (g *guidance) read(rel string) (real, text string, err error) {
	f, err := g.vr.Open(rel, vault.KindGuidance)
	if err != nil {
		return "", "", errors.New(problem(err))
	}
	defer f.Close()
	data, err := f.ReadAll(context.Background()) // within the kind's deadline
	if err != nil {
		return "", "", errors.New(problem(err))
	}
	if vault.LooksBinary(data) {
		return "", "", errors.New("is not a text file")
	}
	return f.Real, strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

// problem is the reason the opener refused a guidance file, as the user
// reads it.
func problem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "not found"
	case errors.Is(err, vault.ErrLinkOut):
		return "is a symlink that leaves the vault"
	case errors.Is(err, vault.ErrLinkHidden):
		return fmt.Sprintf("leads into %s/, Agentero's own folder", vault.StateDir)
	case errors.Is(err, vault.ErrNotRegular):
		return "is not a file"
	case errors.Is(err, vault.ErrTooLarge):
		return fmt.Sprintf("is larger than %d bytes", vault.KindGuidance.Limit())
	case errors.Is(err, vault.ErrTimeout):
		return "took too long to read"
	}
	return "cannot be read"
}

func stateDir(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return strings.EqualFold(first, vault.StateDir)
}
