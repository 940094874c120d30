package citation

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cited is a citation a text holds, where it holds it.
type Cited struct {
	URI URI // zero for an agentero://open link (Link) or one that does not parse (Err)
	// Raw is the citation as the text wrote it: a link's target, or the
	// bare URI without the brackets and punctuation around it.
	Raw string
	// Start and End are the byte span of the whole citation in the text:
	// a Markdown link [text](target) or [text][label] whole, <uri> and
	// [uri] with their brackets, a bare URI alone.
	Start, End int
	Text       string // a Markdown link's text; "" for the other forms
	Bare       bool   // written without brackets or link markup
	// Link is an agentero://open link (for package applink to read), as
	// the text writes it with HTML's and Markdown's escapes undone.
	Link string
	// Err is why what the text writes as a citation of the vault (a
	// link's target, or what looks like a vault path) does not parse.
	Err error
}

// OK reports whether c is a citation URI that parses: a vault file's or
// an external link.
func (c Cited) OK() bool { return c.Err == nil && c.Link == "" }

// Markdown is a Markdown text as read for its citations.
type Markdown struct {
	// Cited is every citation, in order, without overlaps: those Find
	// returns, agentero://open links, and what the text writes as a
	// citation of the vault that does not parse.
	Cited []Cited
	// Code is the byte ranges, in order, that hold no prose and no
	// citation: fenced code blocks and link reference definitions
	// ("[1]: papers/raft/paper.pdf#page=6"), whose labels cite.
	Code [][2]int
}

// Find finds the citations a text holds that parse, in the order it holds
// them, however answers and notes write them (see Read).
func Find(text string) []Cited {
	var out []Cited
	for _, c := range Read(text).Cited {
		if c.OK() {
			out = append(out, c)
		}
	}
	return out
}

// Read reads a Markdown text for its citations: Markdown link targets
// ([p. 6](papers/raft/paper.pdf#page=6)), reference links ([text][1],
// [1] with "[1]: papers/…" defined), angle-bracketed (<…>) and bracketed
// ([papers/…#page=8]) URIs, and bare URIs; none in fenced code blocks. A
// bare or bracketed URI counts only when it looks like one: a vault path
// of a file (with a "/" and an extension, or a fragment), a paper's
// folder, or an external link. Markdown's escapes and HTML's "&amp;" are
// undone, and so is a URI percent-encoded whole
// (papers%2Fraft%2Fpaper.pdf%23page%3D5).
func Read(text string) Markdown {
	code := fences(text)
	defs, defLines := definitions(text, code)
	code = append(code, defLines...)
	slices.SortFunc(code, func(a, b [2]int) int { return a[0] - b[0] })

	var out []Cited
	taken := make([]bool, len(text)) // bytes of code, of links and of citations found
	free := func(s, e int) bool {
		for k := s; k < e; k++ {
			if taken[k] {
				return false
			}
		}
		return true
	}
	take := func(s, e int) {
		for k := s; k < e; k++ {
			taken[k] = true
		}
	}
	add := func(c Cited) {
		if free(c.Start, c.End) {
			out = append(out, c)
			take(c.Start, c.End)
		}
	}
	for _, c := range code {
		take(c[0], c[1])
	}
	squares := pairs(text, '[', ']')
	rounds := pairs(text, '(', ')')
	// Markdown links, reference links and bracketed URIs.
	for i := 0; i < len(text); i++ {
		if text[i] != '[' || taken[i] || i > 0 && text[i-1] == '\\' {
			continue
		}
		close := squares[i]
		if close < 0 {
			continue
		}
		label := text[i+1 : close]
		image := i > 0 && text[i-1] == '!'
		next := byte(0)
		if close+1 < len(text) {
			next = text[close+1]
		}
		if next == '(' {
			end := rounds[close+1]
			if end < 0 {
				continue
			}
			if !image {
				target := linkTarget(text[close+2 : end])
				if c, ok := read(target, true); ok {
					c.Start, c.End, c.Text = i, end+1, label
					add(c)
					i = end
					continue
				}
			}
			// A link's target is no place for bare citations, whatever it
			// links to; its text may hold one.
			take(close+1, end+1)
			continue
		}
		if image {
			continue
		}
		if len(defs) > 0 {
			end, ref := close, label
			if next == '[' && squares[close+1] > 0 {
				end = squares[close+1]
				if l := text[close+2 : end]; strings.TrimSpace(l) != "" {
					ref = l
				}
			}
			if dest, ok := defs[normLabel(ref)]; ok {
				if c, ok := read(dest, true); ok {
					c.Start, c.End, c.Text = i, end+1, label
					add(c)
					i = end
				}
				continue
			}
		}
		if c, ok := read(strings.TrimSpace(label), false); ok {
			c.Start, c.End = i, close+1
			add(c)
			i = close
		}
	}
	// Angle brackets.
	for i := 0; i < len(text); i++ {
		if text[i] != '<' || taken[i] {
			continue
		}
		end := strings.IndexAny(text[i+1:min(len(text), i+1+MaxLength)], "<>\n")
		if end < 0 || text[i+1+end] != '>' {
			continue
		}
		if c, ok := read(text[i+1:i+1+end], false); ok {
			c.Start, c.End = i, i+end+2
			add(c)
		}
	}
	// Bare URIs: runs of text without white space.
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) || taken[i] {
			i += n
			continue
		}
		j := i
		for j < len(text) && !taken[j] {
			r, n := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += n
		}
		if s, e := trimToken(text, i, j); s < e {
			if c, ok := read(text[s:e], false); ok {
				c.Start, c.End, c.Bare = s, e, true
				add(c)
			}
		}
		i = j
	}
	slices.SortStableFunc(out, func(a, b Cited) int { return a.Start - b.Start })
	return Markdown{Cited: out, Code: code}
}

// read reads raw, written as a link's target (link) or otherwise, as a
// citation; ok is false when it is none.
func read(raw string, link bool) (Cited, bool) {
	c := Cited{Raw: raw}
	s := normalize(raw)
	if isAppLink(s) {
		c.Link = s
		return c, true
	}
	u, err := Parse(s)
	switch {
	case err == nil && (link || looksCited(u)):
		c.URI = u
		return c, true
	case err == nil:
		return c, false
	case meant(s, link):
		c.Err = err
		return c, true
	}
	return c, false
}

// maxLink is the longest Markdown link (text and target) looked at.
const maxLink = MaxLength + 1024

// pairs matches brackets: for the index of each opening one, the index of
// the one that closes it (nested brackets counted, backslash escapes
// skipped, in the same paragraph and at most maxLink bytes on); -1 for
// every other index.
func pairs(text string, open, close byte) []int {
	out := make([]int, len(text))
	for i := range out {
		out[i] = -1
	}
	var stack []int
	for j := 0; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case open:
			stack = append(stack, j)
		case close:
			if n := len(stack); n > 0 {
				if o := stack[n-1]; j-o <= maxLink {
					out[o] = j
				}
				stack = stack[:n-1]
			}
		case '\n':
			if j+1 < len(text) && text[j+1] == '\n' {
				stack = stack[:0]
			}
		}
	}
	return out
}

// linkTarget is a Markdown link's destination: inside <…> when so
// written, and without a "title" after it.
func linkTarget(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<") {
		if end := strings.IndexByte(s, '>'); end > 0 {
			return s[1:end]
		}
	}
	for _, q := range []string{` "`, ` '`} {
		if i := strings.LastIndex(s, q); i > 0 && len(s) > i+2 && s[len(s)-1] == q[1] {
			s = strings.TrimSpace(s[:i])
		}
	}
	return s
}

// trimToken narrows a bare token [s, e) of text to the URI it may be:
// without the opening brackets and quotes before it and the punctuation
// and closing brackets after it that are not its own.
func trimToken(text string, s, e int) (int, int) {
	for s < e {
		r, n := utf8.DecodeRuneInString(text[s:e])
		if !strings.ContainsRune("([{<\"'*_`“‘«„|", r) {
			break
		}
		s += n
	}
	for s < e {
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		switch {
		case strings.ContainsRune(".,;:!?\"'*_`>|", r), r == '”', r == '’', r == '»', r == '…':
			e -= n
		case r == ')' || r == ']' || r == '}':
			open := map[rune]string{')': "(", ']': "[", '}': "{"}[r]
			if strings.Count(text[s:e], open) >= strings.Count(text[s:e], string(r)) {
				return s, e
			}
			e -= n
		default:
			return s, e
		}
	}
	return s, e
}

// normalize undoes what a text does to a citation it writes: HTML's
// "&amp;" and Markdown's backslash escapes, a URI encoded whole, the case
// of an external link's scheme and host, and "agentero://" (a made-up
// scheme some agents add) before a vault path.
func normalize(raw string) string {
	s := strings.NewReplacer("&amp;", "&", "&#38;", "&", "&#x26;", "&").Replace(raw)
	if strings.Contains(s, `\`) {
		s = unescapeMarkdown(s)
	}
	for _, p := range externalPrefixes {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			s = p + s[len(p):]
		}
	}
	if rest, ok := cutFold(s, "agentero://"); ok && !isAppLink(s) {
		s = rest
	}
	if !strings.ContainsAny(s, "/#") && (containsFold(s, "%2f") || containsFold(s, "%23")) {
		if d, err := url.PathUnescape(s); err == nil {
			s = d
		}
	}
	return s
}

// isAppLink reports whether s is an agentero://open link (or another
// agentero: URL than a vault path after "agentero://"), which package
// applink reads.
func isAppLink(s string) bool {
	rest, ok := cutFold(s, "agentero:")
	if !ok {
		return false
	}
	after, ok := strings.CutPrefix(rest, "//")
	return !ok || len(after) >= 4 && strings.EqualFold(after[:4], "open")
}

// papersDir is the vault's folder of papers (vault.PapersDir): a path in
// it is a paper, or a file of one, whatever its form.
const papersDir = "papers/"

// looksCited reports whether a URI written bare, in brackets or in angle
// brackets is meant as one: an external link, a path with a fragment, a
// path in the papers folder, or a path of a file in a folder.
func looksCited(u URI) bool {
	if u.External() {
		return true
	}
	if u.Page > 0 || u.Quote != "" || u.Label != "" || strings.HasPrefix(u.Path, papersDir) {
		return true
	}
	if !strings.Contains(u.Path, "/") {
		return false
	}
	return fileExt(u.Path)
}

// fileExt reports whether p ends in a file's extension: a dot, then one
// to eight letters and digits.
func fileExt(p string) bool {
	ext := path.Ext(p)
	return len(ext) > 1 && len(ext) <= 9 && strings.IndexFunc(ext[1:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0
}

// meant reports whether s, which does not parse, is still written as a
// citation of the vault (one that is broken): a link's target that is
// neither another kind of link nor a heading of the same text, or a
// relative path that looks like a vault file's (see looksCited) or
// Agentero's own state.
func meant(s string, link bool) bool {
	if s == "" || hasScheme(s) {
		return false
	}
	if link {
		return !strings.HasPrefix(s, "#")
	}
	if strings.ContainsFunc(s, unicode.IsSpace) {
		return false
	}
	p, frag, _ := strings.Cut(s, "#")
	if !strings.Contains(p, "/") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return false
	}
	return fileExt(p) || strings.HasPrefix(p, papersDir) || strings.HasPrefix(p, ".agentero/") ||
		strings.Contains(frag, "page=") || strings.Contains(frag, "quote=")
}

// Markdown's blocks that hold no citations.
var (
	fenceRE = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	defRE   = regexp.MustCompile(`(?m)^[ \t]{0,3}\[([^\[\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)[^\n]*$`)
)

// fences returns the byte ranges of fenced code blocks.
func fences(text string) [][2]int {
	var out [][2]int
	open, start := "", 0
	for _, ln := range Lines(text) {
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

// Lines returns the byte range of each line of text, without its newline.
func Lines(text string) [][2]int {
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

// definitions reads the link reference definitions of a text ("[label]:
// destination"), outside code blocks: the destination of each label (the
// first definition of a label counts), and the byte ranges of the
// definitions' lines.
func definitions(text string, code [][2]int) (map[string]string, [][2]int) {
	defs := map[string]string{}
	var out [][2]int
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
		out = append(out, [2]int{m[0], m[1]})
	}
	return defs, out
}

// normLabel is a reference label as Markdown matches it: case and inner
// white space do not matter.
func normLabel(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// unescapeMarkdown drops the backslashes before ASCII punctuation, as
// Markdown reads them.
func unescapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(markdownEscapable, s[i+1]) >= 0 {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

const markdownEscapable = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func containsFold(s, sub string) bool { return strings.Contains(strings.ToLower(s), sub) }
