package intake

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/internal/corpustest"
)

func TestParseBib(t *testing.T) {
	src := `Text before entries is a comment. @ stray
@string{acm = "ACM"}
@String(pub = {Communications of the } # acm)
@comment{ @article{commented, title={no}} }
@preamble{ "\newcommand{\noop}[1]{}" }
@Article{lamport78,
  author  = {Leslie Lamport},
  title   = {Time, Clocks, and the {Ordering} of Events in a Distributed System},
  journal = pub,
  year    = 1978,
  month   = jul,
  note    = "a {"quoted"} note",
}
@inproceedings(child, crossref = {proc}, title = "Chapter")
@proceedings{proc, title = {Proceedings of {SOSP}}, year = {2003}, publisher = {ACM}}
`
	entries, problems := parseBib(src)
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	resolveCrossrefs(entries)
	got := map[string]map[string]string{}
	for _, e := range entries {
		got[e.Key] = e.Fields
	}
	want := map[string]map[string]string{
		"lamport78": {"author": "Leslie Lamport", "title": "Time, Clocks, and the {Ordering} of Events in a Distributed System",
			"journal": "Communications of the ACM", "year": "1978", "month": "7", "note": `a {"quoted"} note`},
		"child": {"crossref": "proc", "title": "Chapter", "booktitle": "Proceedings of {SOSP}", "year": "2003", "publisher": "ACM"},
		"proc":  {"title": "Proceedings of {SOSP}", "year": "2003", "publisher": "ACM"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestParseBibHostile(t *testing.T) {
	cases := map[string]struct {
		src     string
		entries int
		problem string
	}{
		"unterminated braces":  {"@article{a, title={never {closed}\n@article{b, title={B}}", 1, "line 1: @article{a: field title: the braces opened on line 1 are not closed before the entry on line 2"},
		"truncated file":       {"@article{a, title={A}}\n@article{b,\n  title={Trunc", 1, "line 2: @article{b: field title: unterminated braces"},
		"unterminated quotes":  {`@article{a, title="never closed}`, 0, "unterminated quotes"},
		"unclosed entry":       {"@article{a, title={A}", 0, "is not closed"},
		"missing equals":       {"@article{a, title {A}}\n@article{b, title={B}}", 1, "has no '='"},
		"deep braces":          {"@article{a, title={" + strings.Repeat("{", 100000) + strings.Repeat("}", 100000) + "}}", 1, ""},
		"no entries":           {strings.Repeat("x", 1<<20), 0, ""},
		"stray at signs":       {"@@@ @{ @article", 0, ""},
		"escaped brace":        {`@article{a, title={a \} b}}`, 1, ""},
		"thousands of entries": {strings.Repeat("@misc{k, title={T}}\n", 20000), 20000, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			entries, problems := parseBib(c.src)
			if len(entries) != c.entries {
				t.Errorf("%d entries, want %d", len(entries), c.entries)
			}
			joined := strings.Join(problems, "; ")
			if c.problem == "" && joined != "" || c.problem != "" && !strings.Contains(joined, c.problem) {
				t.Errorf("problems %q, want %q", joined, c.problem)
			}
		})
	}
}

func TestDelatex(t *testing.T) {
	cases := map[string]string{
		`G{\"o}del`:                     "Gödel",
		`G\"{o}del`:                     "Gödel",
		`Erd\H{o}s`:                     "Erdős",
		`{\'E}cole Polytechnique`:       "École Polytechnique",
		`Stra\ss{}e`:                    "Straße",
		`\AA{}ngstr\"om`:                "Ångström",
		`Sch{\"u}tze and Ma\~{n}ana`:    "Schütze and Mañana",
		`\c{C}a\u{g}lar`:                "Çağlar",
		`Na\"{\i}ve`:                    "Naïve",
		`\emph{Deep} \textbf{Learning}`: "Deep Learning",
		`{{BERT}}: Pre-training`:        "BERT: Pre-training",
		`pages 1--10 --- done`:          "pages 1–10 — done",
		`50\% of $O(n)$ \& more`:        "50% of O(n) & more",
		`Fran\c{c}ois~Chollet`:          "François Chollet",
		`\L{}ukasz Kaiser`:              "Łukasz Kaiser",
	}
	for in, want := range cases {
		if got := delatex(in); got != want {
			t.Errorf("delatex(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBibNames(t *testing.T) {
	cases := map[string][]string{
		"Lamport, Leslie and Shostak, Robert and Pease, Marshall": {"Leslie Lamport", "Robert Shostak", "Marshall Pease"},
		"Leslie Lamport AND Robert Shostak":                       {"Leslie Lamport", "Robert Shostak"},
		"{World Health Organization} and others":                  {"World Health Organization"},
		"{Barnes and Noble} and Jane Doe":                         {"Barnes and Noble", "Jane Doe"},
		`G{\"o}del, Kurt`:                                         {"Kurt Gödel"},
		"von Neumann, John":                                       {"John von Neumann"},
		"King, Jr., Martin Luther":                                {"Martin Luther King, Jr."},
		"Alexander Anderson":                                      {"Alexander Anderson"},
	}
	for in, want := range cases {
		if got := bibNames(in); !cmp.Equal(got, want) {
			t.Errorf("bibNames(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBibFile(t *testing.T) {
	dir := "/home/u/refs"
	cases := []struct{ field, file, why string }{
		{"", "", ""},
		{":papers/paxos.pdf:PDF", "/home/u/refs/papers/paxos.pdf", ""},                                           // JabRef
		{"Full Text PDF:/home/u/Zotero/storage/AB/x.pdf:application/pdf", "/home/u/Zotero/storage/AB/x.pdf", ""}, // Better BibTeX
		{"Snapshot:snap.html:text/html;Full Text:full.pdf:application/pdf", "/home/u/refs/full.pdf", ""},         // several files
		{"/abs/plain.pdf", "/abs/plain.pdf", ""},
		{`:my\:odd\;name.pdf:PDF`, "/home/u/refs/my:odd;name.pdf", ""},
		{"../../etc/passwd", "", "names no PDF"},
		{":../../../../etc/shadow.pdf:PDF", "/etc/shadow.pdf", ""}, // named: then openPDF decides (a real PDF only)
		{"Snapshot:snap.html:text/html", "", "names no PDF"},
	}
	for _, c := range cases {
		file, why := bibFile(c.field, dir)
		if file != c.file || !strings.Contains(why, c.why) {
			t.Errorf("bibFile(%q) = %q, %q; want %q, %q", c.field, file, why, c.file, c.why)
		}
	}
}

func TestImportBibTeX(t *testing.T) {
	ctx := context.Background()
	corpus := corpustest.NeedCorpus(t)
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "pdfs"), 0o755)
	copyTestFile(t, filepath.Join(corpus, "paxos-made-simple.pdf"), filepath.Join(home, "pdfs", "paxos.pdf"))
	copyTestFile(t, filepath.Join(corpus, "bitcoin.pdf"), filepath.Join(home, "pdfs", "bitcoin.pdf"))
	os.WriteFile(filepath.Join(home, "pdfs", "fake.pdf"), []byte("not a pdf at all"), 0o644)
	bib := filepath.Join(home, "refs.bib")
	write := func(title string) {
		os.WriteFile(bib, []byte(`
@article{lamport2001paxos,
  author = {Lamport, Leslie},
  title = {`+title+`},
  journal = {ACM SIGACT News},
  date = {2001-12},
  doi = {10.1145/568425.568433},
  keywords = {consensus, classic},
  file = {:pdfs/paxos.pdf:PDF}
}
@misc{nakamoto2008,
  author = {Nakamoto, Satoshi},
  title = {Bitcoin: A Peer-to-Peer Electronic Cash System},
  year = 2008,
  file = {Full Text:pdfs/bitcoin.pdf:application/pdf}
}
@book{lynch1996, author = {Lynch, Nancy A.}, title = {Distributed Algorithms}, year = {1996}}
@misc{traversal, title = {Secrets}, file = {:../../../../../../etc/passwd:PDF}}
@misc{fake, title = {Fake}, file = {:pdfs/fake.pdf:PDF}}
@misc{proc, title = {Proc}, file = {:/proc/self/environ.pdf:PDF}}
@article{broken, title = {never closed
`), 0o644)
	}
	write(`Paxos Made {S}imple`)
	root := t.TempDir()
	rep, err := ImportBibTeX(ctx, bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lamport2001paxos", "nakamoto2008"}, keys(rep.Added)); diff != "" {
		t.Fatalf("added (-want +got):\n%s\n%+v", diff, rep)
	}
	if diff := cmp.Diff([]string{"lynch1996", "proc"}, keys(rep.WithoutPDF)); diff != "" {
		t.Errorf("without PDF (-want +got):\n%s", diff)
	}
	if len(rep.Skipped) != 2 || rep.Skipped[0].Key != "traversal" || rep.Skipped[1].Key != "fake" ||
		!strings.Contains(rep.Skipped[0].Why, "/etc/passwd is not a PDF") || !strings.Contains(rep.Skipped[1].Why, "is not a PDF") {
		t.Errorf("skipped = %+v, want /etc/passwd and fake.pdf refused", rep.Skipped)
	}
	if _, err := os.Stat(filepath.Join(root, "papers", "secrets")); err == nil {
		t.Error("/etc/passwd was copied into the vault")
	}
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Why, "unterminated") {
		t.Errorf("errors = %+v, want the broken entry", rep.Errors)
	}
	m := readMeta(t, root, rep.Added[0].Ref)
	if m.Title != "Paxos Made Simple" || m.Year != 2001 || !cmp.Equal(m.Authors, []string{"Leslie Lamport"}) ||
		m.DOI != "10.1145/568425.568433" || !cmp.Equal(m.Tags, []string{"consensus", "classic"}) {
		t.Errorf("metadata = %+v", m)
	}
	if rep.Added[0].Ref != "papers/lamport-2001-paxos-simple" {
		t.Errorf("ref = %s", rep.Added[0].Ref)
	}

	// Again: nothing changes. Then a title changes in the .bib: only it is updated.
	rep, err = ImportBibTeX(ctx, bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added)+len(rep.Updated) != 0 || len(rep.Unchanged) != 2 {
		t.Fatalf("second import: %+v", rep)
	}
	write(`Paxos Made Simple, Again`)
	rep, err = ImportBibTeX(ctx, bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Updated) != 1 || !cmp.Equal(rep.Updated[0].Changed, []string{"title"}) {
		t.Fatalf("third import updated %+v, want the title", rep.Updated)
	}

	// A CSL-JSON export of the same papers: matched by DOI, its key recorded.
	csl := filepath.Join(home, "refs.json")
	os.WriteFile(csl, []byte(`[{"id": "lamport-paxos", "type": "article-journal", "title": "Paxos Made Simple",
		"author": [{"family": "Lamport", "given": "Leslie"}], "issued": {"date-parts": [[2001, 12]]}, "DOI": "10.1145/568425.568433"},
		{"id": "attention", "title": "Attention Is All You Need", "author": [{"family": "Vaswani", "given": "Ashish"}, {"literal": "Google Brain"}],
		 "issued": {"date-parts": [["2017"]]}, "URL": "https://arxiv.org/abs/1706.03762"}]`), 0o644)
	root2 := t.TempDir()
	if _, err := ImportBibTeX(ctx, bib, root2, Options{}); err != nil {
		t.Fatal(err)
	}
	rep, err = ImportCSL(ctx, csl, root2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.WithoutPDF) != 1 || rep.WithoutPDF[0].Key != "attention" {
		t.Errorf("CSL without PDF = %+v, want attention", rep.WithoutPDF)
	}
	if len(rep.Added)+len(rep.Updated)+len(rep.Unchanged) != 0 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Why, "imported from bibtex") {
		t.Errorf("CSL report %+v: the paxos paper belongs to the BibTeX import and must not be taken over", rep)
	}
}

func TestImportBibTeXTooLarge(t *testing.T) {
	bib := filepath.Join(t.TempDir(), "huge.bib")
	f, _ := os.Create(bib)
	f.Truncate(maxBib + 1)
	f.Close()
	_, err := ImportBibTeX(context.Background(), bib, t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "larger than 16 MB") {
		t.Errorf("err = %v, want the file refused for its size", err)
	}
	if _, err := ImportBibTeX(context.Background(), "/dev/zero", t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// TestImportCSLByDOI: a CSL entry whose DOI is a paper's the user made by
// hand updates that paper (filling what it lacks, keeping what it has) and
// is found by its key afterwards.
func TestImportCSLByDOI(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "papers", "my-paxos")
	os.MkdirAll(dir, 0o755)
	copyTestFile(t, filepath.Join(corpustest.NeedCorpus(t), "paxos-made-simple.pdf"), filepath.Join(dir, "paxos.pdf"))
	os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(`{"title": "Paxos, my way", "doi": "https://doi.org/10.1145/568425.568433", "rating": 5}`), 0o644)
	csl := filepath.Join(t.TempDir(), "refs.json")
	os.WriteFile(csl, []byte(`[{"id": "lamport-paxos", "title": "Paxos Made Simple", "author": [{"family": "Lamport", "given": "Leslie"}],
		"issued": {"date-parts": [[2001]]}, "DOI": "10.1145/568425.568433", "container-title": "ACM SIGACT News"}]`), 0o644)
	rep, err := ImportCSL(ctx, csl, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Updated) != 1 || rep.Updated[0].Ref != "papers/my-paxos" {
		t.Fatalf("report %+v, want papers/my-paxos updated", rep)
	}
	m := readMeta(t, root, "papers/my-paxos")
	if m.Title != "Paxos, my way" || m.Year != 2001 || !cmp.Equal(m.Authors, []string{"Leslie Lamport"}) || string(m.Extra["rating"]) != "5" {
		t.Errorf("metadata %+v: want the user's title and rating kept, year and authors filled", m)
	}
	rep, err = ImportCSL(ctx, csl, root, Options{})
	if err != nil || len(rep.Unchanged) != 1 || len(rep.Updated)+len(rep.Added) != 0 {
		t.Errorf("second import: %+v, %v", rep, err)
	}
}
