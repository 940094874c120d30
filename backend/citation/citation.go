// Package citation is the one citation URI of Agentero (SPEC §1): where a
// piece of evidence is, written by the index, the MCP servers and the host,
// read by the host, the claim check, exports, links and (through the
// generated bindings) the UI:
//
//	papers/raft/paper.pdf#page=6&quote=randomized+election+timeouts
//	papers/raft/paper.pdf#page=3&region=72,96.5,230,180
//
// a vault-relative file, then optionally the 1-based physical page, the
// printed page label when it is not the page number, a region of the page
// (a figure or a table: x,y,width,height in PDF points from the page's
// top-left) and the first words of a quote. The only external citations are https://doi.org/… and
// https://arxiv.org/abs/… links. It imports nothing of Agentero.
package citation

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URI is a parsed citation: a vault file (Path) with an optional page,
// label and quote, or an external link (URL, and nothing else).
type URI struct {
	Path  string `json:"path"`            // vault-relative, "/"-separated, decoded; "" for an external link
	Page  int    `json:"page"`            // 1-based physical page; 0 when the URI names none
	Label string `json:"label,omitempty"` // the page's printed label, "" when none or the page number
	Quote string `json:"quote,omitempty"` // the quoted words, decoded; "" when none
	URL   string `json:"url,omitempty"`   // an external link (doi.org, arxiv.org); the other fields are empty
	// Region is the part of the page cited (a figure, a table); zero when
	// the URI names none. It never changes what the URI points at (Key).
	Region Region `json:"region,omitzero"`
}

// Limits of what a URI may hold.
const (
	MaxPage   = 100_000 // no PDF is longer
	MaxQuote  = 1200    // characters of a quote (SPEC §11)
	MaxLength = 16 << 10
)

// ErrInvalid is wrapped by every error Parse returns. The errors say what
// is wrong without echoing the input, which may come from an agent.
var ErrInvalid = errors.New("not a citation URI")

func invalid(why string) error { return fmt.Errorf("%w: %s", ErrInvalid, why) }

// External link prefixes a citation may carry (SPEC §1).
var externalPrefixes = []string{"https://doi.org/", "https://arxiv.org/abs/"}

// New is the citation of page (0: the whole file) of file, with quote.
func New(file string, page int, quote string) URI {
	return URI{Path: file, Page: max(page, 0), Quote: quote}
}

// IsExternal reports whether s is one of the external links a citation
// may be: a DOI or an arXiv page.
func IsExternal(s string) bool {
	for _, p := range externalPrefixes {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			return true
		}
	}
	return false
}

// Parse reads a citation URI. The path may be percent-encoded; the fragment
// holds page=N, label=…, region=x,y,width,height and quote=… (each at most
// once, joined by "&"; a quote's "+" is a space, as url.QueryEscape writes
// it). Anything else, a path that leaves the vault or names a hidden file,
// a page outside 1..MaxPage and a region that is not four numbers are
// refused. A region that can lie on no page (ParseRegion), or given
// without a page, is dropped: the page is still cited.
func Parse(s string) (URI, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return URI{}, invalid("it is empty")
	case len(s) > MaxLength:
		return URI{}, invalid("it is too long")
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return URI{}, invalid("it holds control characters or invalid text")
	}
	if hasScheme(s) {
		if IsExternal(s) && !strings.ContainsFunc(s, unicode.IsSpace) {
			return URI{URL: s}, nil
		}
		return URI{}, invalid("the only links a citation may be are https://doi.org/… and https://arxiv.org/abs/…")
	}
	rawPath, frag, hasFrag := strings.Cut(s, "#")
	p, err := parsePath(rawPath)
	if err != nil {
		return URI{}, err
	}
	u := URI{Path: p}
	if !hasFrag {
		return u, nil
	}
	if frag == "" {
		return URI{}, invalid("its fragment is empty")
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(frag, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return URI{}, invalid("its fragment may hold only page=N, label=…, region=… and quote=…")
		}
		if seen[k] {
			return URI{}, invalid(fmt.Sprintf("%s is given twice", safeKey(k)))
		}
		seen[k] = true
		switch k {
		case "page":
			n, err := strconv.Atoi(v)
			if err != nil || v != strconv.Itoa(n) || n < 1 || n > MaxPage {
				return URI{}, invalid("its page must be a whole number from 1")
			}
			u.Page = n
		case "region":
			r, ok, err := ParseRegion(v)
			if err != nil {
				return URI{}, err
			}
			if ok {
				u.Region = r
			}
		case "label", "quote":
			d, err := url.QueryUnescape(v)
			if err != nil || !utf8.ValidString(d) || strings.ContainsFunc(d, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }) {
				return URI{}, invalid(fmt.Sprintf("its %s is not validly encoded", k))
			}
			d = strings.TrimSpace(d)
			if k == "label" {
				u.Label = d
			} else {
				if utf8.RuneCountInString(d) > MaxQuote {
					return URI{}, invalid(fmt.Sprintf("its quote is longer than %d characters", MaxQuote))
				}
				u.Quote = d
			}
		default:
			return URI{}, invalid("its fragment may hold only page=N, label=…, region=… and quote=…")
		}
	}
	if u.Label == strconv.Itoa(u.Page) {
		u.Label = ""
	}
	if u.Page == 0 {
		u.Region = Region{}
	}
	return u, nil
}

// safeKey is a fragment key as an error may repeat it.
func safeKey(k string) string {
	switch k {
	case "page", "label", "region", "quote":
		return k
	}
	return "a key"
}

// hasScheme reports whether s starts with a URL scheme ("https:").
func hasScheme(s string) bool {
	for i, r := range s {
		switch {
		case r == ':':
			return i > 0
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return false
}

// parsePath decodes a URI's path and checks that it stays inside the vault
// and out of hidden folders (.agentero/).
func parsePath(raw string) (string, error) {
	if raw == "" {
		return "", invalid("it names no file")
	}
	if strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "~") || strings.Contains(raw, "\\") {
		return "", invalid("its path must be relative to the vault")
	}
	parts := strings.Split(raw, "/")
	for i, part := range parts {
		d, err := url.PathUnescape(part)
		if err != nil {
			return "", invalid("its path is not validly encoded")
		}
		switch {
		case d == "" || d == "." || d == "..":
			return "", invalid("its path must be a plain path inside the vault")
		case strings.ContainsAny(d, "/\\") || !utf8.ValidString(d) || strings.ContainsFunc(d, unicode.IsControl):
			return "", invalid("its path must be a plain path inside the vault")
		case strings.HasPrefix(d, "."):
			return "", invalid("its path names a hidden file or folder")
		}
		parts[i] = d
	}
	p := strings.Join(parts, "/")
	if path.Clean(p) != p {
		return "", invalid("its path must be a plain path inside the vault")
	}
	return p, nil
}

// String writes the URI; Parse(u.String()) gives u back. Characters that
// would end a path in Markdown or a URL (space, "#", "?", "%", brackets,
// quotes) are percent-encoded in the path; other text stays as it is, so
// that a path reads as the folder it names.
func (u URI) String() string {
	if u.URL != "" {
		return u.URL
	}
	var b strings.Builder
	for i, part := range strings.Split(u.Path, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(escapeSegment(part))
	}
	sep := "#"
	if u.Page > 0 {
		b.WriteString("#page=" + strconv.Itoa(u.Page))
		sep = "&"
	}
	if u.Label != "" && u.Label != strconv.Itoa(u.Page) {
		b.WriteString(sep + "label=" + url.QueryEscape(u.Label))
		sep = "&"
	}
	if u.Page > 0 && !u.Region.IsZero() {
		b.WriteString(sep + "region=" + u.Region.String())
		sep = "&"
	}
	if u.Quote != "" {
		b.WriteString(sep + "quote=" + url.QueryEscape(u.Quote))
	}
	return b.String()
}

func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte("%#?()[]<>\"'`{}|^&", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// External reports whether u is an external link.
func (u URI) External() bool { return u.URL != "" }

// IsPDF reports whether u names a PDF.
func (u URI) IsPDF() bool { return strings.EqualFold(path.Ext(u.Path), ".pdf") }

// Key is what a citation points at, whatever its quote or label: two
// citations with one key open the same place.
type Key struct {
	Path string
	Page int
	URL  string
}

// Key is u's file (or link) and page.
func (u URI) Key() Key { return Key{Path: u.Path, Page: u.Page, URL: u.URL} }

// PageLabel is how the page is named to a reader: its printed label when
// it has one, else its number; "" when u names no page.
func (u URI) PageLabel() string {
	switch {
	case u.Page == 0:
		return ""
	case u.Label != "":
		return u.Label
	}
	return strconv.Itoa(u.Page)
}

// Opening is the start of a quote as a URI carries it: its first ten
// words, at most a hundred characters. The locator finds a passage by
// them; the rest is for the tools to read.
func Opening(s string) string {
	w := strings.Fields(s)
	if len(w) > 10 {
		w = w[:10]
	}
	out := strings.Join(w, " ")
	if r := []rune(out); len(r) > 100 {
		out = string(r[:100])
	}
	return out
}
