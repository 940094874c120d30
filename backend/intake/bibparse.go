package intake

import (
	"fmt"
	"strings"
	"unicode"
)

// bibEntry is one BibTeX/BibLaTeX entry: its type and key lower-cased,
// fields by lower-cased name with @string macros and # concatenation
// resolved, the values still in LaTeX.
type bibEntry struct {
	Type, Key string
	Line      int
	Fields    map[string]string
}

// maxBib is the largest .bib file read, the vault opener's cap for .bib files.
const maxBib = 16 << 20

// parseBib parses BibTeX/BibLaTeX source: @string macros, @comment and
// @preamble skipped, {} and "" values with nested braces, # concatenation,
// bare numbers and macros (the month names are predefined). Text outside
// entries is a comment, as in BibTeX. An entry that cannot be parsed is
// reported by its line and skipped: parsing goes on at the next line that
// starts an entry ("@type{"), so one unbalanced brace costs one entry, not
// the rest of the file (a value may not run into a line that starts an
// entry). It takes time linear in the size of src.
func parseBib(src string) ([]bibEntry, []string) {
	entries, problems, _ := parseBibComments(src)
	return entries, problems
}

// parseBibComments is parseBib that also returns the text of the
// @comment entries (where JabRef keeps its settings).
func parseBibComments(src string) ([]bibEntry, []string, []string) {
	p := &bibParser{src: src, macros: map[string]string{}, lineNo: 1}
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		p.macros[m] = fmt.Sprint(i + 1)
	}
	var out []bibEntry
	var problems []string
	for {
		at := strings.IndexByte(p.src[p.pos:], '@')
		if at < 0 {
			break
		}
		p.pos += at + 1
		start := p.pos
		e, err := p.entry()
		if err != nil {
			problems = append(problems, fmt.Sprintf("line %d: %v", p.line(start), err))
			p.pos = nextEntryLine(p.src, start)
			continue
		}
		if e != nil {
			e.Line = p.line(start)
			out = append(out, *e)
		}
	}
	return out, problems, p.comments
}

type bibParser struct {
	src      string
	pos      int
	macros   map[string]string
	comments []string
	// The line of linePos, counted on from the last position asked about
	// (positions asked about only grow, but for an entry's own start).
	linePos, lineNo int
}

func (p *bibParser) line(pos int) int {
	pos = min(pos, len(p.src))
	if pos < p.linePos {
		p.linePos, p.lineNo = 0, 1
	}
	p.lineNo += strings.Count(p.src[p.linePos:pos], "\n")
	p.linePos = pos
	return p.lineNo
}

// nextEntryLine is the position of the '@' of the first line
// after from that starts an entry (spaces, then "@type{" or "@type("), or
// the end of src.
func nextEntryLine(src string, from int) int {
	for i := from; i < len(src); {
		nl := strings.IndexByte(src[i:], '\n')
		if nl < 0 {
			return len(src)
		}
		i += nl + 1
		if at := entryStart(src, i); at >= 0 {
			return at
		}
	}
	return len(src)
}

// entryStart is the position of the '@' when the line starting at i
// starts an entry, else -1.
func entryStart(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if i >= len(src) || src[i] != '@' {
		return -1
	}
	at := i
	i++
	n := 0
	for i < len(src) && (src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
		i++
		n++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if n == 0 || i >= len(src) || src[i] != '{' && src[i] != '(' {
		return -1
	}
	return at
}

func (p *bibParser) skipSpace() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *bibParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c <= ' ' || strings.IndexByte(`{}(),=#"%'`, c) >= 0 {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

// entry parses one @type{…} after its '@'; nil for @comment, @preamble
// and @string.
func (p *bibParser) entry() (*bibEntry, error) {
	typ := strings.ToLower(p.ident())
	p.skipSpace()
	if typ == "" || p.pos >= len(p.src) || (p.src[p.pos] != '{' && p.src[p.pos] != '(') {
		return nil, nil // a stray @ in a comment
	}
	closer := byte('}')
	if p.src[p.pos] == '(' {
		closer = ')'
	}
	open := p.pos
	p.pos++
	switch typ {
	case "comment":
		p.pos = open
		if closer == ')' { // @comment(…) is as rare as it is odd: to the line's end
			end := strings.IndexByte(p.src[p.pos:], '\n')
			if end < 0 {
				end = len(p.src) - p.pos
			}
			p.pos += end
			return nil, nil
		}
		text, err := p.braced(false)
		if err != nil {
			return nil, err
		}
		p.comments = append(p.comments, text)
		return nil, nil
	case "preamble":
		if _, err := p.value(); err != nil {
			return nil, err
		}
		return nil, p.close(closer)
	case "string":
		p.skipSpace()
		name := strings.ToLower(p.ident())
		p.skipSpace()
		if !p.eat('=') {
			return nil, fmt.Errorf("@string %s has no '='", name)
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.macros[name] = v
		return nil, p.close(closer)
	}
	p.skipSpace()
	key := strings.TrimSpace(p.ident())
	e := &bibEntry{Type: typ, Key: key, Fields: map[string]string{}}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, fmt.Errorf("@%s{%s is not closed", typ, key)
		}
		switch p.src[p.pos] {
		case closer:
			p.pos++
			return e, nil
		case ',':
			p.pos++
			continue
		case '@':
			return nil, fmt.Errorf("@%s{%s is not closed before the entry on line %d: a brace in it is not balanced, or its closing one is missing", typ, key, p.line(p.pos))
		}
		name := strings.ToLower(p.ident())
		if name == "" {
			return nil, fmt.Errorf("@%s{%s: unexpected %q", typ, key, p.src[p.pos])
		}
		p.skipSpace()
		if !p.eat('=') {
			return nil, fmt.Errorf("@%s{%s: field %s has no '='", typ, key, name)
		}
		v, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("@%s{%s: field %s: %w", typ, key, name, err)
		}
		e.Fields[name] = v
	}
}

func (p *bibParser) eat(c byte) bool {
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *bibParser) close(closer byte) error {
	p.skipSpace()
	if !p.eat(closer) {
		return fmt.Errorf("expected %q", closer)
	}
	return nil
}

// value parses parts joined by #: {…}, "…", numbers and macro names.
func (p *bibParser) value() (string, error) {
	var b strings.Builder
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return "", fmt.Errorf("the value is not closed")
		}
		switch c := p.src[p.pos]; {
		case c == '{':
			s, err := p.braced(true)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case c == '"':
			s, err := p.quoted()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		default:
			word := p.ident()
			if word == "" {
				return "", fmt.Errorf("unexpected %q", c)
			}
			if v, ok := p.macros[strings.ToLower(word)]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(word) // a number, or an undefined macro as BibTeX would warn
			}
		}
		p.skipSpace()
		if !p.eat('#') {
			return b.String(), nil
		}
	}
}

// runaway is the error of a value whose braces or quotes are still open
// at a line that starts the next entry.
func (p *bibParser) runaway(what string, start, at int) error {
	return fmt.Errorf("the %s opened on line %d are not closed before the entry on line %d", what, p.line(start), p.line(at))
}

// braced reads {…} with nested braces and returns what is inside. In a
// value (inValue), a line that starts an entry ends it as unterminated.
func (p *bibParser) braced(inValue bool) (string, error) {
	start := p.pos
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '\n':
			if inValue && entryStart(p.src, i+1) >= 0 {
				p.pos = i + 1
				return "", p.runaway("braces", start, i+1)
			}
		case '\\':
			i++ // \{ and \} do not count
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				p.pos = i + 1
				return p.src[start+1 : i], nil
			}
		}
	}
	p.pos = len(p.src)
	return "", fmt.Errorf("unterminated braces")
}

// quoted reads "…": a quote inside braces does not end it.
func (p *bibParser) quoted() (string, error) {
	start := p.pos
	depth := 0
	for i := p.pos + 1; i < len(p.src); i++ {
		switch p.src[i] {
		case '\n':
			if entryStart(p.src, i+1) >= 0 {
				p.pos = i + 1
				return "", p.runaway("quotes", start, i+1)
			}
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case '"':
			if depth <= 0 {
				p.pos = i + 1
				return p.src[start+1 : i], nil
			}
		}
	}
	p.pos = len(p.src)
	return "", fmt.Errorf("unterminated quotes")
}

// resolveCrossrefs gives an entry with a crossref its parent's fields it
// lacks (the parent's title as booktitle, as BibLaTeX does).
func resolveCrossrefs(entries []bibEntry) {
	byKey := map[string]*bibEntry{}
	for i := range entries {
		byKey[strings.ToLower(entries[i].Key)] = &entries[i]
	}
	for i := range entries {
		e := &entries[i]
		parent := byKey[strings.ToLower(strings.TrimSpace(e.Fields["crossref"]))]
		if parent == nil || parent == e {
			continue
		}
		for k, v := range parent.Fields {
			switch k {
			case "crossref", "file", "ids":
				continue
			case "title":
				if _, ok := e.Fields["booktitle"]; !ok {
					e.Fields["booktitle"] = v
				}
				continue
			}
			if _, ok := e.Fields[k]; !ok {
				e.Fields[k] = v
			}
		}
	}
}
