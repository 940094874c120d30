package export

import (
	"encoding/json"
	"fmt"
	"github.com/agentero/agentero/backend/metadata"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/agentero/agentero/backend/index"
)

// BibTeX writes papers as BibTeX entries (@article, or @misc for a
// preprint known only by its arXiv id), with keys made of the first
// author's family name, the year and the title's first word, made unique.
// Field values are braced and escaped so that TeX reads them as the text
// they are.
func BibTeX(papers []*index.Paper) string {
	var b strings.Builder
	keys := citeKeys{}
	for i, p := range papers {
		if i > 0 {
			b.WriteString("\n")
		}
		key := keys.next(citeKey(p))
		kind := "article"
		if p.DOI == "" && p.ArxivID != "" {
			kind = "misc"
		}
		fmt.Fprintf(&b, "@%s{%s,\n", kind, key)
		field := func(name, value string) {
			if value != "" {
				fmt.Fprintf(&b, "  %s = {%s},\n", name, value)
			}
		}
		field("title", "{"+texEscape(paperTitle(p))+"}") // double braces keep its capitals
		if len(p.Authors) > 0 {
			names := make([]string, len(p.Authors))
			for j, a := range p.Authors {
				names[j] = texEscape(a)
				if strings.Contains(strings.ToLower(" "+a+" "), " and ") {
					names[j] = "{" + names[j] + "}" // an "and" inside a name is not a separator
				}
			}
			field("author", strings.Join(names, " and "))
		}
		if p.Year > 0 {
			field("year", strconv.Itoa(p.Year))
		}
		field("doi", texVerbatim(p.DOI))
		if p.ArxivID != "" {
			field("eprint", texVerbatim(p.ArxivID))
			field("archiveprefix", "arXiv")
		}
		if u := DOILink(p); u != "" {
			field("url", texVerbatim(u))
		} else if u := ArxivLink(p); u != "" {
			field("url", texVerbatim(u))
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// texEscape escapes the characters TeX gives a meaning to.
func texEscape(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(
		`\`, `\textbackslash{}`,
		"{", `\{`, "}", `\}`,
		"%", `\%`, "&", `\&`, "$", `\$`, "#", `\#`, "_", `\_`,
		"^", `\^{}`, "~", `\~{}`,
	).Replace(s)
}

// texVerbatim is for identifiers and URLs, which biblatex reads verbatim:
// only what would unbalance the braces or end the field is dropped (a DOI
// never holds these).
func texVerbatim(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '{' || r == '}' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// citeKey is an ASCII key: family name, year, first title word.
func citeKey(p *index.Paper) string {
	family := ""
	if len(p.Authors) > 0 {
		family, _ = splitName(p.Authors[0])
	}
	word := ""
	for _, w := range strings.Fields(paperTitle(p)) {
		if a := asciiWord(w); len(a) > 3 {
			word = a
			break
		}
	}
	key := asciiWord(family)
	if p.Year > 0 {
		key += strconv.Itoa(p.Year)
	}
	key += word
	if key == "" {
		key = asciiWord(p.Ref)
	}
	if key == "" {
		key = "paper"
	}
	return strings.ToLower(key)
}

// asciiWord keeps the ASCII letters and digits of s, accents dropped.
func asciiWord(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// splitName splits "Given Family" or "Family, Given".
func splitName(name string) (family, given string) {
	name = strings.TrimSpace(name)
	if f, g, ok := strings.Cut(name, ","); ok {
		return strings.TrimSpace(f), strings.TrimSpace(g)
	}
	parts := metadata.SplitAuthors(name)
	if len(parts) == 1 {
		name = parts[0]
	}
	fields := strings.Fields(name)
	if len(fields) <= 1 {
		return name, ""
	}
	return fields[len(fields)-1], strings.Join(fields[:len(fields)-1], " ")
}

// cslItem is one CSL-JSON item (the citation-style-language schema).
type cslItem struct {
	ID       string      `json:"id"`
	Type     string      `json:"type"`
	Title    string      `json:"title"`
	Author   []cslName   `json:"author,omitempty"`
	Issued   *cslDate    `json:"issued,omitempty"`
	DOI      string      `json:"DOI,omitempty"`
	URL      string      `json:"URL,omitempty"`
	Number   string      `json:"number,omitempty"`
	Abstract string      `json:"abstract,omitempty"`
	Note     string      `json:"note,omitempty"`
	Extra    interface{} `json:"-"`
}

type cslName struct {
	Family  string `json:"family,omitempty"`
	Given   string `json:"given,omitempty"`
	Literal string `json:"literal,omitempty"`
}

type cslDate struct {
	DateParts [][]int `json:"date-parts"`
}

// CSLJSON writes papers as a CSL-JSON array, ids as BibTeX's keys.
func CSLJSON(papers []*index.Paper) ([]byte, error) {
	items := []cslItem{}
	keys := citeKeys{}
	for _, p := range papers {
		key := keys.next(citeKey(p))
		it := cslItem{ID: key, Type: "article-journal", Title: paperTitle(p), DOI: p.DOI, URL: DOILink(p)}
		if p.DOI == "" && p.ArxivID != "" {
			it.Type = "article"
			it.Number = "arXiv:" + p.ArxivID
			it.URL = ArxivLink(p)
		}
		for _, a := range p.Authors {
			family, given := splitName(a)
			if given == "" {
				it.Author = append(it.Author, cslName{Literal: family})
			} else {
				it.Author = append(it.Author, cslName{Family: family, Given: given})
			}
		}
		if p.Year > 0 {
			it.Issued = &cslDate{DateParts: [][]int{{p.Year}}}
		}
		items = append(items, it)
	}
	return json.MarshalIndent(items, "", "  ")
}

// citeKeys makes citation keys unique within one export: the second paper
// of a key gets "a" after it, the third "b", and so on.
type citeKeys map[string]int

func (k citeKeys) next(key string) string {
	n := k[key]
	k[key]++
	if n == 0 {
		return key
	}
	return key + string(rune('a'+n-1))
}
