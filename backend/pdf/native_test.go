package pdf

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/internal/corpustest"
)

// engine is a way the workers read PDFs, as Options.PDFium names it.
type engine struct{ name, pdfium string }

// engines returns WebAssembly PDFium and, when one is found (NativePDFium,
// as `make test` arranges), the native library.
func engines(t testing.TB) []engine {
	out := []engine{{"wasm", "-"}}
	if lib := NativePDFium(); lib != "" {
		out = append(out, engine{"native", lib})
	} else if corpustest.Strict() {
		t.Fatal(noNative)
	} else {
		t.Log(noNative)
	}
	return out
}

// noNative says why there is no native library and how to get one.
const noNative = "no native libpdfium: " + PDFiumEnv + " is not set and none is beside the program (make deps fetches it into .tools/pdfium)"

// needNative returns the native library, or stops t when there is none.
func needNative(t testing.TB) string {
	t.Helper()
	lib := NativePDFium()
	if lib == "" {
		corpustest.Unavailable(t, noNative)
	}
	return lib
}

// TestNativeLoads checks that the native library the tests were given is
// the one the workers read with: a library that fails to load falls back to
// WebAssembly with a warning, and the native tests would then compare
// WebAssembly with itself.
func TestNativeLoads(t *testing.T) {
	lib := needNative(t)
	var logged lockedBuffer
	e := newTestExtractor(t, Options{Workers: 1, PDFium: lib, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if _, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf")); err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if strings.Contains(logged.String(), "native PDFium unavailable") {
		t.Fatalf("%s does not load; the workers read with WebAssembly:\n%s", lib, logged.String())
	}
}

// TestNativeMatchesWasm reads the whole corpus with both engines: the same
// PDFium, so every page's text and label, the metadata, the outline and
// page 1's lines must come out the same.
func TestNativeMatchesWasm(t *testing.T) {
	lib := needNative(t)
	if testing.Short() {
		t.Skip("extracts the whole corpus twice")
	}
	// The engines' output is compared, not their speed: under -race (the
	// workers are the instrumented test binary) and a loaded machine the
	// WebAssembly reading of a long paper passes the default minute.
	wasm := newTestExtractor(t, Options{PDFium: "-", Timeout: 10 * time.Minute})
	native := newTestExtractor(t, Options{PDFium: lib, Timeout: 10 * time.Minute})
	pages := 0
	for _, row := range readManifest(t) {
		path := filepath.Join(corpusDir, row.file)
		want, errW := wasm.Extract(t.Context(), path)
		got, errN := native.Extract(t.Context(), path)
		if fmt.Sprint(errW) != fmt.Sprint(errN) {
			t.Errorf("%s: wasm error %v, native error %v", row.file, errW, errN)
			continue
		}
		if errW != nil {
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: native differs from wasm (-wasm +native):\n%s", row.file, diff)
		}
		pages += len(got.Pages)
	}
	t.Logf("%d pages the same", pages)
}

// TestNativeUnavailableFallsBack names a library that does not exist: the
// workers read with WebAssembly, and say why.
func TestNativeUnavailableFallsBack(t *testing.T) {
	var logged lockedBuffer
	e := newTestExtractor(t, Options{PDFium: filepath.Join(t.TempDir(), "libpdfium.so"), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	doc, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf"))
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(doc.Pages) != 14 || !strings.Contains(doc.Pages[0].Text, "Paxos") {
		t.Errorf("got %d pages, page 1 %.80q", len(doc.Pages), doc.Pages[0].Text)
	}
	if !strings.Contains(logged.String(), "native PDFium unavailable") {
		t.Errorf("no warning logged; log:\n%s", logged.String())
	}
}

// lockedBuffer is a log destination that goroutines may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNativeWorkerMemoryIsCapped checks that a worker reading with native
// PDFium runs under nativeMemoryLimit, as WebAssembly PDFium runs under its
// own cap, so that one hostile file cannot take the machine's memory.
func TestNativeWorkerMemoryIsCapped(t *testing.T) {
	lib := needNative(t)
	if runtime.GOOS != "linux" {
		t.Skip("the cap is set on Linux only")
	}
	e := newTestExtractor(t, Options{Workers: 1, PDFium: lib})
	var pid int
	e.handed = func(p int) { pid = p }
	if _, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf")); err != nil {
		t.Fatal(err)
	}
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(limits), "\n") {
		if strings.HasPrefix(line, "Max address space") {
			if f := strings.Fields(line); len(f) < 5 || f[3] != strconv.Itoa(nativeMemoryLimit) {
				t.Errorf("worker %d: %q, want a soft limit of %d bytes", pid, line, nativeMemoryLimit)
			}
			return
		}
	}
	t.Errorf("worker %d: no address-space line in /proc/%d/limits", pid, pid)
}
