package workspace_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/backend/watch"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// benchQueries are the searches of a burst: the ones BenchmarkSearchLatency
// (backend/index) times.
var benchQueries = []string{"consensus", "leader election", "byzantine fault tolerance", "attention",
	"transformer language model", "covariance matrix estimator", "proof of work", "quantum",
	"\"log replication\"", "regression", "the", "probabilistic counting", "lock service", "zookeeper",
	"flash attention memory", "heteroskedasticity", "sandwich", "paxos", "state machine replication", "scaling laws"}

// BenchmarkMemory10k reports the resident memory of the app's backend (a
// workspace: index, host, config) with the synthetic 10,000-paper index
// open: idle, at its peak during a burst of searches from four callers at
// once (as the library's search box, Quick Chat's completion and an agent's
// tools may), and idle again after it. The process's own figure before the
// workspace opened, the Go heap and the index's size on disk stand beside
// them. The index is the one BenchmarkSearchLatency builds (backend/index);
// it is opened, not synced, so that the shared file is left as it is.
func BenchmarkMemory10k(b *testing.B) {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("agentero-bench-10k-v%d", pdf.ExtractorVersion))
	if _, err := os.Stat(filepath.Join(root, ".agentero", "done")); err != nil {
		b.Skipf("no synthetic 10k index at %s: run go test -tags sqlite_fts5 -run '^$' -bench SearchLatency ./backend/index/ first", root)
	}
	if os.Getenv(upkeepEnv) != "" {
		upToDate(b, root)
		return
	}
	// In a process of its own, so that the memory that costs does not stay
	// in this one's figures.
	upkeep := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkMemory10k$", "-test.benchtime=1x", "-test.v")
	upkeep.Env = append(os.Environ(), upkeepEnv+"=1")
	if out, err := upkeep.CombinedOutput(); err != nil {
		b.Fatalf("bring the synthetic index up to date: %v\n%s", err, out)
	} else if i := strings.Index(string(out), "synthetic index brought"); i >= 0 {
		line, _, _ := strings.Cut(string(out[i:]), "\n")
		fmt.Println(line)
	}
	st, err := os.Stat(filepath.Join(root, ".agentero", "index.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		settle()
		base := memory(b)
		ws, err := workspace.Open(root, workspace.Options{Config: workspace.NewConfig(b.TempDir(), binary), CacheDir: b.TempDir(), PoolSize: -1})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		if _, err := ws.Search(ctx, "consensus", 10); err != nil {
			b.Fatal(err)
		}
		settle()
		idle := memory(b)
		var heap runtime.MemStats
		runtime.ReadMemStats(&heap)

		resetPeak(b)
		start := time.Now()
		var wg sync.WaitGroup
		for c := range 4 {
			wg.Go(func() {
				for r := range 20 {
					q := benchQueries[(c*7+r)%len(benchQueries)]
					if _, err := ws.Search(ctx, q, 10); err != nil {
						b.Error(err)
					}
				}
			})
		}
		wg.Wait()
		burst := memory(b)
		took := time.Since(start)
		settle()
		after := memory(b)
		ws.Close()

		b.ReportMetric(float64(idle.rss-base.rss)/(1<<20), "MB-idle")
		b.ReportMetric(float64(burst.hwm-base.rss)/(1<<20), "MB-burst-peak")
		fmt.Printf("memory, 10k papers (index %d MB on disk): process before open %d MB | backend idle +%d MB (Go heap %d MB) | burst of 80 searches from 4 callers in %v: peak +%d MB | idle after +%d MB\n",
			st.Size()>>20, base.rss>>20, (idle.rss-base.rss)>>20, heap.HeapInuse>>20, took.Round(time.Millisecond),
			(burst.hwm-base.rss)>>20, (after.rss-base.rss)>>20)
	}
}

// upkeepEnv makes BenchmarkMemory10k only bring the index up to date.
const upkeepEnv = "AGENTERO_BENCH_UPKEEP"

// upToDate brings the shared synthetic index to this version's schema and
// fills what a migration left to fill (papers_fts after migration 004: until
// then every paper is on paper_text_todo and searches take the slow path),
// as the app's first sync of it would. Its PDFs are placeholders that have
// not changed: nothing is extracted.
func upToDate(b *testing.B, root string) {
	b.Helper()
	db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	snap, err := vault.Scan(root)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	st, err := index.NewIndexer(db, noExtraction{}, index.SyncOptions{}).Sync(context.Background(), snap)
	if err != nil {
		b.Fatal(err)
	}
	if st.Extracted > 0 {
		b.Fatalf("the synthetic vault changed: %d papers read again", st.Extracted)
	}
	b.Logf("synthetic index brought up to date in %v", time.Since(start).Round(time.Millisecond))
}

// noExtraction refuses to read a PDF: the synthetic vault's are placeholders.
type noExtraction struct{}

func (noExtraction) ExtractFile(context.Context, *os.File) (*pdf.Document, error) {
	return nil, errors.New("the synthetic vault's PDFs are placeholders")
}

// BenchmarkTimeToSearchable reports how long a PDF copied into a watched
// vault takes to turn up in a search, as the desktop app runs (Start: sync,
// then watch, with the default debounce), beside what the wait is made of:
// the watcher's debounce, and reading the same file with our extractor (a
// warm worker) and with pdftotext. Five PDFs land one after another; the
// first wakes the PDF worker.
func BenchmarkTimeToSearchable(b *testing.B) {
	corpustest.NeedCorpus(b)
	const file = "paxos-made-simple.pdf"
	src := filepath.Join(corpustest.Dir(), file)
	for i := 0; i < b.N; i++ {
		root := corpustest.Vault(b, "peercoin.pdf")
		statuses := make(chan string, 16)
		ws, err := workspace.Open(root, workspace.Options{Config: workspace.NewConfig(b.TempDir(), binary), CacheDir: b.TempDir(), PoolSize: -1,
			Emit: func(name string, p any) {
				if e, ok := p.(events.WatchStatusEvent); ok && name == events.WatchStatus {
					statuses <- e.Mode
				}
			}})
		if err != nil {
			b.Fatal(err)
		}
		if err := ws.Start(); err != nil {
			b.Fatal(err)
		}
		if mode := <-statuses; mode != string(watch.ModeInotify) {
			b.Fatalf("watch mode %q, want inotify", mode)
		}
		var waits []time.Duration
		for n := range 5 {
			ref := fmt.Sprintf("papers/landed-%d", n)
			start := time.Now()
			dir := filepath.Join(root, filepath.FromSlash(ref))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			corpustest.CopyFile(b, src, filepath.Join(dir, file))
			waits = append(waits, searchable(b, ws, ref, start))
		}
		ws.Close()

		ex := pdf.NewExtractor(pdf.Options{Workers: 1, CacheDir: b.TempDir()})
		if _, err := ex.Extract(context.Background(), src); err != nil { // wakes the worker
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := ex.Extract(context.Background(), src); err != nil {
			b.Fatal(err)
		}
		extract := time.Since(start)
		ex.Close()
		poppler := "n/a"
		if _, err := exec.LookPath("pdftotext"); err == nil {
			start := time.Now()
			if err := exec.Command("pdftotext", "-enc", "UTF-8", src, os.DevNull).Run(); err == nil {
				poppler = time.Since(start).Round(time.Millisecond).String()
			}
		}
		warm := slices.Clone(waits[1:])
		slices.Sort(warm)
		median := warm[len(warm)/2]
		b.ReportMetric(float64(median.Microseconds())/1000, "ms-to-searchable")
		fmt.Printf("time to searchable (%s, 14 pages): first %v (starts the PDF worker), then median %v of %v | debounce 300ms, our extraction %v (warm worker), pdftotext %s\n",
			file, waits[0].Round(time.Millisecond), median.Round(time.Millisecond), roundAll(warm), extract.Round(time.Millisecond), poppler)
	}
}

// searchable polls the workspace's search until a hit from ref comes back,
// and returns the time since start.
func searchable(b *testing.B, ws *workspace.Workspace, ref string, start time.Time) time.Duration {
	b.Helper()
	deadline := start.Add(time.Minute)
	for time.Now().Before(deadline) {
		hits, err := ws.Search(context.Background(), "\"plain English\" paxos", 50)
		if err != nil {
			b.Fatal(err)
		}
		for _, h := range hits {
			if h.Ref == ref {
				return time.Since(start)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("%s was not searchable within a minute", ref)
	return 0
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

// usage is the process's resident memory now (rss) and at its peak since
// the last resetPeak (hwm), in bytes.
type usage struct{ rss, hwm int64 }

// memory reads VmRSS and VmHWM from /proc/self/status.
func memory(b *testing.B) usage {
	b.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skipf("resident memory is read from /proc: %v", err)
	}
	defer f.Close()
	var u usage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			u.rss = kb << 10
		case "VmHWM":
			u.hwm = kb << 10
		}
	}
	return u
}

// resetPeak starts VmHWM again from the current resident size.
func resetPeak(b *testing.B) {
	b.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("cannot reset the peak (VmHWM): %v; the burst's peak is the process's", err)
	}
}

// settle collects garbage and hands free memory back to the system, so
// that resident memory is what is in use.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}
