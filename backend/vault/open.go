package vault

// The confined opener: every file Agentero reads from a vault is opened
// here (STYLE: one confined opener for every file read from a vault). A
// vault is often someone else's folder, so a file in it may be a symlink
// to a private file elsewhere, to /dev/zero, or a FIFO that never answers.
// Open resolves a path beneath the vault, following symlinks only while
// they stay inside; opens regular files only, without blocking; refuses a
// file larger than its kind's cap before reading a byte; and bounds the
// read with a deadline. Its errors say which of these happened, so that a
// caller reports the one file and carries on.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Kind is what a vault file is read as. It decides the file's size cap,
// how long reading it may take, and where its real path may lie.
type Kind uint8

// The kinds of vault files. The caps are far above any real file of the
// kind and far below what would hurt the app; a file past its cap is
// reported, never read.
const (
	// KindPDF is a paper's PDF: 1 GiB, more than any paper or scanned
	// book (PDFium's WebAssembly memory is capped at 1 GiB anyway).
	KindPDF Kind = iota + 1
	// KindMetadata is a paper's metadata.json: 1 MiB (a real one, long
	// abstract included, is a few KB).
	KindMetadata
	// KindReferences is a paper's source/*.bib or *.bbl: 16 MiB (a whole
	// library's .bib exported next to one paper is a few MB).
	KindReferences
	// KindSidecar is a paper's source/agentero-cite.json: 16 MiB.
	KindSidecar
	// KindText is a note or other text file: MaxTextFileSize (4 MiB).
	KindText
	// KindGuidance is AGENTS.md, CLAUDE.md, .claude/AGENTS.md and the
	// files CLAUDE.md imports: 256 KiB, since it is sent at the start of
	// every session. Its real path may not lie in .agentero/.
	KindGuidance
	// KindContextDoc is a context document or the context rules under
	// .agentero/context/: 1 MiB. Its real path must lie in that folder.
	KindContextDoc
	// KindState is one of Agentero's own state files, opened beneath the
	// folder that holds it (the citing scan, a conversation's snapshot):
	// 64 MiB.
	KindState
	kindDir // a folder, for ReadDir
)

// Limit is the largest file of kind k that is read, in bytes.
func (k Kind) Limit() int64 {
	switch k {
	case KindPDF:
		return 1 << 30
	case KindMetadata, KindContextDoc:
		return 1 << 20
	case KindReferences, KindSidecar:
		return 16 << 20
	case KindText:
		return MaxTextFileSize
	case KindGuidance:
		return 256 << 10
	case KindState:
		return 64 << 20
	}
	return 0
}

// Deadline is how long reading a whole file of kind k may take: a file on
// a stuck network or FUSE mount fails instead of stalling a sync. A PDF
// may take longer, since it is hashed whole.
func (k Kind) Deadline() time.Duration {
	if k == KindPDF {
		return 2 * time.Minute
	}
	return 10 * time.Second
}

func (k Kind) String() string {
	switch k {
	case KindPDF:
		return "PDF"
	case KindMetadata:
		return "metadata.json"
	case KindReferences:
		return "reference file"
	case KindSidecar:
		return "citation sidecar"
	case KindText:
		return "text file"
	case KindGuidance:
		return "guidance file"
	case KindContextDoc:
		return "context document"
	case KindState:
		return "state file"
	case kindDir:
		return "folder"
	}
	return "file"
}

// The opener's domain errors. A *FileError wraps one of them (or
// fs.ErrNotExist, or an I/O error), so callers tell them apart with
// errors.Is and show the FileError's text, which names the file.
var (
	// ErrNotRegular is a FIFO, socket, device or folder where a file was
	// expected (or a file where a folder was).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is a file past its kind's cap.
	ErrTooLarge = errors.New("file is too large")
	// ErrTimeout is a read that did not finish within its kind's deadline.
	ErrTimeout = errors.New("reading the file took too long")
)

// The ways a path that looked plain ends outside what may be read; each
// is ErrOutside for errors.Is, and says which way it went.
var (
	// ErrLinkOut is a symlink whose target leaves the folder opened.
	ErrLinkOut error = &outsideError{"links outside the vault"}
	// ErrLinkHidden is a symlink whose target lies where this kind of
	// file may not: a hidden folder, Agentero's own state, or for a
	// context document anywhere but the context folder.
	ErrLinkHidden error = &outsideError{"links into a hidden folder or Agentero's own state"}

	errLoop    error = &outsideError{"has too many levels of symlinks"}
	errChanged error = &outsideError{"changed while it was opened"}
	errLeaves        = ErrLinkOut
	errHidden        = ErrLinkHidden
)

// outsideError is one of the ways to be outside; it is ErrOutside.
type outsideError struct{ msg string }

func (e *outsideError) Error() string        { return e.msg }
func (e *outsideError) Is(target error) bool { return target == ErrOutside }

// FileError is a vault file that was refused or could not be read.
type FileError struct {
	Path string // as the caller named it, slash separated
	Kind Kind
	Err  error
}

func (e *FileError) Error() string {
	switch {
	case errors.Is(e.Err, ErrTooLarge):
		return fmt.Sprintf("%s: larger than the %s limit for a %s", e.Path, sizeText(e.Kind.Limit()), e.Kind)
	case errors.Is(e.Err, ErrTimeout):
		return fmt.Sprintf("%s: not read within %s", e.Path, e.Kind.Deadline())
	case errors.Is(e.Err, ErrNotRegular):
		if e.Kind == kindDir {
			return e.Path + ": not a folder"
		}
		return e.Path + ": not a regular file (a folder, FIFO, socket or device)"
	case errors.Is(e.Err, fs.ErrNotExist):
		return e.Path + ": not found"
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// Handle is a vault file opened by Open: a regular file beneath the vault,
// no larger than its kind's cap when it was opened.
type Handle struct {
	*os.File
	Path    string // as the caller named it
	Real    string // vault-relative with every symlink resolved: the file read
	Abs     string // the absolute path of Real
	Size    int64
	ModTime time.Time
	kind    Kind
}

// Open opens the file rel (a slash path relative to root) for reading as
// kind. root is the vault, or for KindState the folder of Agentero's own
// state that holds the file. It does not block on a FIFO or device; the
// caller closes the file.
func Open(root, rel string, kind Kind) (*Handle, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, &FileError{Path: rel, Kind: kind, Err: err}
	}
	defer r.Close()
	return r.Open(rel, kind)
}

// ReadFile reads the whole file rel beneath root as kind, within its cap
// and deadline.
func ReadFile(ctx context.Context, root, rel string, kind Kind) ([]byte, error) {
	f, err := Open(root, rel, kind)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadAll(ctx)
}

// Root is a folder opened for confined reads: the vault, usually. Open a
// Root once to read many files (Scan does); Open and ReadFile open one per
// call. A Root is safe for concurrent use.
type Root struct {
	dir  string // absolute, as given
	real string // dir with symlinks resolved
	os   *os.Root
	fd   int // Linux: an O_PATH descriptor of the folder for openat2; -1 elsewhere
}

// OpenRoot opens the folder dir for confined reads.
func OpenRoot(dir string) (*Root, error) { return openRoot(dir, true) }

// openRoot opens dir; withFD opens the descriptor openat2 needs too
// (Resolve, which opens nothing, goes without).
func openRoot(dir string, withFD bool) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	or, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	r := &Root{dir: abs, real: real, os: or, fd: -1}
	if withFD {
		r.fd = openDirFD(real)
	}
	return r, nil
}

// Abs is the absolute path of real, a real root-relative path (as
// Canonical and ReadDir return).
func (r *Root) Abs(real string) string { return filepath.Join(r.real, filepath.FromSlash(real)) }

// Close releases the folder.
func (r *Root) Close() error {
	closeDirFD(r.fd)
	return r.os.Close()
}

// Open opens rel beneath the root as kind; see the package-level Open.
func (r *Root) Open(rel string, kind Kind) (*Handle, error) {
	fail := func(err error) (*Handle, error) { return nil, &FileError{Path: rel, Kind: kind, Err: err} }
	if !localPath(rel) || !kind.allowsName(rel) {
		return fail(ErrOutside)
	}
	f, real, err := r.open(rel, kind)
	if err != nil {
		return fail(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fail(err)
	}
	return &Handle{File: f, Path: rel, Real: real, Abs: r.Abs(real), Size: st.Size(), ModTime: st.ModTime(), kind: kind}, nil
}

// Stat says what is at rel without opening it: its real root-relative path
// and its information (of whatever type: the caller checks). It fails only
// where Open would for the path itself: missing, or outside what kind may
// read.
func (r *Root) Stat(rel string, kind Kind) (string, fs.FileInfo, error) {
	if !localPath(rel) || !kind.allowsName(rel) {
		return "", nil, &FileError{Path: rel, Kind: kind, Err: ErrOutside}
	}
	real, err := r.Canonical(rel)
	if err != nil {
		return "", nil, &FileError{Path: rel, Kind: kind, Err: err}
	}
	if !kind.allowsReal(real) {
		return "", nil, &FileError{Path: rel, Kind: kind, Err: errHidden}
	}
	st, err := r.os.Lstat(real)
	if err != nil {
		return "", nil, &FileError{Path: rel, Kind: kind, Err: err}
	}
	return real, st, nil
}

// ReadDir lists the folder rel ("." for the root) beneath the root, after
// resolving its symlinks inside, and returns its real root-relative path.
// Entries are sorted by name and as the folder holds them: a symlink in it
// is listed as a symlink.
func (r *Root) ReadDir(rel string, kind Kind) (string, []fs.DirEntry, error) {
	fail := func(err error) (string, []fs.DirEntry, error) {
		return "", nil, &FileError{Path: rel, Kind: kindDir, Err: err}
	}
	if rel != "." && (!localPath(rel) || !kind.allowsName(rel)) {
		return fail(ErrOutside)
	}
	f, real, err := r.openAs(rel, kindDir)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if !kind.allowsReal(real) {
		return fail(errHidden)
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		return fail(err)
	}
	sortEntries(entries)
	return real, entries, nil
}

// open opens rel as kind and checks where its real path lies.
func (r *Root) open(rel string, kind Kind) (*os.File, string, error) {
	f, real, err := r.openAs(rel, kind)
	if err != nil {
		return nil, "", err
	}
	if !kind.allowsReal(real) {
		f.Close()
		return nil, "", errHidden
	}
	return f, real, nil
}

// openAs resolves rel and opens it. The common case, a path with no
// symlink, is one openat2 (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) on Linux;
// a path through symlinks is resolved first, component by component, and
// its real path opened the same way, so a link swapped in between fails
// rather than being followed. Without openat2 the real path is opened
// through os.Root, which also never leaves the folder.
func (r *Root) openAs(rel string, kind Kind) (*os.File, string, error) {
	real := path.Clean(rel)
	resolved := false
	if r.fd < 0 {
		var err error
		if real, err = r.Canonical(rel); err != nil {
			return nil, "", err
		}
		resolved = true
	}
	for {
		f, err := r.openReal(real, kind)
		if errors.Is(err, errSymlink) && !resolved {
			if real, err = r.Canonical(rel); err != nil {
				return nil, "", err
			}
			resolved = true
			continue
		}
		if errors.Is(err, errSymlink) {
			err = errLeaves // a link appeared after the path was resolved
		}
		return f, real, err
	}
}

// errSymlink is met when the path opened holds a symlink: resolve it first.
var errSymlink = errors.New("the path holds a symlink")

// openReal opens real, a path with no symlink in it, and checks it is what
// kind expects.
func (r *Root) openReal(real string, kind Kind) (*os.File, error) {
	if r.fd >= 0 {
		return openBeneath(r.fd, r.real, real, kind)
	}
	// Portable: look, then open with O_NOFOLLOW (os.Root adds it), then
	// check that what was opened is what was looked at.
	return openChecked(r.os, real, kind)
}

// openChecked opens real beneath root without openat2.
func openChecked(root *os.Root, real string, kind Kind) (*os.File, error) {
	st, err := root.Lstat(real)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, errSymlink
	}
	if err := kind.check(st); err != nil {
		return nil, err
	}
	flags := os.O_RDONLY | nonblock | noctty
	if kind == kindDir {
		flags = os.O_RDONLY
	}
	f, err := root.OpenFile(real, flags, 0)
	if err != nil {
		return nil, err
	}
	if got, err := f.Stat(); err != nil || !os.SameFile(st, got) {
		f.Close()
		return nil, errChanged
	}
	return f, nil
}

// check says whether st is a file kind may read.
func (k Kind) check(st fs.FileInfo) error {
	return k.checkType(st.IsDir(), st.Mode().IsRegular(), st.Size())
}

func (k Kind) checkType(dir, regular bool, size int64) error {
	if k == kindDir {
		if !dir {
			return ErrNotRegular
		}
		return nil
	}
	if !regular {
		return ErrNotRegular
	}
	if size > k.Limit() {
		return ErrTooLarge
	}
	return nil
}

// maxLinks bounds the symlinks followed for one path, as the kernel does.
const maxLinks = 40

// Canonical resolves rel beneath the root, component by component:
// a symlink is followed while its target stays inside (a relative target
// from where the link is, an absolute one only when it names a place in
// the root), and ".." never climbs above the root. It returns the real
// slash path relative to the root ("." for the root itself).
func (r *Root) Canonical(rel string) (string, error) {
	todo := strings.Split(rel, "/")
	var done []string
	for links := 0; len(todo) > 0; {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", errLeaves
			}
			done = done[:len(done)-1]
			continue
		}
		cur := path.Join(path.Join(done...), part)
		st, err := r.os.Lstat(cur)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", fs.ErrNotExist
			}
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			done = append(done, part)
			continue
		}
		if links++; links > maxLinks {
			return "", errLoop
		}
		target, err := r.os.Readlink(cur)
		if err != nil {
			return "", err
		}
		target = filepath.ToSlash(target)
		if filepath.IsAbs(filepath.FromSlash(target)) || strings.HasPrefix(target, "/") {
			in, ok := r.inside(filepath.FromSlash(target))
			if !ok {
				return "", errLeaves
			}
			done, todo = nil, append(strings.Split(in, "/"), todo...)
			continue
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

// inside returns the root-relative slash path of an absolute path that
// names a place in the root (through the root's path as given or its real
// path), and whether it does.
func (r *Root) inside(abs string) (string, bool) {
	abs = filepath.Clean(abs)
	for _, base := range []string{r.real, r.dir} {
		if abs == base {
			return ".", true
		}
		if rest, ok := strings.CutPrefix(abs, base+string(filepath.Separator)); ok {
			return filepath.ToSlash(rest), true
		}
	}
	return "", false
}

// localPath reports whether rel is a clean relative slash path that does
// not climb: what a caller may ask the opener for.
func localPath(rel string) bool {
	if rel == "" || rel == "." || strings.ContainsRune(rel, 0) || strings.HasPrefix(rel, "/") || path.Clean(rel) != rel {
		return false
	}
	if filepath.Separator == '\\' && strings.ContainsRune(rel, '\\') || filepath.VolumeName(filepath.FromSlash(rel)) != "" {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// allowsName says whether a caller may ask for rel as kind: vault content
// is never in a hidden folder; guidance may be (.claude/AGENTS.md), never
// in .agentero/; context documents are in .agentero/context/.
func (k Kind) allowsName(rel string) bool {
	switch k {
	case KindState:
		return true
	case KindGuidance:
		return !inState(rel)
	case KindContextDoc:
		return rel == contextDir || strings.HasPrefix(rel, contextDir+"/")
	}
	return !Hidden(rel)
}

// allowsReal says whether a file of kind may be read at its real path: the
// same rule as allowsName, so a symlink cannot lead where a name may not.
func (k Kind) allowsReal(real string) bool {
	if real == "." {
		return true // the root itself: only a folder, which Open refuses
	}
	return k.allowsName(real)
}

// contextDir is where context documents live (backend/context/docs).
const contextDir = StateDir + "/context"

// inState reports whether rel lies in Agentero's own folder.
func inState(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return strings.EqualFold(first, StateDir)
}

// ReadAll reads the whole file, at most its kind's cap, within its kind's
// deadline or until ctx ends.
func (f *Handle) ReadAll(ctx context.Context) ([]byte, error) {
	limit := f.kind.Limit()
	// The file was no larger than the cap when opened: one buffer of its
	// size holds it, unless it grew (then the buffer grows up to the cap).
	buf := &capped{limit: limit, b: make([]byte, 0, min(f.Size, limit)+1)}
	if _, err := f.Copy(ctx, buf); err != nil {
		return nil, err
	}
	return buf.b, nil
}

// Copy copies the whole file to w, at most its kind's cap, within its
// kind's deadline or until ctx ends. On a timeout it returns at once; the
// abandoned read may still write to w until the file system answers, so w
// must be the caller's own (a hash, a buffer), not shared.
func (f *Handle) Copy(ctx context.Context, w io.Writer) (int64, error) {
	n, err := copyWithin(ctx, f.kind.Deadline(), w, f.File, f.kind.Limit())
	if err != nil {
		return n, &FileError{Path: f.Path, Kind: f.kind, Err: err}
	}
	return n, nil
}

// copyWithin copies at most limit bytes of r to w, failing with
// ErrTooLarge when r holds more and ErrTimeout when it takes longer than
// d. The copy runs on its own goroutine so that a read that never returns
// (a hung mount) is abandoned rather than waited for.
func copyWithin(ctx context.Context, d time.Duration, w io.Writer, r io.Reader, limit int64) (int64, error) {
	type result struct {
		n   int64
		err error
	}
	done := make(chan result, 1)
	go func() {
		var n int64
		var err error
		if c, ok := w.(*capped); ok {
			n, err = c.readFrom(r) // into its own buffer, with no copy buffer between
		} else {
			n, err = io.Copy(w, io.LimitReader(r, limit+1))
		}
		if err == nil && n > limit {
			err = ErrTooLarge
		}
		done <- result{n, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.n, res.err
	case <-timer.C:
		return 0, ErrTimeout
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// sortEntries sorts a folder's entries by name, as os.ReadDir does.
func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// capped is a buffer that refuses to grow past limit+1 bytes.
type capped struct {
	limit int64
	b     []byte
}

// readFrom reads r to its end into the buffer, at most limit+1 bytes.
func (c *capped) readFrom(r io.Reader) (int64, error) {
	for int64(len(c.b)) <= c.limit {
		if len(c.b) == cap(c.b) {
			c.b = slices.Grow(c.b, int(min(int64(cap(c.b)), c.limit+1-int64(len(c.b)))))
		}
		n, err := r.Read(c.b[len(c.b):min(cap(c.b), int(c.limit+1))])
		c.b = c.b[:len(c.b)+n]
		if err == io.EOF {
			return int64(len(c.b)), nil
		}
		if err != nil {
			return int64(len(c.b)), err
		}
	}
	return int64(len(c.b)), nil
}

func (c *capped) Write(p []byte) (int, error) {
	if int64(len(c.b)+len(p)) > c.limit+1 {
		return 0, ErrTooLarge
	}
	c.b = append(c.b, p...)
	return len(p), nil
}
