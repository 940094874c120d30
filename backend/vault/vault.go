// Package vault discovers what a vault holds (SPEC §1): paper folders at any
// depth under papers/, their PDF, metadata.json and text files, and the text
// files elsewhere that a user may mention. It never writes outside .agentero/.
package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// StateDir is the vault-relative folder that holds Agentero's own state.
const StateDir = ".agentero"

// PapersDir is the vault-relative folder under which paper folders live.
const PapersDir = "papers"

// MaxTextFileSize is the largest text file the index reads; larger ones are
// listed but not searched.
const MaxTextFileSize = 4 << 20

// ErrOutside is returned for a path that is not a readable place inside the vault.
var ErrOutside = errors.New("path is not inside the vault")

// Paper is one paper folder found by Scan.
type Paper struct {
	Ref      string // vault-relative folder, slash separated ("papers/raft")
	PDF      string // vault-relative PDF path
	Size     int64
	ModTime  time.Time
	Metadata string // vault-relative metadata.json path, "" when absent
	MetaSize int64
	MetaMod  time.Time
}

// File is a text file in the vault: notes, NOTES.md beside a paper, or any
// other plain-text file a user may mention.
type File struct {
	Path    string // vault-relative, slash separated
	Paper   string // ref of the paper folder it sits in, "" when none
	Size    int64
	ModTime time.Time
}

// Snapshot is what a vault held when Scan walked it.
type Snapshot struct {
	Root    string
	Papers  []Paper
	Files   []File
	Skipped []Skipped // files left out, with why
}

// Skipped is a file Scan left out although its name is one it reads (a
// PDF, metadata.json, a text file): a symlink, a FIFO, a device.
type Skipped struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// Scan walks the vault at root through the confined opener. Only regular
// files and real folders are vault content: a symlink is never followed
// (its target may be another paper's file, or lie outside the vault, and
// the index is what a grant reads), and FIFOs, sockets and devices are
// never opened; those that bear a name Scan reads are listed in Skipped.
// Unreadable folders are skipped, not fatal; only a missing or unreadable
// root is an error.
func Scan(root string) (*Snapshot, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open vault: %s is not a folder", root)
	}
	r, err := OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	defer r.Close()
	s := &Snapshot{Root: root}
	if err := s.walk(r, "", ""); err != nil {
		return nil, err
	}
	sort.Slice(s.Papers, func(i, j int) bool { return s.Papers[i].Ref < s.Papers[j].Ref })
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	sort.Slice(s.Skipped, func(i, j int) bool { return s.Skipped[i].Path < s.Skipped[j].Path })
	return s, nil
}

// walk visits the folder rel (vault-relative); paper is the ref of the paper
// folder rel sits in, if any. Symlinked folders are not followed, so a link
// can neither leave the vault nor loop.
func (s *Snapshot) walk(r *Root, rel, paper string) error {
	dir := rel
	if dir == "" {
		dir = "."
	}
	_, entries, err := r.ReadDir(dir, KindText)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read vault: %w", err)
		}
		return nil
	}
	inPapers := rel == PapersDir || strings.HasPrefix(rel, PapersDir+"/")
	if paper == "" && inPapers && rel != PapersDir {
		for _, e := range entries {
			if e.Type().IsRegular() && isPDF(e.Name()) {
				paper = rel
				s.addPaper(rel, entries)
				break
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		child := path.Join(rel, name)
		if Hidden(child) {
			continue
		}
		switch {
		case e.IsDir():
			if err := s.walk(r, child, paper); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if IsTextName(name) {
				if info, err := e.Info(); err == nil {
					s.Files = append(s.Files, File{Path: child, Paper: paper, Size: info.Size(), ModTime: info.ModTime()})
				}
			}
		case IsTextName(name) || inPapers && isPDF(name):
			problem := "not a regular file (a FIFO, socket or device): not read"
			if e.Type()&fs.ModeSymlink != 0 {
				problem = "a symlink: links are not indexed"
			}
			s.Skipped = append(s.Skipped, Skipped{Path: child, Problem: problem})
		}
	}
	return nil
}

func isPDF(name string) bool { return strings.EqualFold(path.Ext(name), ".pdf") }

func (s *Snapshot) addPaper(rel string, entries []fs.DirEntry) {
	p := Paper{Ref: rel}
	for _, e := range entries { // sorted by name: the first PDF wins
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		switch {
		case p.PDF == "" && isPDF(e.Name()):
			p.PDF, p.Size, p.ModTime = path.Join(rel, e.Name()), info.Size(), info.ModTime()
		case e.Name() == "metadata.json":
			p.Metadata, p.MetaSize, p.MetaMod = path.Join(rel, e.Name()), info.Size(), info.ModTime()
		}
	}
	s.Papers = append(s.Papers, p)
}

// Hidden reports whether a vault-relative path is Agentero's state or sits in
// a hidden (dot) folder, neither of which is vault content.
func Hidden(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

var textExts = map[string]bool{
	".md": true, ".markdown": true, ".txt": true, ".text": true, ".rst": true, ".org": true,
	".tex": true, ".bib": true, ".bbl": true, ".csv": true, ".tsv": true, ".json": true,
	".yaml": true, ".yml": true, ".toml": true, ".html": true, ".htm": true, ".xml": true,
	".py": true, ".r": true, ".jl": true, ".go": true, ".c": true, ".h": true, ".js": true, ".ts": true,
	"": true, // a file with no extension is still a file (README, NOTES)
}

// IsTextName reports whether a file name is one the index treats as text.
// Files without an extension are checked for binary content when read.
func IsTextName(name string) bool {
	return textExts[strings.ToLower(path.Ext(name))]
}

// LooksBinary reports whether the start of a file holds NUL bytes or is not
// mostly text.
func LooksBinary(head []byte) bool {
	return bytes.IndexByte(head, 0) >= 0
}

// ReadText reads a text file of the vault through the opener, refusing
// binary content and anything over MaxTextFileSize.
func ReadText(ctx context.Context, root, rel string) (string, error) {
	if !ValidRel(rel) {
		return "", &FileError{Path: rel, Kind: KindText, Err: ErrOutside}
	}
	data, err := ReadFile(ctx, root, rel, KindText)
	if err != nil {
		return "", err
	}
	if LooksBinary(data[:min(len(data), 8192)]) {
		return "", fmt.Errorf("%s is not a text file", rel)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

// Resolve turns a vault-relative slash path into an absolute path, refusing
// anything that is not a plain path inside the vault: absolute paths, "..",
// NUL bytes, backslashes, Agentero's state, hidden folders, and symlinks
// whose real target leaves the vault or lies in a hidden folder. It
// resolves as the opener does (Root.Canonical); it is for checks, and a
// read still goes through Open.
func Resolve(root, rel string) (string, error) {
	if !ValidRel(rel) {
		return "", ErrOutside
	}
	r, err := openRoot(root, false)
	if err != nil {
		return "", ErrOutside
	}
	defer r.Close()
	real, err := r.Canonical(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fs.ErrNotExist
		}
		return "", ErrOutside
	}
	if real != "." && Hidden(real) {
		return "", ErrOutside
	}
	return filepath.Join(r.real, filepath.FromSlash(real)), nil
}

// ValidRel reports whether rel is a clean, relative, slash-separated vault
// path with no traversal, NUL, backslash or hidden component.
func ValidRel(rel string) bool {
	if rel == "" || strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "~") {
		return false
	}
	if path.Clean(rel) != rel {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." || part == "." || part == "" {
			return false
		}
	}
	return !Hidden(rel)
}
