package intake

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentero/agentero/backend/pdf"
)

// maxPDF is the largest PDF intake copies, the vault opener's cap for PDFs.
const maxPDF = 1 << 30

// forbidden are the system folders a source path may never lie in, even
// through a link: their "files" are the kernel's, not papers.
var forbidden = []string{"/proc", "/sys", "/dev"}

// openPDF opens the source PDF at path for reading. The rule (package doc):
// a regular file, at most 1 GB, whose first bytes are "%PDF-", not in /proc,
// /sys or /dev (checked on the path and on its resolved target). Links are
// followed: the user or their bibliography named the file. The open never
// blocks on a FIFO.
func openPDF(path string) (*os.File, fs.FileInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, refuse("%s cannot be read: %v.", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, refuse("%s does not exist.", path)
	}
	if err != nil {
		return nil, nil, refuse("%s cannot be read: %v.", path, unwrapPath(err))
	}
	for _, dir := range forbidden {
		for _, p := range []string{abs, real} {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				return nil, nil, refuse("%s is a system file, not a PDF.", path)
			}
		}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, refuse("%s cannot be read: %v.", path, unwrapPath(err))
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, refuse("%s cannot be read: %v.", path, unwrapPath(err))
	case st.IsDir():
		f.Close()
		return nil, nil, refuse("%s is a folder, not a PDF.", path)
	case !st.Mode().IsRegular():
		f.Close()
		return nil, nil, refuse("%s is not a regular file, so it is not added.", path)
	case st.Size() > maxPDF:
		f.Close()
		return nil, nil, refuse("%s is larger than 1 GB, the largest PDF Agentero reads.", path)
	}
	head := make([]byte, 1024)
	n, _ := io.ReadFull(f, head)
	if err := sniffPDF(path, head[:n]); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// pdfHeader is what a PDF file starts with (ISO 32000, 7.5.2).
var pdfHeader = []byte("%PDF-")

// sniffPDF refuses a file whose first bytes (head) do not start as a PDF:
// "%PDF-", preceded by nothing but a UTF-8 byte-order mark and white space,
// which some tools that write PDFs leave. PDFium itself looks for "%PDF"
// anywhere in the first 1,024 bytes (its parser's header search), so it
// would open a text file that holds the header after other text; intake
// does not take such a file for a PDF.
func sniffPDF(path string, head []byte) error {
	rest := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	rest = bytes.TrimLeft(rest, "\x00\t\n\f\r ")
	switch {
	case bytes.HasPrefix(rest, pdfHeader):
		return nil
	case bytes.Contains(head, pdfHeader):
		return refuse("%s is not a PDF: it holds %q after other text, and a PDF file starts with it.", path, pdfHeader)
	}
	return refuse("%s is not a PDF (it does not start as a PDF file does).", path)
}

// unopenable is why a file that starts as a PDF is refused when PDFium
// cannot open it (err is what reading it gave), or nil when err does not
// blame the file (a time limit, an encrypted PDF, no reader).
func unopenable(path string, err error) error {
	if errors.Is(err, pdf.ErrDamaged) {
		return refuse("%s is not a PDF that can be read: it starts as one, but PDFium cannot open it.", path)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// hashFile is the SHA-256 of the file at path, hex.
func hashFile(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	return hashReader(f)
}

func hashReader(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(r, maxPDF+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
