package intake

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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
	entries, problems := parseBib(src)
	resolveCrossrefs(entries)
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	for _, msg := range problems {
		rep.Errors = append(rep.Errors, Item{File: bibPath, Why: "an entry could not be read (" + msg + ")."})
	}
	dir := filepath.Dir(bibPath)
	var list []entry
	for _, e := range entries {
		if e.Key == "" || e.Type == "set" || e.Type == "xdata" {
			continue
		}
		list = append(list, bibToEntry(e, dir))
	}
	return rep, run(ctx, p, list, opts, rep)
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

func bibToEntry(e bibEntry, dir string) entry {
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
	file, why := bibFile(e.Fields["file"], dir)
	if file == "" && why == "" {
		why = "it has no file field naming its PDF."
	}
	return entry{From: "bibtex", Key: e.Key, File: file, Missing: why, Folder: vault.PapersDir, Title: title, Authors: authors, Year: year,
		Values: map[string]any{"title": title, "authors": authors, "year": year, "doi": doi, "arxiv_id": arxiv,
			"abstract": f("abstract"), "tags": tags, "citation_key": e.Key,
			"venue": firstOf(f("journaltitle"), f("journal"), f("booktitle"))}}
}

// bibFile is the PDF a file field names: the first "desc:path:type" (or
// plain path) that is a PDF by type or extension. JabRef escapes ':' and
// ';' with a backslash; a Windows drive ("C:\…") stays one path.
func bibFile(field, dir string) (string, string) {
	if strings.TrimSpace(field) == "" {
		return "", ""
	}
	var first string
	for _, part := range splitEscaped(field, ';') {
		bits := splitEscaped(part, ':')
		var p, typ string
		switch {
		case len(bits) >= 3:
			p, typ = strings.Join(bits[1:len(bits)-1], ":"), bits[len(bits)-1]
		case len(bits) == 2 && len(bits[0]) == 1: // C:\path
			p = bits[0] + ":" + bits[1]
		default:
			p = strings.Join(bits, ":")
		}
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if strings.Contains(strings.ToLower(typ), "pdf") || strings.EqualFold(filepath.Ext(p), ".pdf") {
			return filepath.Clean(p), ""
		}
		if first == "" {
			first = p
		}
	}
	if first != "" {
		return "", "its file field names no PDF (" + filepath.Base(first) + ")."
	}
	return "", ""
}

// splitEscaped splits s at sep, not at a backslash-escaped one, and
// unescapes \sep and \\.
func splitEscaped(s string, sep byte) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (s[i+1] == sep || s[i+1] == '\\' || s[i+1] == ':' || s[i+1] == ';') {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == sep {
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	return append(out, b.String())
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
	var items []cslItem
	if err := json.Unmarshal([]byte(src), &items); err != nil {
		var one cslItem
		if json.Unmarshal([]byte(src), &one) != nil || one.ID == nil {
			return nil, refuse("%s is not CSL-JSON (a list of items): %v.", path, err)
		}
		items = []cslItem{one}
	}
	p, err := newPlacer(ctx, root)
	if err != nil {
		return nil, err
	}
	rep := newReport()
	dir := filepath.Dir(path)
	var list []entry
	for _, it := range items {
		list = append(list, it.entry(dir))
	}
	return rep, run(ctx, p, list, opts, rep)
}

type cslName struct {
	Family, Given, Literal string
	Particle               string `json:"non-dropping-particle"`
}

type cslItem struct {
	ID     any       `json:"id"`
	Title  string    `json:"title"`
	Author []cslName `json:"author"`
	Editor []cslName `json:"editor"`
	Issued struct {
		DateParts [][]any `json:"date-parts"`
		Raw       string  `json:"raw"`
		Literal   string  `json:"literal"`
	} `json:"issued"`
	DOI       string          `json:"DOI"`
	URL       string          `json:"URL"`
	Abstract  string          `json:"abstract"`
	Keyword   string          `json:"keyword"`
	Container string          `json:"container-title"`
	Note      string          `json:"note"`
	File      json.RawMessage `json:"file"`
}

func (it cslItem) entry(dir string) entry {
	key := strings.TrimSpace(fmt.Sprint(it.ID))
	if it.ID == nil {
		key = ""
	}
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
	year := 0
	if len(it.Issued.DateParts) > 0 && len(it.Issued.DateParts[0]) > 0 {
		fmt.Sscan(fmt.Sprint(it.Issued.DateParts[0][0]), &year)
	}
	if year == 0 {
		year = findYear(it.Issued.Raw + " " + it.Issued.Literal)
	}
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
	return entry{From: "csl", Key: key, File: file, Missing: why, Folder: vault.PapersDir, Title: it.Title, Authors: authors, Year: year,
		Values: map[string]any{"title": it.Title, "authors": authors, "year": year, "doi": doi, "arxiv_id": arxiv,
			"abstract": it.Abstract, "tags": tags, "citation_key": key, "venue": it.Container}}
}

func escapeAll(paths []string) []string {
	out := make([]string, len(paths))
	r := strings.NewReplacer(`\`, `\\`, ":", `\:`, ";", `\;`)
	for i, p := range paths {
		out[i] = r.Replace(p)
	}
	return out
}
