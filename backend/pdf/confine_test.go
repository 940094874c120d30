package pdf

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeReader is a pdfReader whose pages hold the texts given.
type fakeReader struct{ pages []string }

func (f fakeReader) pageCount() (int, error)                              { return len(f.pages), nil }
func (f fakeReader) pageText(i int) (string, error)                       { return f.pages[i], nil }
func (f fakeReader) pageLabel(int) string                                 { return "" }
func (f fakeReader) metaText(tag string) string                           { return strings.Repeat("é", 5000) }
func (f fakeReader) firstBookmark(bookmark) (bookmark, bool)              { return nil, false }
func (f fakeReader) nextBookmark(bookmark) (bookmark, bool)               { return nil, false }
func (f fakeReader) bookmarkTitle(bookmark) string                        { return "" }
func (f fakeReader) bookmarkPage(bookmark) int                            { return -1 }
func (f fakeReader) chars(int, int, func(rune, float64, int, bool)) error { return nil }
func (f fakeReader) charBoxes(int) (rawChars, error)                      { return rawChars{}, nil }
func (f fakeReader) pageLayout(i int) (string, rawLayout, error)          { return f.pages[i], rawLayout{}, nil }
func (f fakeReader) close()                                               {}

func TestReadDocumentCapsText(t *testing.T) {
	dense := strings.Repeat("wörd ", MaxPageText/6+10) // past the page cap, multi-byte runes at the edge
	normal := strings.Repeat("word ", 1000)
	pages := []string{normal, dense, ""}
	for len(pages) < MaxDocumentText/MaxPageText+20 {
		pages = append(pages, dense)
	}
	doc, err := readDocument(fakeReader{pages}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, pg := range doc.Pages {
		total += len(pg.Text)
		if len(pg.Text) > MaxPageText || !utf8.ValidString(pg.Text) {
			t.Fatalf("page %d holds %d bytes (valid UTF-8: %v), want at most %d", pg.Number, len(pg.Text), utf8.ValidString(pg.Text), MaxPageText)
		}
	}
	if total > MaxDocumentText {
		t.Errorf("the document holds %d bytes of text, want at most %d", total, MaxDocumentText)
	}
	if p := doc.Pages[0]; p.Cut || p.Text != strings.TrimSpace(normal) {
		t.Errorf("a normal page was cut: cut=%v, %d bytes", p.Cut, len(p.Text))
	}
	if p := doc.Pages[1]; !p.Cut || len(p.Text) < MaxPageText-4 {
		t.Errorf("a dense page: cut=%v, %d bytes; want cut at %d", p.Cut, len(p.Text), MaxPageText)
	}
	if p := doc.Pages[2]; p.Cut {
		t.Errorf("an empty page is marked cut")
	}
	if last := doc.Pages[len(doc.Pages)-1]; !last.Cut || last.Text != "" {
		t.Errorf("a page past the document cap: cut=%v, %d bytes; want cut and empty", last.Cut, len(last.Text))
	}
	if len(doc.Info.Title) > maxMetaText || len(doc.Info.Author) > maxMetaText {
		t.Errorf("Info fields hold %d and %d bytes, want at most %d", len(doc.Info.Title), len(doc.Info.Author), maxMetaText)
	}
}

// densePDF is a one-page PDF with lines of text in 1-point type: about
// 150,000 characters on the page.
func densePDF() []byte {
	var content bytes.Buffer
	content.WriteString("BT /F1 1 Tf 1.1 TL 2 790 Td\n")
	for line := range 700 {
		content.WriteString("(")
		for w := range 40 {
			fmt.Fprintf(&content, "w%d.%d ", line, w)
		}
		content.WriteString(") '\n")
	}
	content.WriteString("ET\n")
	return onePagePDF(content.String())
}

// TestWorkerCapsAPage reads a real PDF whose one page holds more text than
// MaxPageText: the worker sends the page back cut, and says so.
func TestWorkerCapsAPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dense.pdf")
	if err := os.WriteFile(path, densePDF(), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestExtractor(t, Options{Workers: 1})
	doc, err := e.Extract(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if p := doc.Pages[0]; !p.Cut || len(p.Text) > MaxPageText || !strings.Contains(p.Text, "w0.1 w0.2") {
		t.Errorf("page 1: cut=%v, %d bytes; want cut at %d", p.Cut, len(p.Text), MaxPageText)
	}
}

// TestWorkerReadsTheFileItWasHanded replaces the file's path after it was
// opened: the worker reads the open file, not whatever the path names now
// (a symlink to a private file swapped in, say).
func TestWorkerReadsTheFileItWasHanded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "paper.pdf")
	if err := os.WriteFile(path, heavyPDF(1), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(corpusFile(t, "paxos-made-simple.pdf"), path); err != nil {
		t.Fatal(err)
	}
	for _, lib := range []string{"-", ""} {
		e := newTestExtractor(t, Options{Workers: 1, PDFium: lib})
		doc, err := e.ExtractFile(t.Context(), f)
		if err != nil {
			t.Fatalf("PDFium %q: %v", lib, err)
		}
		if len(doc.Pages) != 1 || !strings.Contains(doc.Pages[0].Text, "Hello world") {
			t.Errorf("PDFium %q read %d pages (%.60q), want the one-page file that was opened", lib, len(doc.Pages), doc.Pages[0].Text)
		}
	}
}

// TestWorkerEnvironment checks that a worker inherits none of the app's
// environment: only its own settings and a fixed locale.
func TestWorkerEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/environ")
	}
	t.Setenv("AGENTERO_TEST_SECRET", "sk-do-not-leak")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-do-not-leak")
	e := newTestExtractor(t, Options{Workers: 1})
	environ := make(chan []byte, 1)
	e.handed = func(pid int) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
		if err != nil {
			t.Errorf("read the worker's environment: %v", err)
		}
		environ <- b
	}
	if _, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf")); err != nil {
		t.Fatal(err)
	}
	env := <-environ
	allowed := map[string]bool{workerEnv: true, cacheDirEnv: true, debugEnv: true, nativeEnv: true, "LC_ALL": true}
	for _, kv := range bytes.Split(bytes.TrimRight(env, "\x00"), []byte{0}) {
		k, _, _ := strings.Cut(string(kv), "=")
		if !allowed[k] {
			t.Errorf("the worker inherited %s", k)
		}
	}
	if bytes.Contains(env, []byte("do-not-leak")) {
		t.Errorf("a secret reached the worker: %q", env)
	}
}
