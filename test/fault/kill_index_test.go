//go:build linux

package fault_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/proctest"
)

// killPapers are the corpus papers the kill -9 suite indexes: small ones
// with a text layer on every page, so that ten interrupted runs stay quick
// and every paper has one right outcome (ok, with its page count).
var killPapers = []string{
	"end-to-end-arguments-in-system-design.pdf",
	"peercoin.pdf",
	"understanding-the-limitations-of-causally-and-totally-ordered-communication.pdf",
	"paxos-made-simple.pdf",
	"solution-of-a-problem-in-concurrent-programming-control.pdf",
	"the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf",
	"bitcoin.pdf",
	"primecoin.pdf",
}

// killKind is what a round of the suite kills.
type killKind int

const (
	killGroup     killKind = iota // the app and its PDF workers at once, as a crash of the session does
	killApp                       // the app alone: its workers must notice and end by themselves
	killWorkerApp                 // a PDF worker first (the app goes on), then the app and workers
)

func (k killKind) String() string {
	return [...]string{"app and workers", "app alone", "a worker, then the app"}[k]
}

// seed is the random seed of a suite: AGENTERO_FAULT_SEED replays a run
// whose seed a failure logged.
func seed(t *testing.T) uint64 {
	t.Helper()
	s := uint64(time.Now().UnixNano())
	if v := os.Getenv("AGENTERO_FAULT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("AGENTERO_FAULT_SEED: %v", err)
		}
		s = n
	}
	t.Logf("seed %d (set AGENTERO_FAULT_SEED to replay)", s)
	return s
}

// SIGKILL at ten random moments of `agentero index` (app, workers, or
// both): every reopen finds a sound index in which each paper is either
// complete, with its page count and its full-text rows, or still pending;
// what a killed run committed is never read again; and the vault's own
// files are byte for byte what they were.
func TestKillDuringIndexing(t *testing.T) {
	corpustest.NeedCorpus(t)
	want := manifestPages(t, killPapers)
	rng := rand.New(rand.NewPCG(seed(t), 13))
	h := newHome(t)

	// How long a whole run takes here: the kills fall anywhere in it.
	scratch := corpustest.Vault(t, killPapers...)
	began := time.Now()
	if _, errOut, code := h.run(t, "index", scratch, "--json"); code != 0 {
		t.Fatalf("index exit %d: %s", code, errOut)
	}
	full := time.Since(began)
	began = time.Now()
	if _, errOut, code := h.run(t, "index", scratch, "--json"); code != 0 {
		t.Fatalf("index exit %d: %s", code, errOut)
	}
	idle := time.Since(began)
	t.Logf("a run takes %v, one with nothing to read %v", full.Round(time.Millisecond), idle.Round(time.Millisecond))
	// window is how long a run that has n papers left to read lasts, about.
	window := func(n int) time.Duration { return idle + (full-idle)*time.Duration(n)/time.Duration(len(want)) }

	root := corpustest.Vault(t, killPapers...)
	before := treeHash(t, root)
	for round := range 5 {
		// Each round starts from no index: two kills, then a run to the end.
		if err := os.RemoveAll(index.Path(root)); err != nil {
			t.Fatal(err)
		}
		os.Remove(index.Path(root) + "-wal")
		os.Remove(index.Path(root) + "-shm")
		var committed []string
		for k := range 2 {
			kind := killKind((2*round + k) % 3)
			at := time.Duration(rng.Int64N(int64(window(len(want) - len(committed)))))
			what := killIndexing(t, h, root, kind, at, rng)
			got := checkIndex(t, root, want)
			t.Logf("round %d kill %d: %s after %v (%s): %d of %d papers committed", round, k, kind, at.Round(time.Millisecond),
				what, len(got), len(want))
			for _, ref := range committed {
				if !slices.Contains(got, ref) {
					t.Errorf("round %d: %s was committed before the kill and is not after it", round, ref)
				}
			}
			committed = got
		}
		out, errOut, code := h.run(t, "index", root, "--json")
		if code != 0 {
			t.Fatalf("round %d: index after the kills: exit %d: %s", round, code, errOut)
		}
		var st index.Stats
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
		if st.Extracted != len(want)-len(committed) {
			t.Errorf("round %d: the run after the kills read %d PDFs, want %d (the %d the killed runs had not committed)",
				round, st.Extracted, len(want)-len(committed), len(want)-len(committed))
		}
		if got := checkIndex(t, root, want); len(got) != len(want) {
			t.Errorf("round %d: %d of %d papers indexed after an uninterrupted run", round, len(got), len(want))
		}
		if diff := diffTrees(before, treeHash(t, root)); diff != "" {
			t.Fatalf("round %d: the vault changed outside .agentero:\n%s", round, diff)
		}
	}
}

// killIndexing starts `agentero index` on root and kills what kind says
// at after its start (or lets it finish, if it is done by then). It says
// what it killed, and checks that nothing of the run is left running.
func killIndexing(t *testing.T, h home, root string, kind killKind, at time.Duration, rng *rand.Rand) string {
	t.Helper()
	cmd := h.command("index", root, "--json")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	wait := func(d time.Duration) bool {
		select {
		case err := <-exited:
			exited <- err
			return true
		case <-time.After(d):
			return false
		}
	}
	what := ""
	if wait(at) {
		what = "it had finished"
	} else {
		switch kind {
		case killGroup:
			syscall.Kill(-pid, syscall.SIGKILL)
			what = "killed"
		case killApp:
			syscall.Kill(pid, syscall.SIGKILL)
			what = "killed"
		case killWorkerApp:
			workers := children(pid)
			if len(workers) == 0 {
				what = "no worker running; "
			} else {
				w := workers[rng.IntN(len(workers))]
				syscall.Kill(w, syscall.SIGKILL)
				what = fmt.Sprintf("worker %d killed; ", w)
			}
			if wait(time.Duration(rng.Int64N(int64(at/2 + time.Millisecond)))) {
				what += "then the run finished"
			} else {
				syscall.Kill(-pid, syscall.SIGKILL)
				what += "then the app killed"
			}
		}
	}
	if err := <-exited; err != nil && what == "it had finished" {
		t.Fatalf("index failed without being killed: %v", err)
	}
	// The workers of a killed app see their input end and stop.
	proctest.GroupGone(t, pid, 10*time.Second)
	noneRunning(t, 10*time.Second)
	return what
}

// checkIndex opens the vault's index as the app does on its next start
// and checks that it is sound: SQLite's and FTS5's own integrity checks
// pass, and each paper is either pending (listed, nothing read) or
// complete with the page count of its PDF, its pages and its full-text
// row. It returns the refs of the complete papers.
func checkIndex(t *testing.T, root string, want map[string]int) []string {
	t.Helper()
	db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatalf("reopen the index: %v", err)
	}
	defer db.Close()
	ctx := context.Background()
	q := db.SQL()
	var verdict string
	if err := q.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&verdict); err != nil || verdict != "ok" {
		t.Errorf("integrity_check: %q, %v", verdict, err)
	}
	for _, fts := range []string{"pages_fts", "sections_fts", "files_fts", "papers_fts"} {
		if _, err := q.ExecContext(ctx, `INSERT INTO `+fts+`(`+fts+`) VALUES ('integrity-check')`); err != nil {
			t.Errorf("%s is out of step with its content: %v", fts, err)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT p.id, p.ref, p.status, p.error, p.extractor_version, p.page_count, p.pdf_sha256,
		(SELECT count(*) FROM pages WHERE paper_id = p.id),
		(SELECT count(*) FROM pages_fts WHERE rowid IN (SELECT id FROM pages WHERE paper_id = p.id)),
		(SELECT count(*) FROM papers_fts WHERE rowid = p.id)
		FROM papers p ORDER BY p.ref`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var complete []string
	for rows.Next() {
		var (
			id                                      int64
			ref, status, errText, sha               string
			version, pageCount, pages, ftsPages, ft int
		)
		if err := rows.Scan(&id, &ref, &status, &errText, &version, &pageCount, &sha, &pages, &ftsPages, &ft); err != nil {
			t.Fatal(err)
		}
		n, ok := want[ref]
		switch {
		case !ok:
			t.Errorf("%s is in the index but not in the vault", ref)
		case status == index.StatusPending:
			if pages != 0 || pageCount != 0 || ft != 0 {
				t.Errorf("%s is pending with %d pages (%d counted, %d full-text rows)", ref, pages, pageCount, ft)
			}
		case status != index.StatusOK:
			t.Errorf("%s is %q (%s), want ok with %d pages", ref, status, errText, n)
		case pageCount != n || pages != n || ftsPages != n || ft != 1 || sha == "" || version != pdf.ExtractorVersion:
			t.Errorf("%s: %d pages counted, %d stored, %d in pages_fts, %d papers_fts rows, sha %q, extractor %d; want %d pages, one row, version %d",
				ref, pageCount, pages, ftsPages, ft, sha, version, n, pdf.ExtractorVersion)
		default:
			complete = append(complete, ref)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return complete
}

// manifestPages reads the page counts of files from the corpus manifest
// (pdfinfo's, written by whoever assembled the corpus), by paper ref.
func manifestPages(t *testing.T, files []string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range corpustest.Manifest(t) {
		if slices.Contains(files, r["file"]) {
			n, err := strconv.Atoi(r["pages"])
			if err != nil {
				t.Fatal(err)
			}
			out[corpustest.Ref(r["file"])] = n
		}
	}
	if len(out) != len(files) {
		t.Fatalf("manifest has %d of the %d papers", len(out), len(files))
	}
	return out
}

// diffTrees lists what differs between two treeHash results.
func diffTrees(before, after map[string]string) string {
	var out string
	for p, h := range before {
		if a, ok := after[p]; !ok {
			out += "removed " + p + "\n"
		} else if a != h {
			out += "changed " + p + "\n"
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			out += "added " + p + "\n"
		}
	}
	return out
}
