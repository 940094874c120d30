package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

func TestExtractBadFiles(t *testing.T) {
	for _, eng := range engines(t) {
		t.Run(eng.name, func(t *testing.T) { testExtractBadFiles(t, eng.pdfium) })
	}
}

func testExtractBadFiles(t *testing.T, pdfium string) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	raft, err := os.ReadFile(corpusFile(t, "in-search-of-an-understandable-consensus-algorithm.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 64<<10)
	rng := rand.NewChaCha8([32]byte{1})
	_, _ = rng.Read(random)

	tests := []struct {
		name string
		path string
		want error
	}{
		{"zero bytes", write("empty.pdf", nil), ErrDamaged},
		{"random bytes", write("random.pdf", random), ErrDamaged},
		{"pdf header then garbage", write("header.pdf", append([]byte("%PDF-1.4\n"), random...)), ErrDamaged},
		{"truncated to first half", write("half.pdf", raft[:len(raft)/2]), ErrDamaged},
		{"user password", write("locked.pdf", encrypt(t, raft, "secret", "owner")), ErrEncrypted},
	}
	e := newTestExtractor(t, Options{PDFium: pdfium})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := e.Extract(t.Context(), tt.path)
			if !errors.Is(err, tt.want) {
				t.Errorf("Extract = (%v, %v), want error %v", doc != nil, err, tt.want)
			}
		})
	}

	t.Run("truncated linearized file keeps the pages it can read", func(t *testing.T) {
		// A linearized file states its page count up front, so PDFium opens
		// the first half and reads the pages whose objects survived.
		data, err := os.ReadFile(corpusFile(t, "metalearn17_mishra.pdf"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := e.Extract(t.Context(), write("half-linearized.pdf", data[:len(data)/2]))
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		if got := len(doc.Pages); got != 8 {
			t.Errorf("got %d pages, want 8", got)
		}
		if !strings.Contains(oneLine(doc.Pages[0].Text), "A Simple Neural Attentive Meta-Learner") {
			t.Errorf("page 1 lost its title: %.200q", doc.Pages[0].Text)
		}
	})

	t.Run("owner password only", func(t *testing.T) {
		path := write("owner.pdf", encrypt(t, raft, "", "owner"))
		doc, err := e.Extract(t.Context(), path)
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		if got := len(doc.Pages); got != 17 {
			t.Errorf("got %d pages, want 17", got)
		}
		if !strings.Contains(doc.Pages[0].Text, "In Search of an Understandable Consensus Algorithm") {
			t.Errorf("page 1 text lost its title: %.200q", doc.Pages[0].Text)
		}
	})

	t.Run("missing file", func(t *testing.T) {
		_, err := e.Extract(t.Context(), filepath.Join(dir, "nope.pdf"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Extract = %v, want os.ErrNotExist", err)
		}
	})
}

// encrypt returns pdf encrypted by pdfcpu with AES-256.
func encrypt(t *testing.T, pdf []byte, userPW, ownerPW string) []byte {
	t.Helper()
	var out bytes.Buffer
	conf := model.NewAESConfiguration(userPW, ownerPW, 256)
	if err := api.Encrypt(bytes.NewReader(pdf), &out, conf); err != nil {
		t.Fatalf("encrypt: %v", err)
	}
	return out.Bytes()
}

func TestExtractTimeout(t *testing.T) {
	big := corpusFile(t, "2204.02311.pdf") // 83 pages
	small := corpusFile(t, "solution-of-a-problem-in-concurrent-programming-control.pdf")
	// One worker: if the killed instance were not replaced, the next
	// Extract would fail or wait forever.
	e := newTestExtractor(t, Options{Workers: 1, Timeout: time.Millisecond})

	_, err := e.Extract(t.Context(), big)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Extract with 1ms timeout = %v, want ErrTimeout", err)
	}

	e.timeout = time.Minute // no Extract is running, so this does not race
	doc, err := e.Extract(t.Context(), small)
	if err != nil {
		t.Fatalf("Extract after a timeout: %v", err)
	}
	if got := len(doc.Pages); got != 1 {
		t.Errorf("got %d pages, want 1", got)
	}
}

// TestExtractTimeoutStuckCall gives PDFium a page whose content stream takes
// seconds to parse in a single call, so only killing the worker process can
// end it on time.
func TestExtractTimeoutStuckCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heavy.pdf")
	if err := os.WriteFile(path, heavyPDF(400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	small := corpusFile(t, "paxos-made-simple.pdf")
	e := newTestExtractor(t, Options{Workers: 1})
	// Start the worker first, so that the measured time is the file's.
	if _, err := e.Extract(t.Context(), small); err != nil {
		t.Fatalf("warm up: %v", err)
	}

	e.timeout = 100 * time.Millisecond // no Extract is running, so this does not race
	start := time.Now()
	_, err := e.Extract(t.Context(), path)
	took := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Extract = %v, want ErrTimeout", err)
	}
	// The full parse takes seconds; killing and reaping the worker takes
	// milliseconds.
	if took > 1500*time.Millisecond {
		t.Errorf("Extract returned %v after it started, want about the 100ms timeout", took)
	}
	t.Logf("timed out after %v", took)

	e.timeout = time.Minute
	doc, err := e.Extract(t.Context(), small)
	if err != nil {
		t.Fatalf("Extract after a killed worker: %v", err)
	}
	if got := len(doc.Pages); got != 14 {
		t.Errorf("got %d pages, want 14", got)
	}
}

// TestExtractWorkerKilled kills the worker from outside while it reads a
// file, as the kernel's OOM killer would, and then kills the worker that
// tries the file again: twice killed, the file is damaged.
func TestExtractWorkerKilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heavy.pdf")
	if err := os.WriteFile(path, heavyPDF(400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestExtractor(t, Options{Workers: 1})
	pids := make(chan int, 3)
	e.handed = func(pid int) { pids <- pid }

	done := make(chan error, 1)
	go func() {
		_, err := e.Extract(t.Context(), path)
		done <- err
	}()
	var victims []int
	for range 2 {
		victim := <-pids
		if slices.Contains(victims, victim) {
			t.Fatalf("the file went to the killed worker %d again", victim)
		}
		victims = append(victims, victim)
		proc, err := os.FindProcess(victim)
		if err != nil {
			t.Fatal(err)
		}
		if err := proc.Kill(); err != nil {
			t.Fatalf("kill worker %d: %v", victim, err)
		}
	}
	err := <-done
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Extract whose workers were killed twice = %v, want an error wrapping ErrDamaged that says so", err)
	}
	for _, victim := range victims {
		if !processGone(victim) {
			t.Errorf("killed worker %d was not reaped", victim)
		}
	}

	doc, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf"))
	if err != nil {
		t.Fatalf("Extract after the worker was killed: %v", err)
	}
	if got := len(doc.Pages); got != 14 {
		t.Errorf("got %d pages, want 14", got)
	}
	if next := <-pids; slices.Contains(victims, next) {
		t.Errorf("the next file went to the killed worker %d", next)
	}
}

// TestExtractWorkerKilledOnce: a good file whose worker something else
// killed (the OOM killer choosing it for another program's sake, a user)
// is read on a fresh worker, not recorded as damaged.
func TestExtractWorkerKilledOnce(t *testing.T) {
	e := newTestExtractor(t, Options{Workers: 1})
	var handed []int
	e.handed = func(pid int) {
		handed = append(handed, pid)
		if len(handed) == 1 {
			proc, err := os.FindProcess(pid)
			if err == nil {
				err = proc.Kill()
			}
			if err != nil {
				t.Errorf("kill worker %d: %v", pid, err)
			}
		}
	}
	doc, err := e.Extract(t.Context(), corpusFile(t, "paxos-made-simple.pdf"))
	if err != nil {
		t.Fatalf("Extract whose worker was killed once: %v", err)
	}
	if got := len(doc.Pages); got != 14 {
		t.Errorf("got %d pages, want 14", got)
	}
	if len(handed) != 2 || handed[0] == handed[1] {
		t.Errorf("the file was handed to workers %v, want the killed one and then a fresh one", handed)
	}
}

// TestCloseInterruptsExtract closes the extractor while both workers read
// files that take seconds, and checks that the calls are interrupted rather
// than waited for, and that no worker process is left.
func TestCloseInterruptsExtract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heavy.pdf")
	if err := os.WriteFile(path, heavyPDF(400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewExtractor(Options{Workers: 2})
	pids := make(chan int, 2)
	e.handed = func(pid int) { pids <- pid }

	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := e.Extract(t.Context(), path)
			errs <- err
		}()
	}
	running := []int{<-pids, <-pids}

	start := time.Now()
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	took := time.Since(start)
	for range 2 {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("Extract interrupted by Close = %v, want an error wrapping context.Canceled", err)
		}
	}
	// Finishing the files would take seconds.
	if took > time.Second {
		t.Errorf("Close took %v, want it to kill the workers at once", took)
	}
	for _, pid := range running {
		if !processGone(pid) {
			t.Errorf("worker %d outlived Close", pid)
		}
	}
}

// processGone reports whether no process pid exists any more, not even as
// a zombie waiting to be reaped. (On Windows, where signal 0 is not
// supported, it always reports true.)
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil
}

// heavyPDF returns a one-page PDF whose uncompressed content stream repeats
// a text-showing operation n times.
func heavyPDF(n int) []byte {
	return onePagePDF(strings.Repeat("BT /F1 12 Tf 72 720 Td (Hello world) Tj ET\n", n))
}

// onePagePDF is a PDF of one page whose content stream is content, in
// Helvetica as /F1.
func onePagePDF(content string) []byte {
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		"<< /Length " + strconv.Itoa(len(content)) + " >>\nstream\n" + content + "\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offsets []int
	for i, o := range objects {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

func TestExtractCanceled(t *testing.T) {
	path := corpusFile(t, "paxos-made-simple.pdf")
	e := newTestExtractor(t, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := e.Extract(ctx, path); !errors.Is(err, context.Canceled) {
		t.Errorf("Extract with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestExtractAfterClose(t *testing.T) {
	path := corpusFile(t, "paxos-made-simple.pdf")
	e := NewExtractor(Options{})
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := e.Extract(t.Context(), path); !errors.Is(err, context.Canceled) {
		t.Errorf("Extract after Close = %v, want an error wrapping context.Canceled", err)
	}
}

// TestWorkerReusedThenRetired checks that one worker (and its one PDFium
// instance) reads file after file, bad ones among them, without a bad file
// spoiling the next good one, and that it is replaced after
// maxFilesPerWorker files.
func TestWorkerReusedThenRetired(t *testing.T) {
	old := maxFilesPerWorker
	maxFilesPerWorker = 4
	t.Cleanup(func() { maxFilesPerWorker = old })

	garbage := filepath.Join(t.TempDir(), "garbage.pdf")
	if err := os.WriteFile(garbage, []byte("%PDF-1.4\nnot really"), 0o644); err != nil {
		t.Fatal(err)
	}
	paxos := corpusFile(t, "paxos-made-simple.pdf")
	e := newTestExtractor(t, Options{Workers: 1})
	var pids []int
	e.handed = func(pid int) { pids = append(pids, pid) }

	files := []string{paxos, garbage, paxos, garbage, paxos}
	for i, f := range files {
		doc, err := e.Extract(t.Context(), f)
		if f == garbage {
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("file %d (garbage): err = %v, want ErrDamaged", i+1, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("file %d (paxos): %v", i+1, err)
		}
		if got := len(doc.Pages); got != 14 || !strings.Contains(doc.Pages[0].Text, "Paxos") {
			t.Errorf("file %d: %d pages, page 1 %.80q; want 14 pages naming Paxos", i+1, got, doc.Pages[0].Text)
		}
	}
	if len(pids) != 5 {
		t.Fatalf("handed %d files, want 5", len(pids))
	}
	for i := 1; i < 4; i++ {
		if pids[i] != pids[0] {
			t.Errorf("file %d went to worker %d, want the first worker %d", i+1, pids[i], pids[0])
		}
	}
	if pids[4] == pids[0] {
		t.Errorf("file 5 went to worker %d, which had already read %d files", pids[4], maxFilesPerWorker)
	}
	if !processGone(pids[0]) {
		t.Errorf("retired worker %d is still running", pids[0])
	}
}

// A worker that cannot start fails every Extract with ErrUnavailable, a
// sentence naming the reader rather than the file, and not with the errors
// that blame a file (damaged, encrypted, too slow). Here the program
// re-executed as the worker is itself marked a worker: it refuses to start
// workers of its own.
func TestWorkerThatCannotStartIsUnavailable(t *testing.T) {
	path := corpusFile(t, "paxos-made-simple.pdf")
	t.Setenv(workerEnv, "1")
	e := NewExtractor(Options{Workers: 1})
	defer e.Close()
	for range 2 {
		_, err := e.Extract(t.Context(), path)
		if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrDamaged) || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrTimeout) {
			t.Fatalf("Extract with no worker able to start = %v, want ErrUnavailable only", err)
		}
		if !strings.HasPrefix(err.Error(), "the PDF reader could not start") {
			t.Errorf("error %q: want it to say the reader could not start", err)
		}
	}
}
