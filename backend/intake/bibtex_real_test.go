package intake

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// File fields as real tools write them, resolved against files on disk.
func TestBibFileRealTools(t *testing.T) {
	home := t.TempDir()
	bibDir := filepath.Join(home, "thesis")
	pdfs := filepath.Join(home, "pdfs")
	mendeley := filepath.Join(home, "Documents", "Mendeley Desktop")
	for _, p := range []string{
		filepath.Join(pdfs, "b.pdf"),
		filepath.Join(bibDir, "papers", "to.pdf"),
		filepath.Join(pdfs, "Title: A Subtitle.pdf"),
		filepath.Join(mendeley, "Smith - 2010 - A_B & C.pdf"),
		filepath.Join(mendeley, "Gödel - 1931 - Über.pdf"),
		filepath.Join(home, "jabref-files", "rel.pdf"),
	} {
		fakePDF(t, p)
	}
	// Mendeley drops the leading slash of absolute paths.
	noSlash := strings.TrimPrefix(mendeley, "/")
	cases := []struct{ name, field, file, why string }{
		{"Better BibTeX, the first PDF missing", "{" + pdfs + "/a.pdf;" + pdfs + "/b.pdf}", filepath.Join(pdfs, "b.pdf"), ""},
		{"Better BibTeX, none there", pdfs + "/a.pdf;" + pdfs + "/c.pdf", filepath.Join(pdfs, "a.pdf"), ""},
		{"Zotero, colon escaped", `Full Text PDF:` + pdfs + `/Title\: A Subtitle.pdf:application/pdf`, filepath.Join(pdfs, "Title: A Subtitle.pdf"), ""},
		{"Better BibTeX, colon not escaped", pdfs + "/Title: A Subtitle.pdf", filepath.Join(pdfs, "Title: A Subtitle.pdf"), ""},
		{"JabRef, relative", ":papers/to.pdf:PDF", filepath.Join(bibDir, "papers", "to.pdf"), ""},
		{"JabRef, described", "Preprint:papers/to.pdf:PDF", filepath.Join(bibDir, "papers", "to.pdf"), ""},
		{"JabRef, Windows", `:C\:\\Users\\me\\a.pdf:PDF`, "", `C:\Users\me\a.pdf, a Windows path`},
		{"Zotero on Windows", `Full Text PDF:C\:\\Users\\me\\Zotero\\storage\\AB\\x.pdf:application/pdf`, "", "a Windows path"},
		{"Mendeley, Windows", `:C$\backslash$:/Users/me/x.pdf:pdf`, "", "C:/Users/me/x.pdf, a Windows path"},
		{"Mendeley, Linux", ":" + noSlash + "/Smith - 2010 - A{\\_}B {\\&} C.pdf:pdf", filepath.Join(mendeley, "Smith - 2010 - A_B & C.pdf"), ""},
		{"Mendeley, accents", ":" + noSlash + `/G{\"{o}}del - 1931 - {\"{U}}ber.pdf:pdf`, filepath.Join(mendeley, "Gödel - 1931 - Über.pdf"), ""},
		{"JabRef fileDirectory", ":rel.pdf:PDF", filepath.Join(home, "jabref-files", "rel.pdf"), ""},
		{"a web address", "https://arxiv.org/pdf/1706.03762v7.pdf", "", "https://arxiv.org/pdf/1706.03762v7.pdf, a web address"},
		{"JabRef, a web address", ":https\\://arxiv.org/pdf/1706.03762v7.pdf:PDF", "", "a web address"},
		{"a web address, then a file", "https://x.org/a.pdf;" + pdfs + "/b.pdf", filepath.Join(pdfs, "b.pdf"), ""},
	}
	for _, c := range cases {
		field := strings.Trim(c.field, "{}")
		file, why := bibFile(field, bibDir, filepath.Join(home, "jabref-files"))
		if file != c.file || !strings.Contains(why, c.why) || c.why == "" && why != "" {
			t.Errorf("%s: bibFile(%q) = %q, %q; want %q, %q", c.name, field, file, why, c.file, c.why)
		}
	}
}

// TestImportBibTeXRealFile: a .bib as JabRef saves it on Windows (a
// byte-order mark, CRLF, its settings in @comment with a file folder), with
// @preamble, one entry whose braces never close in the middle and one cut
// off at the end: the broken entries are reported by line, every other is
// imported. An entry removed from the file is reported on the next import.
func TestImportBibTeXRealFile(t *testing.T) {
	home := t.TempDir()
	fakePDF(t, filepath.Join(home, "library", "lamport.pdf"))
	fakePDF(t, filepath.Join(home, "library", "lynch.pdf"))
	fakePDF(t, filepath.Join(home, "library", "fischer.pdf"))
	lines := []string{
		"\ufeff% Encoding: UTF-8",
		"@Preamble{ \"\\newcommand{\\noopsort}[1]{}\" }",
		"",
		"@Article{lamport1978,",
		"  author  = {Lamport, Leslie},",
		"  title   = {Time, Clocks, and the Ordering of Events in a Distributed System},",
		"  year    = {1978},",
		"  file    = {:lamport.pdf:PDF},",
		"}",
		"",
		"@Article{broken2000,",
		"  author = {Nobody},",
		"  title  = {An {Unbalanced Title},", // line 13: never closed
		"  year   = {2000},",
		"}",
		"",
		"@Book{lynch1996,",
		"  author = {Lynch, Nancy A.},",
		"  title  = {Distributed Algorithms},",
		"  year   = {1996},",
		"  file   = {:lynch.pdf:PDF},",
		"}",
		"",
		"@Article{fischer1985,",
		"  author = {Fischer, Michael J. and Lynch, Nancy A. and Paterson, Michael S.},",
		"  title  = {Impossibility of Distributed Consensus with One Faulty Process},",
		"  year   = {1985},",
		"  file   = {:fischer.pdf:PDF},",
		"}",
		"",
		"@Comment{jabref-meta: databaseType:bibtex;}",
		"",
		"@Comment{jabref-meta: fileDirectory:library;}",
		"",
		"@Article{cut2021,",
		"  title = {Cut Off Here",
	}
	bib := filepath.Join(home, "refs.bib")
	write := func(lines []string) {
		if err := os.WriteFile(bib, []byte(strings.Join(lines, "\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(lines)
	root := t.TempDir()
	rep, err := ImportBibTeX(context.Background(), bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lamport1978", "lynch1996", "fischer1985"}, keys(rep.Added)); diff != "" {
		t.Fatalf("added (-want +got):\n%s\n%+v", diff, rep)
	}
	var whys []string
	for _, it := range rep.Errors {
		whys = append(whys, it.Why)
	}
	if len(whys) != 2 || !strings.Contains(whys[0], "line 11: @article{broken2000 is not closed before the entry on line 17: a brace in it is not balanced") ||
		!strings.Contains(whys[1], "line 35: @article{cut2021: field title: unterminated braces") {
		t.Errorf("errors %q, want both broken entries by line", whys)
	}
	if m := readMeta(t, root, rep.Added[0].Ref); m.Title != "Time, Clocks, and the Ordering of Events in a Distributed System" || m.Year != 1978 {
		t.Errorf("lamport: %+v (CRLF in the values?)", m)
	}

	// lynch1996 is removed from the file; the broken entries are fixed.
	fixed := append([]string{}, lines[:16]...)
	fixed[12] = "  title  = {A Balanced Title},"
	fixed = append(fixed, lines[23:34]...)
	fixed = append(fixed, "@Article{cut2021, title = {Cut Off Here}}")
	write(fixed)
	rep, err = ImportBibTeX(context.Background(), bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Gone) != 1 || rep.Gone[0].Key != "lynch1996" || !strings.Contains(rep.Gone[0].Why, "no longer in refs.bib") || len(rep.Unchanged) != 2 || len(rep.WithoutPDF) != 2 {
		t.Errorf("second import: %+v, want lynch1996 reported gone", rep)
	}
	if _, err := os.Stat(filepath.Join(root, "papers", "lynch-1996-distributed-algorithms", "paper.pdf")); err != nil {
		t.Errorf("the gone paper was touched: %v", err)
	}
	// Another .bib in the same vault does not call this one's papers gone.
	other := filepath.Join(home, "other.bib")
	os.WriteFile(other, []byte("@misc{x, title={X}}"), 0o644)
	if rep, err := ImportBibTeX(context.Background(), other, root, Options{}); err != nil || len(rep.Gone) != 0 {
		t.Errorf("another bibliography: %+v %v", rep, err)
	}
}

// bigBib is about size bytes of BibTeX: entries with abstracts, an
// unterminated entry near the end.
func bigBib(size int) (string, int) {
	var b strings.Builder
	n := 0
	abstract := strings.Repeat("We study {consensus} in the presence of faults, with \\emph{care}. ", 5)
	for b.Len() < size {
		fmt.Fprintf(&b, "@inproceedings{key%d,\n  author = {Lamport, Leslie and G{\\\"o}del, Kurt},\n  title = {Paper number %d},\n  booktitle = pub,\n  year = %d,\n  abstract = {%s},\n  file = {:pdfs/p%d.pdf:PDF}\n}\n\n", n, n, 1950+n%70, abstract, n)
		n++
	}
	b.WriteString("@article{last,\n  title = {never closed\n")
	return b.String(), n
}

// TestParseBibLarge: a 10 MB bibliography parses completely, and the
// problem at its end is reported at the right line.
func TestParseBibLarge(t *testing.T) {
	src, n := bigBib(10 << 20)
	entries, problems := parseBib(src)
	if len(entries) != n {
		t.Errorf("%d entries, want %d", len(entries), n)
	}
	wantLine := strings.Count(src, "\n") - 1
	if len(problems) != 1 || !strings.HasPrefix(problems[0], fmt.Sprintf("line %d:", wantLine)) {
		t.Errorf("problems %q, want one at line %d", problems, wantLine)
	}
	if entries[n-1].Line != wantLine-9 {
		t.Errorf("the last entry at line %d, want %d", entries[n-1].Line, wantLine-9)
	}
}

// BenchmarkParseBib10MB: parsing takes time linear in the file's size (a
// line number counted from the start for each entry made it quadratic).
func BenchmarkParseBib10MB(b *testing.B) {
	src, _ := bigBib(10 << 20)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		parseBib(src)
	}
}

func TestImportCSLReal(t *testing.T) {
	home := t.TempDir()
	fakePDF(t, filepath.Join(home, "a.pdf"))
	src := "\ufeff" + `[
  {"id": 12345678901, "type": "article-journal", "title": "A <i>Numbered</i> Item",
   "author": [{"family": "Lamport", "given": "Leslie"}, {"literal": "The Raft Team"}],
   "issued": {"date-parts": [["2019", 5]]}, "file": "a.pdf"},
  {"id": "raw2020", "title": "Raw Date", "issued": {"raw": "Spring 2020"}},
  {"id": "str2021", "title": "String Date", "issued": "2021-03-04"},
  {"id": "old2018", "title": "Old Citeproc Date", "issued": [{"year": "2018"}]},
  {"id": "bad", "title": ["not", "a", "string"]},
  {"id": "http://zotero.org/users/1/items/ABCD1234", "citation-key": "nodate2000", "title": "No Date"}
]`
	p := filepath.Join(home, "library.json")
	os.WriteFile(p, []byte(src), 0o644)
	root := t.TempDir()
	rep, err := ImportCSL(context.Background(), p, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != 1 || rep.Added[0].Key != "12345678901" {
		t.Fatalf("added %+v, want the numbered item under its id as written", rep.Added)
	}
	m := readMeta(t, root, rep.Added[0].Ref)
	if m.Title != "A Numbered Item" || m.Year != 2019 || !cmp.Equal(m.Authors, []string{"Leslie Lamport", "The Raft Team"}) {
		t.Errorf("metadata %+v", m)
	}
	years := map[string]int{}
	for _, it := range rep.WithoutPDF {
		years[it.Key] = 0
	}
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Why, "item 5 could not be read") {
		t.Errorf("errors %+v, want item 5 reported and the others read", rep.Errors)
	}
	for _, c := range []struct {
		raw  string
		want int
	}{{`{"raw": "Spring 2020"}`, 2020}, {`"2021-03-04"`, 2021}, {`[{"year": "2018"}]`, 2018}, {`{"date-parts": [[2019, 5]]}`, 2019}, {`{"literal": "c. 1850"}`, 1850}, {`null`, 0}} {
		if got := cslYear([]byte(c.raw)); got != c.want {
			t.Errorf("cslYear(%s) = %d, want %d", c.raw, got, c.want)
		}
	}
	if _, ok := years["nodate2000"]; !ok {
		t.Errorf("without PDF %+v, want the item known by its citation-key", rep.WithoutPDF)
	}
	if len(years) != 4 {
		t.Errorf("without PDF %+v, want the four other readable items", rep.WithoutPDF)
	}

	// A single object, not in a list.
	one := filepath.Join(home, "one.json")
	os.WriteFile(one, []byte(`{"id": "solo", "title": "Solo", "issued": {"date-parts": [[2001]]}}`), 0o644)
	if rep, err := ImportCSL(context.Background(), one, t.TempDir(), Options{}); err != nil || len(rep.WithoutPDF) != 1 || rep.WithoutPDF[0].Key != "solo" {
		t.Errorf("a single object: %+v %v", rep, err)
	}
}

// TestImportBibTeXDuplicateKeys: a key used twice imports the first entry
// and reports the second (else the two would rewrite one paper on every
// import); an entry without a key is reported, not dropped silently.
func TestImportBibTeXDuplicateKeys(t *testing.T) {
	home := t.TempDir()
	fakePDF(t, filepath.Join(home, "a.pdf"))
	fakePDF(t, filepath.Join(home, "b.pdf"))
	bib := filepath.Join(home, "refs.bib")
	os.WriteFile(bib, []byte("@article{same, title={First}, file={a.pdf}}\n@article{same, title={Second}, file={b.pdf}}\n@article{, title={Keyless}, file={b.pdf}}\n"), 0o644)
	root := t.TempDir()
	for i := 0; i < 2; i++ {
		rep, err := ImportBibTeX(context.Background(), bib, root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Added)+len(rep.Unchanged) != 1 || len(rep.Updated) != 0 || len(rep.Errors) != 2 ||
			!strings.Contains(rep.Errors[0].Why, "line 2 has the citation key of the one on line 1") || !strings.Contains(rep.Errors[1].Why, "line 3 has no citation key") {
			t.Errorf("import %d: %+v", i+1, rep)
		}
	}
	if got := readMeta(t, root, "papers/first").Title; got != "First" {
		t.Errorf("title %q", got)
	}
}

// TestImportBibTeXKeyNamedPDFs: a .bib next to a folder of PDFs named by
// citation key (no file fields) finds them.
func TestImportBibTeXKeyNamedPDFs(t *testing.T) {
	home := t.TempDir()
	fakePDF(t, filepath.Join(home, "Lamport:1978.pdf"))
	fakePDF(t, filepath.Join(home, "pdfs", "lynch1996.pdf"))
	bib := filepath.Join(home, "refs.bib")
	os.WriteFile(bib, []byte("@article{Lamport:1978, title={Time, Clocks}}\n@book{lynch1996, title={Distributed Algorithms}}\n@misc{none2000, title={None}}\n@misc{../../etc/passwd, title={Hostile}}\n"), 0o644)
	rep, err := ImportBibTeX(context.Background(), bib, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(keys(rep.Added), []string{"Lamport:1978", "lynch1996"}) || len(rep.WithoutPDF) != 2 ||
		!strings.Contains(rep.WithoutPDF[0].Why, "there is no none2000.pdf beside the .bib file") {
		t.Errorf("report %+v", rep)
	}
}

// TestImportBibTeXRekeyed: the citation keys change (Better BibTeX's key
// format changed): each paper is found again by its PDF and takes its new
// key, nothing is duplicated, nothing reported gone.
func TestImportBibTeXRekeyed(t *testing.T) {
	home := t.TempDir()
	fakePDF(t, filepath.Join(home, "a.pdf"))
	fakePDF(t, filepath.Join(home, "b.pdf"))
	bib := filepath.Join(home, "refs.bib")
	os.WriteFile(bib, []byte("@article{lamport78, title={Time, Clocks}, file={a.pdf}}\n@book{lynch96, title={Distributed Algorithms}, file={b.pdf}}\n"), 0o644)
	root := t.TempDir()
	if rep, err := ImportBibTeX(context.Background(), bib, root, Options{}); err != nil || len(rep.Added) != 2 {
		t.Fatalf("%+v %v", rep, err)
	}
	os.WriteFile(bib, []byte("@article{lamport1978time, title={Time, Clocks}, file={a.pdf}}\n@book{lynch1996distributed, title={Distributed Algorithms}, file={b.pdf}}\n"), 0o644)
	rep, err := ImportBibTeX(context.Background(), bib, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added)+len(rep.Skipped)+len(rep.Gone) != 0 || len(rep.Updated) != 2 {
		t.Fatalf("re-keyed: %+v, want both papers updated", rep)
	}
	rep, _ = ImportBibTeX(context.Background(), bib, root, Options{})
	if len(rep.Unchanged) != 2 {
		t.Errorf("the import after: %+v", rep)
	}
}
