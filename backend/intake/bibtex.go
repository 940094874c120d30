package intake

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/vault"
)

// ImportBibTeX imports the BibTeX/BibLaTeX file at bibPath into the vault
// at root. An entry's PDF is its file field (Better BibTeX's and JabRef's
// "description:path:type" lists, the first PDF), relative to the .bib
// file's folder unless absolute, and subject to the rule in the package
// doc. Importing again finds papers by citation key, then by DOI.
// Entries that cannot be parsed are reported in Errors by their line.
func ImportBibTeX(ctx context.Context, bibPath, root string, opts Options) (*Report, error) {
	opts.defaults()
	src, err := readSource(bibPath, maxBib)
	if err != nil {
		return nil, err
	}
	entries, problems, comments := parseBibComments(src)
	resolveCrossrefs(entries)
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	for _, msg := range problems {
		rep.Errors = append(rep.Errors, Item{File: bibPath, Why: "an entry could not be read (" + msg + ")."})
	}
	source := absSource(bibPath)
	dirs := append([]string{filepath.Dir(source)}, jabrefDirs(comments, filepath.Dir(source))...)
	var list []entry
	present := map[string]bool{}
	seen := map[string]int{}
	for _, e := range entries {
		if e.Type == "set" || e.Type == "xdata" {
			continue
		}
		if e.Key == "" {
			rep.Errors = append(rep.Errors, Item{File: bibPath, Title: delatex(e.Fields["title"]),
				Why: fmt.Sprintf("the entry on line %d has no citation key, so it cannot be found again; it is not imported.", e.Line)})
			continue
		}
		if line, dup := seen[e.Key]; dup {
			rep.Errors = append(rep.Errors, Item{File: bibPath, Key: e.Key, Title: delatex(e.Fields["title"]),
				Why: fmt.Sprintf("the entry on line %d has the citation key of the one on line %d; only the first is imported.", e.Line, line)})
			continue
		}
		seen[e.Key] = e.Line
		en := bibToEntry(e, dirs)
		en.Source = source
		present[en.Key] = true
		list = append(list, en)
	}
	if len(problems) == 0 { // an entry that could not be read is not gone, nor re-keyed
		p.present = present
	}
	if err := run(ctx, p, list, opts, rep); err != nil {
		return rep, err
	}
	if len(problems) == 0 {
		p.gone("bibtex", source, present, rep)
	}
	return rep, nil
}

// absSource is a bibliography file's absolute path, links resolved, as
// imports record it.
func absSource(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}

// jabrefDirs are the folders JabRef resolves relative file paths in, kept
// in the .bib file's @comment{jabref-meta: fileDirectory…:path;} entries
// (the library's, then the user's), relative to dir unless absolute.
func jabrefDirs(comments []string, dir string) []string {
	var out []string
	for _, c := range comments {
		c = strings.TrimSpace(c)
		rest, ok := strings.CutPrefix(c, "jabref-meta:")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "fileDirectory") {
			continue
		}
		_, val, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), ";"))
		val = unescapeFile(val)
		if val == "" {
			continue
		}
		if !filepath.IsAbs(val) {
			val = filepath.Join(dir, val)
		}
		out = append(out, filepath.Clean(val))
	}
	return out
}

// readSource reads a bibliography file the user chose, a regular file of
// at most limit bytes.
func readSource(path string, limit int64) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", refuse("%s cannot be read: %v.", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", refuse("%s is not a regular file.", path)
	}
	if st.Size() > limit {
		return "", refuse("%s is larger than %d MB, the largest bibliography Agentero reads.", path, limit>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", refuse("%s cannot be read: %v.", path, err)
	}
	return string(data), nil
}

func bibToEntry(e bibEntry, dirs []string) entry {
	f := func(k string) string { return delatex(e.Fields[k]) }
	title := f("title")
	authors := bibNames(e.Fields["author"])
	if len(authors) == 0 {
		authors = bibNames(e.Fields["editor"])
	}
	year := 0
	for _, s := range []string{e.Fields["year"], e.Fields["date"]} {
		if year == 0 {
			year = findYear(s)
		}
	}
	doi := ident.NormalizeDOI(f("doi"))
	arxiv := ""
	if strings.EqualFold(f("eprinttype"), "arxiv") || strings.EqualFold(f("archiveprefix"), "arxiv") {
		arxiv = ident.NormalizeArxiv(f("eprint"))
	}
	if arxiv == "" && strings.Contains(strings.ToLower(e.Fields["url"]), "arxiv.org") {
		arxiv = ident.NormalizeArxiv(strings.TrimSpace(e.Fields["url"]))
	}
	if arxiv == "" {
		arxiv = ident.ArxivFromDOI(doi)
	}
	var tags []string
	for _, t := range strings.FieldsFunc(f("keywords"), func(r rune) bool { return r == ',' || r == ';' }) {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	field := fileField(e.Fields)
	file, why := bibFile(field, dirs...)
	if strings.TrimSpace(field) == "" {
		file = keyPDF(e.Key, dirs)
		if file == "" {
			why = "it has no file field naming its PDF, and there is no " + e.Key + ".pdf beside the .bib file."
		}
	}
	return entry{From: "bibtex", Key: e.Key, File: file, Missing: why, Folder: vault.PapersDir, Title: title, Authors: authors, Year: year,
		Values: map[string]any{"title": title, "authors": authors, "year": year, "doi": doi, "arxiv_id": arxiv,
			"abstract": f("abstract"), "tags": tags, "citation_key": e.Key,
			"venue": firstOf(f("journaltitle"), f("journal"), f("booktitle"))}}
}

// keyPDF is the PDF named for an entry's citation key ("lamport1978.pdf",
// as helm-bibtex, ebib and many a folder of papers name them) in one of
// dirs or in a pdf/, pdfs/ or papers/ folder of the first, "" when there
// is none.
func keyPDF(key string, dirs []string) string {
	if key == "" || strings.ContainsAny(key, "/\\\x00") || key == "." || key == ".." || len(dirs) == 0 {
		return ""
	}
	look := append([]string{}, dirs...)
	for _, sub := range []string{"pdf", "pdfs", "PDF", "PDFs", "papers", "Papers"} {
		look = append(look, filepath.Join(dirs[0], sub))
	}
	for _, d := range look {
		for _, name := range []string{key + ".pdf", key + ".PDF"} {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	return ""
}

// fileField is the entry's file field, or what stands for it in tools
// that have none: BibDesk's Bdsk-File-1, -2… (a binary property list,
// base64, holding the path relative to the .bib file), a pdf field, or
// BibDesk's older Local-Url (file://…).
func fileField(fields map[string]string) string {
	if f := fields["file"]; strings.TrimSpace(f) != "" {
		return f
	}
	var paths []string
	for i := 1; i < 100; i++ {
		v, ok := fields[fmt.Sprintf("bdsk-file-%d", i)]
		if !ok {
			break
		}
		if p := bdskPath(v); p != "" {
			paths = append(paths, p)
		}
	}
	for _, k := range []string{"pdf", "local-url"} {
		if v := strings.TrimSpace(fields[k]); v != "" {
			if u, err := url.Parse(v); err == nil && u.Scheme == "file" {
				v = u.Path
			}
			paths = append(paths, v)
		}
	}
	return strings.Join(escapeAll(paths), ";")
}

// bdskPath is the PDF path in a BibDesk Bdsk-File field: the first string
// of the decoded property list (bplist00: 0x5N ASCII, 0x6N UTF-16, with a
// following length when N is 15) that names a PDF. BibDesk writes the
// relativePath before the alias data, in its plain and its keyed-archiver
// forms alike.
func bdskPath(v string) string {
	data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(v), ""))
	if err != nil || !bytes.HasPrefix(data, []byte("bplist00")) {
		return ""
	}
	for i := 8; i < len(data); i++ {
		kind, n := data[i]>>4, int(data[i]&0x0f)
		if kind != 5 && kind != 6 {
			continue
		}
		at := i + 1
		if n == 15 {
			if at >= len(data) || data[at]>>4 != 1 {
				continue
			}
			size := 1 << (data[at] & 0x0f)
			if size > 4 || at+1+size > len(data) {
				continue
			}
			n = 0
			for _, b := range data[at+1 : at+1+size] {
				n = n<<8 | int(b)
			}
			at += 1 + size
		}
		var str string
		if kind == 5 {
			if at+n > len(data) {
				continue
			}
			str = string(data[at : at+n])
		} else {
			if at+2*n > len(data) {
				continue
			}
			u := make([]uint16, n)
			for j := range u {
				u[j] = uint16(data[at+2*j])<<8 | uint16(data[at+2*j+1])
			}
			str = string(utf16.Decode(u))
		}
		if strings.EqualFold(path.Ext(str), ".pdf") && utf8.ValidString(str) && !strings.ContainsAny(str, "\x00\n") {
			return norm.NFC.String(str)
		}
	}
	return ""
}

// bibFile is the PDF a file field names: the first "desc:path:type" (or
// plain path) that is a PDF by type or extension, as Zotero, Better
// BibTeX, JabRef and Mendeley write it. They escape ':' and ';' (and '\')
// with a backslash, Mendeley spells that backslash $\backslash$ and some
// characters in LaTeX ({\_}); a Windows drive ("C:\…") stays one path.
// A relative path is looked up in each of dirs (the .bib file's folder
// first), and Mendeley's absolute paths without their leading slash
// ("home/me/…") at the root. The first PDF that exists is taken, else
// the first tried (which the report then says is missing).
func bibFile(field string, dirs ...string) (string, string) {
	field = strings.ReplaceAll(field, `$\backslash$`, `\`)
	if strings.TrimSpace(field) == "" {
		return "", ""
	}
	var first, firstPDF, want string
	for _, part := range splitEscaped(field, ';') {
		bits := splitEscaped(part, ':')
		for i := range bits {
			bits[i] = unescapeFile(bits[i])
		}
		whole := unescapeFile(part)
		var p, typ string
		switch {
		case len(bits) >= 3:
			p, typ = strings.Join(bits[1:len(bits)-1], ":"), bits[len(bits)-1]
		default: // a plain path, which may have a drive letter or a colon in a name
			p = whole
		}
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !strings.Contains(strings.ToLower(typ), "pdf") && !strings.EqualFold(filepath.Ext(p), ".pdf") {
			if first == "" {
				first = p
			}
			continue
		}
		if low := strings.ToLower(whole); strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") ||
			strings.HasPrefix(strings.ToLower(p), "http://") || strings.HasPrefix(strings.ToLower(p), "https://") {
			if firstPDF == "" {
				firstPDF, want = whole, "" // a web address: there is no file to copy
			}
			continue
		}
		tries := []string{p}
		if whole != p && strings.EqualFold(filepath.Ext(whole), ".pdf") {
			tries = append(tries, whole) // "/a: b: c.pdf", colons unescaped
		}
		if l := latexPath(p); l != p {
			tries = append(tries, l)
		}
		for _, t := range tries {
			if c := norm.NFC.String(t); c != t {
				tries = append(tries, c) // a name written decomposed (macOS), the disk's composed
			} else if d := norm.NFD.String(t); d != t {
				tries = append(tries, d)
			}
		}
		for _, t := range tries {
			for _, c := range fileCandidates(t, dirs) {
				if st, err := os.Stat(c); err == nil && !st.IsDir() {
					return c, "" // the first PDF that is there
				}
				if want == "" {
					want = c
				}
			}
		}
		if firstPDF == "" {
			firstPDF = p
		}
	}
	switch {
	case want == "" && firstPDF != "":
		return "", "its file field names " + firstPDF + ", a web address, not a file: download the PDF and name it there."
	case firstPDF != "" && isWindowsPath(firstPDF):
		return "", "its file field names " + firstPDF + ", a Windows path, which is not on this computer."
	case want != "":
		return want, ""
	}
	if first != "" {
		return "", "its file field names no PDF (" + filepath.Base(first) + ")."
	}
	return "", ""
}

// fileCandidates are the files a path from a file field may be: itself
// when absolute, else under each of dirs, and at the root (Mendeley drops
// the leading slash).
func fileCandidates(p string, dirs []string) []string {
	if filepath.IsAbs(p) {
		return []string{filepath.Clean(p)}
	}
	var out []string
	for _, d := range dirs {
		out = append(out, filepath.Join(d, p))
	}
	if !strings.HasPrefix(p, ".") && !isWindowsPath(p) {
		out = append(out, filepath.Join(string(filepath.Separator), p))
	}
	return out
}

// splitEscaped splits s at sep, not at a backslash-escaped one; the
// escapes are kept (unescapeFile removes them).
func splitEscaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// unescapeFile removes the backslash of \: \; and \\.
func unescapeFile(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == ';' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// latexPath decodes the LaTeX Mendeley writes in file names ({\_}, {\&},
// {\"{o}}): commands and braces, and nothing else a name may hold.
func latexPath(p string) string {
	if !strings.ContainsAny(p, "{}") && !strings.Contains(p, `\_`) && !strings.Contains(p, `\&`) {
		return p
	}
	var b strings.Builder
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '{' || r == '}':
		case r == '\\' && i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || strings.ContainsRune(`"'^~=.&_%#$`+"`", rs[i+1])):
			i = command(rs, i, &b)
		default:
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// ImportCSL imports a CSL-JSON file (an array of items, as Zotero, Better
// BibTeX and citeproc tools export) into the vault at root: id as the
// citation key, title, author (family/given or literal), issued, DOI, URL,
// abstract, keyword and container-title. CSL has no file field; a
// non-standard "file" (a path, or a list of them) is honoured, so entries
// mostly update papers already in the vault by DOI and list the rest as
// without PDF.
func ImportCSL(ctx context.Context, path, root string, opts Options) (*Report, error) {
	opts.defaults()
	src, err := readSource(path, maxBib)
	if err != nil {
		return nil, err
	}
	src = strings.TrimPrefix(src, "\ufeff") // a byte-order mark, as Windows tools write
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(src), &raws); err != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal([]byte(src), &one) != nil || one["id"] == nil && one["title"] == nil {
			return nil, refuse("%s is not CSL-JSON (a list of items): %v.", path, err)
		}
		raws = []json.RawMessage{json.RawMessage(src)}
	}
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	source := absSource(path)
	dir := filepath.Dir(source)
	var list []entry
	present := map[string]bool{}
	for i, raw := range raws {
		var it cslItem
		if err := json.Unmarshal(raw, &it); err != nil {
			rep.Errors = append(rep.Errors, Item{File: path, Why: fmt.Sprintf("item %d could not be read: %v.", i+1, err)})
			continue
		}
		e := it.entry(dir)
		if e.Key != "" && present[e.Key] {
			rep.Errors = append(rep.Errors, Item{File: path, Key: e.Key, Title: e.Title,
				Why: fmt.Sprintf("item %d has the id of an earlier item; only the first is imported.", i+1)})
			continue
		}
		e.Source = source
		present[e.Key] = true
		list = append(list, e)
	}
	if len(rep.Errors) == 0 {
		p.present = present
	}
	if err := run(ctx, p, list, opts, rep); err != nil {
		return rep, err
	}
	if len(rep.Errors) == 0 {
		p.gone("csl", source, present, rep)
	}
	return rep, nil
}

type cslName struct {
	Family, Given, Literal string
	Particle               string `json:"non-dropping-particle"`
}

type cslItem struct {
	ID json.RawMessage `json:"id"`
	// CitationKey is CSL 1.0.2's citation-key (Zotero 7, Better BibTeX),
	// the key a user cites by; id is then often a Zotero URI.
	CitationKey string          `json:"citation-key"`
	Title       string          `json:"title"`
	Author      []cslName       `json:"author"`
	Editor      []cslName       `json:"editor"`
	Issued      json.RawMessage `json:"issued"`
	DOI         string          `json:"DOI"`
	URL         string          `json:"URL"`
	Abstract    string          `json:"abstract"`
	Keyword     string          `json:"keyword"`
	Container   string          `json:"container-title"`
	Note        string          `json:"note"`
	File        json.RawMessage `json:"file"`
}

func (it cslItem) entry(dir string) entry {
	// id is a string or a number; a number is kept as written (not 1e+10).
	var key string
	if json.Unmarshal(it.ID, &key) != nil {
		var n json.Number
		if json.Unmarshal(it.ID, &n) == nil {
			key = n.String()
		}
	}
	key = strings.TrimSpace(key)
	if ck := strings.TrimSpace(it.CitationKey); ck != "" {
		key = ck
	}
	title := cslText(it.Title)
	names := func(list []cslName) []string {
		var out []string
		for _, n := range list {
			s := n.Literal
			if s == "" {
				s = strings.Join(strings.Fields(n.Given+" "+n.Particle+" "+n.Family), " ")
			}
			if s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	authors := names(it.Author)
	if len(authors) == 0 {
		authors = names(it.Editor)
	}
	year := cslYear(it.Issued)
	doi := ident.NormalizeDOI(it.DOI)
	arxiv := ""
	if strings.Contains(strings.ToLower(it.URL), "arxiv.org") {
		arxiv = ident.NormalizeArxiv(it.URL)
	}
	if arxiv == "" {
		arxiv = ident.FindArxiv(it.Note)
	}
	if arxiv == "" {
		arxiv = ident.ArxivFromDOI(doi)
	}
	var tags []string
	for _, t := range strings.Split(it.Keyword, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	var files []string
	if json.Unmarshal(it.File, &files) != nil {
		var one string
		if json.Unmarshal(it.File, &one) == nil && one != "" {
			files = []string{one}
		}
	}
	file, why := bibFile(strings.Join(escapeAll(files), ";"), dir)
	if len(files) == 0 {
		file = keyPDF(key, []string{dir})
	}
	return entry{From: "csl", Key: key, File: file, Missing: why, Folder: vault.PapersDir, Title: title, Authors: authors, Year: year,
		Values: map[string]any{"title": title, "authors": authors, "year": year, "doi": doi, "arxiv_id": arxiv,
			"abstract": cslText(it.Abstract), "tags": tags, "citation_key": key, "venue": cslText(it.Container)}}
}

// cslYear is the year of a CSL date: {"date-parts": [[2019, 5]]} (numbers
// or strings), {"raw": "…"} or {"literal": "…"}, the older citeproc form
// [{"year": 2019}], or a plain string.
func cslYear(raw json.RawMessage) int {
	var d struct {
		DateParts [][]any `json:"date-parts"`
		Raw       string  `json:"raw"`
		Literal   string  `json:"literal"`
		Year      any     `json:"year"`
	}
	var s string
	var old []struct {
		Year any `json:"year"`
	}
	switch {
	case json.Unmarshal(raw, &d) == nil:
		if len(d.DateParts) > 0 && len(d.DateParts[0]) > 0 {
			if y := findYear(fmt.Sprint(d.DateParts[0][0])); y > 0 {
				return y
			}
		}
		if d.Year != nil {
			if y := findYear(fmt.Sprint(d.Year)); y > 0 {
				return y
			}
		}
		return findYear(d.Raw + " " + d.Literal)
	case json.Unmarshal(raw, &s) == nil:
		return findYear(s)
	case json.Unmarshal(raw, &old) == nil && len(old) > 0:
		return findYear(fmt.Sprint(old[0].Year))
	}
	return 0
}

// cslMarkup is the rich-text markup CSL-JSON allows in titles (<i>, <b>,
// <sup>, <sub>, <span class="nocase">…).
var cslMarkup = regexp.MustCompile(`</?(?:i|b|sup|sub|span|sc)(?:\s[^<>]*)?>`)

// cslText is a CSL string without its markup.
func cslText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return strings.Join(strings.Fields(cslMarkup.ReplaceAllString(s, "")), " ")
}

func escapeAll(paths []string) []string {
	out := make([]string, len(paths))
	r := strings.NewReplacer(`\`, `\\`, ":", `\:`, ";", `\;`)
	for i, p := range paths {
		out[i] = r.Replace(p)
	}
	return out
}
