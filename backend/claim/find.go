package claim

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/vault"
)

// found is a citation as a text writes it.
type found struct {
	start, end int    // its bytes in the text: the whole link, or the bare URI
	raw        string // the URI as written
	text       string // a link's text; "" when it has none
	bare       bool   // written without link markup
}

// Markdown forms of a citation. A link's text may hold one level of
// brackets ("[[1]](…)"); its destination may be <…>, and may be followed
// by a title.
var (
	linkRE     = regexp.MustCompile(`\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"[^"\n]*")?\s*\)`)
	autoRE     = regexp.MustCompile(`<([^<>\s]+)>`)
	refRE      = regexp.MustCompile(`\[([^\[\]\n]+)\](?:\[([^\[\]\n]*)\])?`)
	defRE      = regexp.MustCompile(`(?m)^[ \t]{0,3}\[([^\[\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)[^\n]*$`)
	bracketRE  = regexp.MustCompile(`\[([^\[\]\s]+)\]`)
	schemeRE   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	fenceRE    = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	trailingRE = regexp.MustCompile(`[.,;:!?]+$`)
)

// bareStops are the characters that end a bare URI: Markdown's and
// prose's brackets and quotes. A URI written by package citation
// percent-encodes them in its path, and a quote in its fragment is
// query-escaped.
const bareStops = "<>()[]{}\"“”‘’«»|*`"

// findCitations returns the citations of a Markdown text in order, and
// the byte ranges of its fenced code blocks (which hold none).
func findCitations(text string) ([]found, [][2]int) {
	code := fences(text)
	defs, defLines := definitions(text, code)
	if len(defLines) > 0 {
		code = append(code, defLines...)
		sort.Slice(code, func(i, j int) bool { return code[i][0] < code[j][0] })
	}
	var out []found
	used := make([]bool, len(text)) // bytes of code blocks and of citations found
	for _, c := range code {
		for i := c[0]; i < c[1]; i++ {
			used[i] = true
		}
	}
	taken := func(s, e int) bool {
		for i := s; i < e; i++ {
			if used[i] {
				return true
			}
		}
		return false
	}
	take := func(f found) {
		for i := f.start; i < f.end; i++ {
			used[i] = true
		}
		out = append(out, f)
	}
	for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
		dest := strings.TrimSuffix(strings.TrimPrefix(text[m[4]:m[5]], "<"), ">")
		if taken(m[0], m[1]) || !looksCited(dest, false) {
			continue
		}
		take(found{start: m[0], end: m[1], raw: dest, text: text[m[2]:m[3]]})
	}
	// Reference links: [text][label], [label][] and [label], when the
	// text defines the label ("[1]: papers/raft/paper.pdf#page=6").
	if len(defs) > 0 {
		for _, m := range refRE.FindAllStringSubmatchIndex(text, -1) {
			label := text[m[2]:m[3]]
			if m[4] >= 0 && m[5] > m[4] {
				label = text[m[4]:m[5]]
			}
			dest, ok := defs[normLabel(label)]
			if !ok || taken(m[0], m[1]) || m[1] < len(text) && text[m[1]] == '(' || !looksCited(dest, false) {
				continue
			}
			take(found{start: m[0], end: m[1], raw: dest, text: text[m[2]:m[3]]})
		}
	}
	for _, m := range autoRE.FindAllStringSubmatchIndex(text, -1) {
		if dest := text[m[2]:m[3]]; !taken(m[0], m[1]) && looksCited(dest, true) {
			take(found{start: m[0], end: m[1], raw: dest})
		}
	}
	for _, m := range bracketRE.FindAllStringSubmatchIndex(text, -1) {
		if m[1] < len(text) && (text[m[1]] == '(' || text[m[1]] == '[') {
			continue // a link's text, or a reference-style link
		}
		if dest := text[m[2]:m[3]]; !taken(m[0], m[1]) && looksCited(dest, true) {
			take(found{start: m[0], end: m[1], raw: dest})
		}
	}
	for _, b := range bareTokens(text) {
		if !taken(b[0], b[1]) && looksCited(text[b[0]:b[1]], true) {
			take(found{start: b[0], end: b[1], raw: text[b[0]:b[1]], bare: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out, code
}

// definitions reads the link reference definitions of a text
// ("[label]: destination"), outside code blocks: the destination of each
// label, and the byte ranges of the definitions' lines, which are no
// sentences of the text.
func definitions(text string, code [][2]int) (map[string]string, [][2]int) {
	defs := map[string]string{}
	var lines [][2]int
	for _, m := range defRE.FindAllStringSubmatchIndex(text, -1) {
		inCode := false
		for _, c := range code {
			inCode = inCode || m[0] >= c[0] && m[0] < c[1]
		}
		if inCode {
			continue
		}
		dest := strings.TrimSuffix(strings.TrimPrefix(text[m[4]:m[5]], "<"), ">")
		if label := normLabel(text[m[2]:m[3]]); defs[label] == "" {
			defs[label] = dest
		}
		lines = append(lines, [2]int{m[0], m[1]})
	}
	return defs, lines
}

// normLabel is a reference label as Markdown matches it: case and inner
// white space do not matter.
func normLabel(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// fences returns the byte ranges of fenced code blocks.
func fences(text string) [][2]int {
	var out [][2]int
	open, start := "", 0
	for _, ln := range lines(text) {
		l := text[ln[0]:ln[1]]
		m := fenceRE.FindStringSubmatch(l)
		switch {
		case open == "" && m != nil:
			open, start = m[1][:3], ln[0]
		case open != "" && m != nil && strings.HasPrefix(m[1], open):
			out = append(out, [2]int{start, ln[1]})
			open = ""
		}
	}
	if open != "" {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

// lines returns the byte range of each line, without its newline.
func lines(text string) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return append(out, [2]int{start, len(text)})
}

// bareTokens returns the runs of text between white space and bareStops,
// without the punctuation that ends a sentence.
func bareTokens(text string) [][2]int {
	var out [][2]int
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		tok := text[start:end]
		if loc := trailingRE.FindStringIndex(tok); loc != nil {
			end = start + loc[0]
		}
		if end > start {
			out = append(out, [2]int{start, end})
		}
		start = -1
	}
	for i, r := range text {
		if unicode.IsSpace(r) || strings.ContainsRune(bareStops, r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(text))
	return out
}

// citedExts are the endings of a vault file a bare path may cite: PDFs
// and the text files the index reads.
func citedExt(p string) bool {
	name := p[strings.LastIndexByte(p, '/')+1:]
	dot := strings.LastIndexByte(name, '.')
	return dot > 0 && vault.IsTextName(name) || strings.EqualFold(name[max(dot, 0):], ".pdf")
}

// looksCited reports whether dest is meant as a citation of the vault: an
// agentero:// link, or a relative path; bare (not a link's destination),
// only a path with a folder and a file's ending, a path under papers/ (a
// paper's folder) or under .agentero/, or an agentero:// link.
// Other links (https://…, mailto:) are not citations of the vault.
func looksCited(dest string, bare bool) bool {
	if dest == "" || !utf8.ValidString(dest) {
		return false
	}
	if applink.IsLink(dest) {
		return true
	}
	if schemeRE.MatchString(dest) {
		return false
	}
	if !bare {
		return !strings.HasPrefix(dest, "#") // a link to a heading of the same text
	}
	p, _, _ := strings.Cut(dest, "#")
	if !strings.Contains(p, "/") || strings.HasPrefix(p, "/") {
		return false
	}
	return citedExt(p) || strings.HasPrefix(p, vault.PapersDir+"/") || strings.HasPrefix(p, vault.StateDir+"/")
}
