package intake

import (
	"context"
	"fmt"
	"github.com/agentero/agentero/internal/proctest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentero/agentero/internal/zoterotest"
)

// cpuTime is the CPU time (user and system) the process has used: under
// a shared machine's load, wall time alone says little.
func cpuTime() time.Duration {
	d, _ := proctest.CPUTime()
	return d
}

// benchVault is a new empty folder for a vault: in AGENTERO_BENCH_VAULTS
// when set (a tmpfs, to measure the import's own work apart from the
// disk's: on a loaded disk a mkdir or fsync takes milliseconds), else in
// the test's temporary folder.
func benchVault(b *testing.B) string {
	parent := os.Getenv("AGENTERO_BENCH_VAULTS")
	if parent == "" {
		return b.TempDir()
	}
	dir, err := os.MkdirTemp(parent, "vault-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// benchItems is the size of the Zotero library BenchmarkImportZotero
// builds (AGENTERO_BENCH_ITEMS overrides it).
func benchItems() int {
	if n, err := strconv.Atoi(os.Getenv("AGENTERO_BENCH_ITEMS")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// tinyPDF is a small valid one-page PDF whose text (and so its bytes and
// hash) is its own: title names it.
func tinyPDF(title string) []byte {
	content := fmt.Sprintf("BT /F1 18 Tf 72 720 Td (%s) Tj ET", title)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	out := []byte("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = len(out)
		out = append(out, fmt.Sprintf("%d 0 obj\n%s\nendobj\n", i+1, o)...)
	}
	xref := len(out)
	out = append(out, fmt.Sprintf("xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)...)
	for _, off := range offsets {
		out = append(out, fmt.Sprintf("%010d 00000 n \n", off)...)
	}
	out = append(out, fmt.Sprintf("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)...)
	return out
}

// zoteroLibrary builds a Zotero data folder of n journal articles, each
// with three authors (from a pool of names shared across items), a DOI,
// tags, a stored PDF of its own, and a place in one or two of 60 nested
// collections (10 top-level, 5 beneath each), or, when one is set, all in
// one nested collection (Topic/Sub), as a library kept in one folder is.
func zoteroLibrary(b *testing.B, n int, one bool) string {
	b.Helper()
	l := zoterotest.New(b)
	l.Exec("BEGIN")
	var colls []int64
	for i := range 10 {
		top := l.Collection(fmt.Sprintf("Topic %d", i), fmt.Sprintf("T%07d", i), 0)
		colls = append(colls, top)
		for j := range 5 {
			colls = append(colls, l.Collection(fmt.Sprintf("Sub %d.%d", i, j), fmt.Sprintf("C%03d%04d", i, j), top))
		}
	}
	tag := l.Exec(`INSERT INTO tags (name) VALUES ('to read')`)
	for i := range n {
		title := fmt.Sprintf("A study of problem %d in large libraries", i)
		authors := [][2]string{}
		for k := range 3 {
			authors = append(authors, [2]string{fmt.Sprintf("Ada%d", (i*7+k)%300), fmt.Sprintf("Lovelace%d", (i*13+k*5)%500)})
		}
		id := l.Item("journalArticle", fmt.Sprintf("I%07d", i), map[string]string{
			"title": title, "date": fmt.Sprintf("%d-03-00 March %d", 1990+i%35, 1990+i%35),
			"DOI": fmt.Sprintf("10.1234/bench.%d", i), "publicationTitle": "Journal of Benchmarks",
			"abstractNote": "An abstract of " + title + ".",
		}, authors...)
		if i%4 == 0 {
			l.Exec(`INSERT INTO itemTags VALUES (?, ?, 0)`, id, tag)
		}
		switch {
		case one:
			l.File(colls[1], id)
		default:
			l.File(colls[i%len(colls)], id)
		}
		if i%5 == 0 && !one {
			l.File(colls[(i*3+1)%len(colls)], id)
		}
		key := fmt.Sprintf("A%07d", i)
		l.Stored(id, key, "paper.pdf", "")
		os.MkdirAll(filepath.Join(l.Dir, "storage", key), 0o755)
		if err := os.WriteFile(filepath.Join(l.Dir, "storage", key, "paper.pdf"), tinyPDF(title), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	l.Exec("COMMIT")
	return l.Dir
}

// BenchmarkImportZotero imports a Zotero library of benchItems() items
// with PDFs into an empty vault, then again unchanged, and prints the
// items per second of each: items spread over 60 nested collections, and
// all in one collection.
func BenchmarkImportZotero(b *testing.B) {
	for _, layout := range []string{"nested", "one-collection"} {
		b.Run(layout, func(b *testing.B) { benchImportZotero(b, layout) })
	}
}

func benchImportZotero(b *testing.B, layout string) {
	n := benchItems()
	zdir := zoteroLibrary(b, n, layout == "one-collection")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root := benchVault(b)
		os.MkdirAll(filepath.Join(root, "papers"), 0o755)
		start, cpu0 := time.Now(), cpuTime()
		rep, err := ImportZotero(context.Background(), zdir, root, Options{ZoteroBaseDir: zdir})
		first, firstCPU := time.Since(start), cpuTime()-cpu0
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Added) != n {
			b.Fatalf("first import added %d of %d items (%d errors, %d skipped)", len(rep.Added), n, len(rep.Errors), len(rep.Skipped))
		}
		start, cpu0 = time.Now(), cpuTime()
		rep, err = ImportZotero(context.Background(), zdir, root, Options{ZoteroBaseDir: zdir})
		second, secondCPU := time.Since(start), cpuTime()-cpu0
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Unchanged) != n {
			b.Fatalf("second import left %d of %d items unchanged (%d updated, %d added)", len(rep.Unchanged), n, len(rep.Updated), len(rep.Added))
		}
		b.ReportMetric(float64(n)/first.Seconds(), "items/s-first")
		b.ReportMetric(float64(n)/second.Seconds(), "items/s-again")
		fmt.Printf("import zotero %d items (%s): first %v (%.0f items/s, CPU %v), again unchanged %v (%.0f items/s, CPU %v)\n",
			n, layout, first.Round(time.Millisecond), float64(n)/first.Seconds(), firstCPU.Round(time.Millisecond),
			second.Round(time.Millisecond), float64(n)/second.Seconds(), secondCPU.Round(time.Millisecond))
	}
}
