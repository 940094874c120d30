package refs

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/ident"
)

// parseBib reads the entries of a BibTeX file. @preamble and @comment
// blocks are skipped; field values may be braced, quoted, numbers or the
// names of @string macros.
func parseBib(src string) []Citation {
	var out []Citation
	macros := map[string]string{}
	for i := 0; i < len(src); i++ {
		if src[i] != '@' {
			continue
		}
		j := i + 1
		for j < len(src) && (isLetterByte(src[j])) {
			j++
		}
		kind := strings.ToLower(src[i+1 : j])
		k := j
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\r') {
			k++
		}
		if kind == "" || k >= len(src) || (src[k] != '{' && src[k] != '(') {
			continue
		}
		body, end := balanced(src, k)
		i = end
		if kind == "string" {
			_, fields := bibFields("macro,"+body, macros)
			for k, v := range fields {
				macros[k] = v
			}
			continue
		}
		if kind == "preamble" || kind == "comment" {
			continue
		}
		key, fields := bibFields(body, macros)
		out = append(out, bibEntry(key, fields))
	}
	return out
}

// balanced returns the text inside the bracket at src[open] and the index
// of its closing bracket (or the end of src).
func balanced(src string, open int) (string, int) {
	o, c := byte('{'), byte('}')
	if src[open] == '(' {
		o, c = '(', ')'
	}
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return src[open+1 : i], i
			}
		}
	}
	return src[open+1:], len(src)
}

// bibFields splits an entry body into its key and lower-cased fields,
// replacing bare macro names by their values.
func bibFields(body string, macros map[string]string) (string, map[string]string) {
	fields := map[string]string{}
	comma := strings.IndexByte(body, ',')
	if comma < 0 {
		return strings.TrimSpace(body), fields
	}
	key := strings.TrimSpace(body[:comma])
	s := body[comma+1:]
	for {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			break
		}
		name := strings.ToLower(strings.TrimSpace(strings.Trim(s[:eq], ", \t\r\n")))
		v := strings.TrimLeft(s[eq+1:], " \t\r\n")
		var value string
		switch {
		case v == "":
			s = ""
		case v[0] == '{':
			inner, end := balanced(v, 0)
			value, s = inner, v[min(end+1, len(v)):]
		case v[0] == '"':
			end := 1
			depth := 0
			for end < len(v) && (v[end] != '"' || depth > 0) {
				if v[end] == '{' {
					depth++
				} else if v[end] == '}' {
					depth--
				}
				end++
			}
			value, s = v[1:min(end, len(v))], v[min(end+1, len(v)):]
		default:
			end := strings.IndexAny(v, ",\n")
			if end < 0 {
				end = len(v)
			}
			value, s = strings.TrimSpace(v[:end]), v[end:]
			if m, ok := macros[strings.ToLower(value)]; ok {
				value = m
			}
		}
		if name != "" {
			fields[name] = value
		}
		if s == "" {
			break
		}
	}
	return key, fields
}

var (
	latexCmd    = regexp.MustCompile(`\\(?:emph|textit|textbf|textsc|textrm|texttt|mathrm|mbox|url|href\{[^}]*\}|em|it|bf|sc|newblock|natexlab)\b\s*`)
	latexAccent = regexp.MustCompile("\\\\[`'^\"~=.uvHckrb]\\s*\\{?([A-Za-z])\\}?")
	latexOther  = regexp.MustCompile(`\\[A-Za-z]+\*?\s*`)
	latexChars  = strings.NewReplacer(`\&`, "&", `\%`, "%", `\_`, "_", `\$`, "$", `\#`, "#", "~", " ", "---", "—", "--", "–")
	braces      = strings.NewReplacer("{", "", "}", "")
)

// unlatex turns a LaTeX field value into plain text: accents folded onto
// their letters, formatting commands and braces dropped, "--" a dash.
func unlatex(s string) string {
	s = latexAccent.ReplaceAllString(s, "$1")
	s = latexCmd.ReplaceAllString(s, "")
	s = latexChars.Replace(s)
	s = latexOther.ReplaceAllString(s, "")
	s = braces.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

var (
	andSep  = regexp.MustCompile(`\s+and\s+`)
	bibYear = regexp.MustCompile(`(?:19|20)\d\d`)
)

// bibEntry makes a citation of BibTeX fields. Its ID is the bib key.
func bibEntry(key string, f map[string]string) Citation {
	e := Citation{ID: key, Title: unlatex(f["title"])}
	if a := unlatex(f["author"]); a != "" {
		for _, name := range andSep.Split(a, -1) {
			if name = strings.TrimSpace(name); name != "" && !strings.EqualFold(name, "others") {
				e.Authors = append(e.Authors, name)
			}
		}
	}
	if e.Authors == nil {
		e.Authors = []string{}
	}
	if m := bibYear.FindString(f["year"] + " " + f["date"]); m != "" {
		e.Year, _ = strconv.Atoi(m)
	}
	for _, v := range []string{"journal", "booktitle", "journaltitle", "publisher", "school", "institution", "howpublished"} {
		if s := unlatex(f[v]); s != "" {
			e.Venue = s
			break
		}
	}
	var readings, arxivs []string
	if d := ident.NormalizeDOI(f["doi"]); d != "" {
		e.DOI = d
		readings = append(readings, d)
	}
	eprint := f["eprint"]
	if ap := strings.ToLower(f["archiveprefix"] + f["eprinttype"]); eprint != "" && (strings.Contains(ap, "arxiv") || ap == "") {
		if a := ident.NormalizeArxiv(eprint); a != "" {
			arxivs = append(arxivs, a)
		}
	}
	url := strings.TrimSpace(f["url"])
	if a := ident.NormalizeArxiv(url); a != "" {
		arxivs = append(arxivs, a)
	} else if d := ident.NormalizeDOI(url); d != "" && e.DOI == "" {
		e.DOI = d
		readings = append(readings, d)
	} else {
		e.URL = url
	}
	arxivs = append(arxivs, ident.FindArxivs(f["journal"]+" "+f["note"]+" "+f["howpublished"])...)
	if len(arxivs) > 0 {
		e.ArxivID = arxivs[0]
	} else if e.DOI != "" {
		e.ArxivID = ident.ArxivFromDOI(e.DOI)
	}
	e.IDs = identifiers(readings, arxivs)
	e.Raw = bibRaw(e)
	e.Display = display("", e.Authors, e.Year)
	return e
}

// bibRaw writes a bib entry the way a reference list prints it, so that
// title matching reads it like any other entry.
func bibRaw(e Citation) string {
	var parts []string
	if len(e.Authors) > 0 {
		parts = append(parts, strings.Join(e.Authors, ", "))
	}
	if e.Title != "" {
		parts = append(parts, e.Title)
	}
	if e.Venue != "" {
		parts = append(parts, e.Venue)
	}
	if e.Year > 0 {
		parts = append(parts, strconv.Itoa(e.Year))
	}
	if e.DOI != "" {
		parts = append(parts, "doi:"+e.DOI)
	}
	if e.ArxivID != "" {
		parts = append(parts, "arXiv:"+e.ArxivID)
	}
	return strings.Join(parts, ". ") + "."
}

var bibitem = regexp.MustCompile(`\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}`)

// parseBbl reads the \bibitem entries of a compiled bibliography (.bbl):
// each item's LaTeX is turned into text and parsed like a printed entry.
func parseBbl(src string) []Citation {
	locs := bibitem.FindAllStringSubmatchIndex(src, -1)
	var out []Citation
	for i, m := range locs {
		end := len(src)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := src[m[1]:end]
		if j := strings.Index(body, `\end{thebibliography}`); j >= 0 {
			body = body[:j]
		}
		var lines []string
		for _, l := range strings.Split(body, "\n") {
			if l = unlatex(strings.TrimSpace(l)); l != "" && !strings.HasPrefix(l, "%") {
				lines = append(lines, l)
			}
		}
		e := parseEntry(entryText{lines: lines}) // no printed label: Display is "Surname Year"
		e.ID = strings.TrimSpace(src[m[2]:m[3]])
		out = append(out, e)
	}
	return out
}
