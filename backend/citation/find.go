package citation

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cited is a citation a text holds, where it holds it.
type Cited struct {
	URI URI
	// Raw is the citation as the text wrote it: a link's target, or the
	// bare URI without the brackets and punctuation around it.
	Raw string
	// Start and End are the byte span of the whole citation in the text:
	// a Markdown link [text](target) whole, <uri> and [uri] with their
	// brackets, a bare URI alone.
	Start, End int
	Text       string // a Markdown link's text; "" for the other forms
}

// Find finds the citations a text holds, in the order it holds them, in
// the forms answers and notes write them: Markdown link targets
// ([p. 6](papers/raft/paper.pdf#page=6)), angle-bracketed (<…>) and
// bracketed ([papers/…#page=8]) URIs, and bare URIs. A bare URI counts
// only when it looks like one: a vault path of a file (with a "/" and an
// extension, or a fragment) or an external link. Markdown's escapes and
// HTML's "&amp;" are undone, and so is a URI percent-encoded whole
// (papers%2Fraft%2Fpaper.pdf%23page%3D5).
func Find(text string) []Cited {
	var out []Cited
	taken := make([]bool, len(text)) // bytes of citations found
	add := func(c Cited) {
		out = append(out, c)
		for k := c.Start; k < c.End; k++ {
			taken[k] = true
		}
	}
	covered := func(i int) bool { return taken[i] }
	// Markdown links and bracketed URIs.
	for i := 0; i < len(text); i++ {
		if text[i] != '[' || i > 0 && (text[i-1] == '\\' || text[i-1] == '!') {
			continue
		}
		close := matching(text, i, '[', ']')
		if close < 0 {
			continue
		}
		label := text[i+1 : close]
		if close+1 < len(text) && text[close+1] == '(' {
			end := matching(text, close+1, '(', ')')
			if end < 0 {
				continue
			}
			target := linkTarget(text[close+2 : end])
			if u, ok := parseFound(target); ok {
				add(Cited{URI: u, Raw: target, Start: i, End: end + 1, Text: label})
				i = end
			}
			continue
		}
		raw := strings.TrimSpace(label)
		if u, ok := parseFound(raw); ok && looksCited(raw, u) {
			add(Cited{URI: u, Raw: raw, Start: i, End: close + 1})
			i = close
		}
	}
	// Angle brackets.
	for i := 0; i < len(text); i++ {
		if text[i] != '<' || covered(i) {
			continue
		}
		end := strings.IndexAny(text[i+1:min(len(text), i+1+MaxLength)], "<>\n")
		if end < 0 || text[i+1+end] != '>' {
			continue
		}
		raw := text[i+1 : i+1+end]
		if u, ok := parseFound(raw); ok && looksCited(raw, u) {
			add(Cited{URI: u, Raw: raw, Start: i, End: i + end + 2})
		}
	}
	// Bare URIs: runs of text without white space.
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) || covered(i) {
			i += n
			continue
		}
		j := i
		for j < len(text) && !covered(j) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += n
		}
		s, e := trimToken(text, i, j)
		if s < e {
			raw := text[s:e]
			if u, ok := parseFound(raw); ok && looksCited(raw, u) {
				add(Cited{URI: u, Raw: raw, Start: s, End: e})
			}
		}
		i = j
	}
	sortCited(out)
	return out
}

// matching is the index of the bracket that closes the one at i, nested
// brackets counted, in the same paragraph and at most maxLink bytes on;
// -1 when none.
func matching(text string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(text) && j < i+maxLink; j++ {
		switch text[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		case '\n':
			if j+1 < len(text) && text[j+1] == '\n' {
				return -1
			}
		}
	}
	return -1
}

// maxLink is the longest Markdown link (text and target) looked at.
const maxLink = 4 << 10

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
	for s < e && strings.IndexByte("([{<\"'*_`", text[s]) >= 0 {
		s++
	}
	for s < e {
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		switch {
		case strings.ContainsRune(".,;:!?\"'*_`>", r), r == '”', r == '’', r == '»', r == '…':
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

// parseFound parses a citation as a text writes it: HTML's "&amp;" and
// Markdown's backslash escapes undone, a URI encoded whole decoded, the
// scheme and host of an external link in any case, and a vault path
// written after "agentero://" (a made-up scheme some agents add) taken
// as the path.
func parseFound(raw string) (URI, bool) {
	s := strings.NewReplacer("&amp;", "&", "&#38;", "&", "&#x26;", "&").Replace(raw)
	if strings.Contains(s, `\`) {
		s = unescapeMarkdown(s)
	}
	for _, p := range externalPrefixes {
		if len(s) > len(p) && strings.EqualFold(s[:len(p)], p) {
			s = p + s[len(p):]
		}
	}
	if rest, ok := cutFold(s, "agentero://"); ok && !strings.HasPrefix(rest, "open") {
		s = rest
	}
	if !strings.ContainsAny(s, "/#") && (containsFold(s, "%2f") || containsFold(s, "%23")) {
		if d, err := url.PathUnescape(s); err == nil {
			s = d
		}
	}
	u, err := Parse(s)
	return u, err == nil
}

// looksCited reports whether a URI written bare (or in angle brackets)
// is meant as one: an external link, or a path with a fragment, or a
// path of a file in a folder.
func looksCited(raw string, u URI) bool {
	if u.External() {
		return true
	}
	if u.Page > 0 || u.Quote != "" || u.Label != "" {
		return true
	}
	if !strings.Contains(u.Path, "/") {
		return false
	}
	ext := path.Ext(u.Path)
	return len(ext) > 1 && len(ext) <= 9 && strings.IndexFunc(ext[1:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) < 0
}

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

func sortCited(cs []Cited) {
	slices.SortStableFunc(cs, func(a, b Cited) int { return a.Start - b.Start })
}
