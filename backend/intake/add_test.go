package intake

import (
	"context"
	"encoding/json"
	"github.com/agentero/agentero/backend/metadata"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/internal/corpustest"
)

func TestMain(m *testing.M) {
	pdf.ServeWorkerIfRequested()
	os.Exit(m.Run())
}

// copyCorpus copies corpus PDFs into a new folder and returns their paths.
func copyCorpus(t *testing.T, dir string, files ...string) []string {
	t.Helper()
	corpus := corpustest.NeedCorpus(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		to := filepath.Join(dir, f)
		corpustest.CopyFile(t, filepath.Join(corpus, f), to)
		out = append(out, to)
	}
	return out
}

func readMeta(t *testing.T, root, ref string) metadata.File {
	t.Helper()
	m, err := metadata.ReadPath(context.Background(), root, ref+"/metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func refs(items []Item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.Ref)
	}
	return out
}

func TestAddCorpusPDFs(t *testing.T) {
	ctx := context.Background()
	src := copyCorpus(t, filepath.Join(t.TempDir(), "downloads"), "paxos-made-simple.pdf", "1706.03762.pdf")
	root := t.TempDir()
	ex := pdf.NewExtractor(pdf.Options{CacheDir: filepath.Join(t.TempDir(), "wazero"), PDFium: os.Getenv("AGENTERO_PDFIUM")})
	defer ex.Close()
	notPDF := filepath.Join(t.TempDir(), "notes.pdf")
	os.WriteFile(notPDF, []byte("just some text"), 0o644)
	var progress []Progress
	rep, err := Add(ctx, root, append(src, notPDF), Options{Describe: PDFDescriber(ex), Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != 2 {
		t.Fatalf("added %v, skipped %v, errors %v; want the two corpus papers", rep.Added, rep.Skipped, rep.Errors)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Why, "is not a PDF") {
		t.Errorf("skipped = %+v, want notes.pdf refused as not a PDF", rep.Skipped)
	}
	if len(progress) != 4 || progress[3].Done != 3 || progress[3].Total != 3 {
		t.Errorf("progress = %+v, want one per file and a last 3/3", progress)
	}
	attention := rep.Added[1]
	if !strings.HasPrefix(attention.Ref, "papers/") || !strings.Contains(attention.Ref, "2017") || !strings.Contains(attention.Ref, "attention") {
		t.Errorf("ref of 1706.03762 = %q, want papers/<author>-2017-attention…", attention.Ref)
	}
	m := readMeta(t, root, attention.Ref)
	if !strings.Contains(strings.ToLower(m.Title), "attention is all you need") || m.ArxivID != "1706.03762" {
		t.Errorf("metadata = %+v, want the title and arXiv id the PDF carries", m)
	}
	got, _ := os.ReadFile(filepath.Join(root, attention.Ref, "paper.pdf"))
	want, _ := os.ReadFile(src[1])
	if string(got) != string(want) {
		t.Error("paper.pdf is not a copy of the file added")
	}
	paxos := readMeta(t, root, rep.Added[0].Ref)
	if !strings.EqualFold(paxos.Title, "Paxos Made Simple") {
		t.Errorf("paxos title = %q", paxos.Title)
	}

	// The same files again (one renamed, from a folder): nothing is added.
	renamed := filepath.Join(t.TempDir(), "again", "renamed.pdf")
	os.MkdirAll(filepath.Dir(renamed), 0o755)
	corpustest.CopyFile(t, src[0], renamed)
	again, err := Add(ctx, root, []string{filepath.Dir(renamed), src[1]}, Options{Describe: PDFDescriber(ex)})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Added) != 0 || len(again.Skipped) != 2 {
		t.Fatalf("second add: added %v, skipped %+v; want both skipped", again.Added, again.Skipped)
	}
	if want := "it is already in the vault as " + rep.Added[0].Ref + "."; again.Skipped[0].Why != want {
		t.Errorf("why = %q, want %q", again.Skipped[0].Why, want)
	}
}

func TestAddRefuses(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.pdf")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	cases := map[string]string{
		fifo:                              "not a regular file",
		filepath.Join(dir, "missing.pdf"): "does not exist",
		dir:                               "there are no PDFs in",
		"/proc/self/environ":              "system file",
		"/dev/zero":                       "system file",
	}
	for path, want := range cases {
		rep, err := Add(ctx, root, []string{path}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Why, want) {
			t.Errorf("Add(%s): skipped %+v, want %q", path, rep.Skipped, want)
		}
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 0 {
		t.Errorf("the vault got %v; nothing should be written", entries)
	}
}

func TestAddCollisionAndLink(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	a := copyCorpus(t, filepath.Join(t.TempDir(), "a"), "paxos-made-simple.pdf")[0]
	// A different PDF with the same name, so the same slug from the file name.
	b := filepath.Join(t.TempDir(), "paxos-made-simple.pdf")
	corpustest.CopyFile(t, filepath.Join(corpustest.Dir(), "bitcoin.pdf"), b)
	rep, err := Add(ctx, root, []string{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := refs(rep.Added); len(got) != 2 || got[0] != "papers/paxos-simple" || got[1] != "papers/paxos-simple-2" {
		t.Errorf("added %v, want papers/paxos-simple and …-2", got)
	}
	// papers/ is a link out of the vault: nothing is written through it.
	root2 := t.TempDir()
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root2, "papers"))
	rep, err = Add(ctx, root2, []string{a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Why, "link") {
		t.Errorf("errors = %+v, want the link refused", rep.Errors)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the vault: %v", entries)
	}
	var rec map[string]json.RawMessage
	data, _ := os.ReadFile(filepath.Join(root, "papers/paxos-simple/metadata.json"))
	json.Unmarshal(data, &rec)
	if _, ok := rec["imported"]; !ok {
		t.Errorf("metadata.json = %s, want the imported record", data)
	}
}
