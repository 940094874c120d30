package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/vault"
)

// Index is what the host reads of the vault's index: papers for plans,
// and page texts to find the passages an answer quotes.
type Index interface {
	plan.Papers
	PageText(ctx context.Context, ref string, page int) (text, label string, err error)
}

// returned is one citation a tool of the turn returned: a line of
// usage.jsonl (SPEC §4).
type returned struct {
	URI string `json:"citationUri"`
	Ref string `json:"ref"`
}

// readUsage reads the citations the MCP server returned since offset in
// usage.jsonl: de-duplicated, in first-use order.
func readUsage(path string, offset int64) ([]returned, error) {
	var out []returned
	f, err := atomicfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return out, err
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line returned
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.URI == "" || seen[line.URI] {
			continue
		}
		seen[line.URI] = true
		out = append(out, line)
	}
	return out, sc.Err()
}

// citeKey is what a citation points at, whatever its encoding or quote:
// a vault file (or an external URL) and a page (0 for the whole file).
type citeKey struct {
	file string
	page int
}

// keyOf is the key of a citation URI as the tools write it.
func keyOf(uri string) citeKey {
	file, frag, _ := strings.Cut(uri, "#")
	return citeKey{file: file, page: fragmentPage(frag)}
}

// fragmentPage reads page=N out of a citation's fragment, 0 when absent.
func fragmentPage(frag string) int {
	for _, p := range strings.FieldsFunc(frag, func(r rune) bool { return r == '&' || r == ';' }) {
		if v, ok := strings.CutPrefix(p, "page="); ok {
			end := 0
			for end < len(v) && v[end] >= '0' && v[end] <= '9' {
				end++
			}
			if n, err := strconv.Atoi(v[:end]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// candidate is something the answer may cite: a card of the prompt's
// evidence or a citation a tool returned.
type candidate struct {
	uri   string
	ref   string // the paper or source it belongs to
	quote string // the card's quoted text (evidence cards)
	key   citeKey
}

// sourcer splits what a turn could cite into what its answer uses (the
// sources) and the rest the tools returned (consulted), SPEC §6. It reads
// the passages the answer may have quoted from the index and the vault.
type sourcer struct {
	vault string
	idx   Index
}

// split returns the answer's sources, in the order the answer uses them,
// and the citations the tools returned that it does not use, in the order
// they were returned.
//
// The answer uses a citation when its text carries the citation's URI (as
// a link or bare; encoded or not; with any quote in its fragment) or
// quotes a passage (of minQuote letters and digits or more) found in the
// card or page the citation names. A URI naming another page of a file
// the turn could cite is a source too; a URI of anything else is not.
func (s sourcer) split(ctx context.Context, answer string, evidence []plan.Card, got []returned) (sources, consulted []string) {
	var cands []candidate
	for _, c := range evidence {
		if c.CitationURI != "" {
			cands = append(cands, candidate{uri: c.CitationURI, ref: c.Ref, quote: c.Quote, key: keyOf(c.CitationURI)})
		}
	}
	for _, r := range got {
		cands = append(cands, candidate{uri: r.URI, ref: r.Ref, key: keyOf(r.URI)})
	}
	text := decodeAnswer(answer)

	type use struct {
		at  int
		uri string
	}
	used := map[citeKey]use{}
	mark := func(k citeKey, at int, uri string) {
		if u, ok := used[k]; !ok || at < u.at {
			used[k] = use{at, uri}
		}
	}
	files := map[string][]candidate{}
	for _, c := range cands {
		files[c.key.file] = append(files[c.key.file], c)
	}
	for _, m := range citationsIn(text, keysOf(files)) {
		if c, ok := bestFor(cands, m.key); ok {
			mark(m.key, m.at, c.uri)
		} else if uri, ok := s.pageOf(ctx, files[m.key.file], m.key); ok {
			mark(m.key, m.at, uri)
		}
	}
	if qs := quotesIn(text); len(qs) > 0 {
		texts := map[citeKey]string{}
		for _, c := range cands {
			if _, done := texts[c.key]; !done {
				texts[c.key] = fold(s.textOf(ctx, c))
			}
			if c.quote != "" {
				texts[c.key] += fold(c.quote)
			}
		}
		for _, q := range qs {
			for _, c := range cands {
				if quoted(q.pieces, texts[c.key]) {
					best, _ := bestFor(cands, c.key)
					mark(c.key, q.at, best.uri)
				}
			}
		}
	}

	keys := make([]citeKey, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := used[keys[i]], used[keys[j]]
		return a.at < b.at || a.at == b.at && a.uri < b.uri
	})
	sources, consulted = []string{}, []string{}
	for _, k := range keys {
		sources = append(sources, used[k].uri)
	}
	seen := map[citeKey]bool{}
	for _, r := range got {
		k := keyOf(r.URI)
		if _, ok := used[k]; ok || seen[k] {
			continue
		}
		seen[k] = true
		consulted = append(consulted, r.URI)
	}
	return sources, consulted
}

func keysOf(files map[string][]candidate) []string {
	out := make([]string, 0, len(files))
	for f := range files {
		out = append(out, f)
	}
	return out
}

// bestFor is the candidate of key k whose URI goes into the sources: one
// that carries a quote to highlight when there is one, else the first.
func bestFor(cands []candidate, k citeKey) (candidate, bool) {
	var first *candidate
	for i := range cands {
		c := &cands[i]
		if c.key != k {
			continue
		}
		if strings.Contains(c.uri, "quote=") {
			return *c, true
		}
		if first == nil {
			first = c
		}
	}
	if first == nil {
		return candidate{}, false
	}
	return *first, true
}

// pageOf is the citation of page k.page of a paper's PDF that the turn
// could cite other pages of, when the paper has that page.
func (s sourcer) pageOf(ctx context.Context, same []candidate, k citeKey) (string, bool) {
	if k.page == 0 || len(same) == 0 || !strings.HasSuffix(strings.ToLower(k.file), ".pdf") {
		return "", false
	}
	for _, c := range same {
		if c.ref == "" {
			continue
		}
		p, err := s.idx.Paper(ctx, c.ref)
		if err == nil && p.PDFPath == k.file && k.page <= p.Pages {
			return k.file + "#page=" + strconv.Itoa(k.page), true
		}
	}
	return "", false
}

// textOf is the text a candidate stands for: its page, its file, or its
// paper's title and abstract; "" when it cannot be read.
func (s sourcer) textOf(ctx context.Context, c candidate) string {
	k := c.key
	switch {
	case strings.HasPrefix(k.file, "https://"):
		return ""
	case strings.HasSuffix(strings.ToLower(k.file), ".pdf"):
		if c.ref == "" {
			return ""
		}
		if k.page > 0 {
			text, _, err := s.idx.PageText(ctx, c.ref, k.page)
			if err != nil {
				return ""
			}
			return text
		}
		p, err := s.idx.Paper(ctx, c.ref)
		if err != nil {
			return ""
		}
		return p.Title + "\n" + p.Abstract
	default:
		text, err := vault.ReadText(ctx, s.vault, k.file)
		if err != nil {
			return ""
		}
		return text
	}
}

// citeAt is a citation found in an answer, at a byte offset of its text.
type citeAt struct {
	at  int
	key citeKey
}

// citationsIn finds where the answer names one of files (vault paths or
// external URLs), and the page its fragment names. A name counts only as
// a whole path: not when it continues a longer name before or after.
func citationsIn(text string, files []string) []citeAt {
	var out []citeAt
	lower := strings.ToLower(text)
	for _, f := range files {
		hay, needle := text, f
		if strings.HasPrefix(f, "https://") {
			hay, needle = lower, strings.ToLower(f)
		}
		for from := 0; ; {
			i := strings.Index(hay[from:], needle)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(needle)
			from = end
			if start > 0 && pathByte(hay[start-1]) && hay[start-1] != '/' {
				continue
			}
			if end < len(hay) && (pathByte(hay[end]) && hay[end] != '.' || hay[end] == '.' && end+1 < len(hay) && pathByte(hay[end+1])) {
				continue
			}
			k := citeKey{file: f}
			if end < len(hay) && hay[end] == '#' {
				frag := hay[end+1:]
				if j := strings.IndexFunc(frag, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(")]>\"'`<,", r) }); j >= 0 {
					frag = frag[:j]
				}
				k.page = fragmentPage(frag)
			}
			out = append(out, citeAt{at: start, key: k})
		}
	}
	return out
}

// pathByte reports whether b can continue a path or a name.
func pathByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("._-/", b) >= 0 || b >= 0x80
}

// decodeAnswer undoes what a Markdown answer may have done to citation
// URIs: HTML entities for '&' and percent-encoding (where it is valid).
func decodeAnswer(s string) string {
	s = strings.NewReplacer("&amp;", "&", "&#38;", "&", "&#x26;", "&").Replace(s)
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }

// Quoted passages: a quote shorter than minQuote letters and digits is a
// phrase, not a passage; pieces of a quote cut with "…" shorter than
// minPiece are not looked for.
const (
	minQuote = 30
	minPiece = 20
)

// quoteAt is a passage an answer quotes, as the folded pieces to look for.
type quoteAt struct {
	at     int
	pieces []string
}

var (
	quoteMarks = []*regexp.Regexp{
		regexp.MustCompile(`“([^”]+)”`),
		regexp.MustCompile(`«([^»]+)»`),
		regexp.MustCompile(`"([^"\n]+)"`),
		regexp.MustCompile(`(?m)((?:^[ \t]*>[^\n]*(?:\n|$))+)`), // a Markdown block quote
	}
	quoteLead = regexp.MustCompile(`(?m)^[ \t]*>`)
	// cutMarks separate the pieces of a quote: ellipses, and links or
	// bare citations inside it.
	cutMarks = regexp.MustCompile(`\[[^\]]*\]\([^)]*\)|\S*#page=\S*|\S+\.pdf\b|\[?(?:…|\.\.\.)\]?`)
)

// quotesIn finds the passages an answer quotes: text in “…”, «…» or
// "…", and Markdown block quotes.
func quotesIn(text string) []quoteAt {
	var out []quoteAt
	for _, re := range quoteMarks {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			body := text[m[2]:m[3]]
			body = quoteLead.ReplaceAllString(body, " ")
			var pieces []string
			total := 0
			for _, p := range cutMarks.Split(body, -1) {
				f := fold(p)
				total += len(f)
				if len(f) >= minPiece {
					pieces = append(pieces, f)
				}
			}
			if total >= minQuote && len(pieces) > 0 {
				out = append(out, quoteAt{at: m[0], pieces: pieces})
			}
		}
	}
	return out
}

// quoted reports whether every piece of a quote is in a folded text.
func quoted(pieces []string, text string) bool {
	if text == "" {
		return false
	}
	for _, p := range pieces {
		if !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

// fold keeps a text's letters and digits, lower-cased, with ligatures
// spelled out: what a quote and its page have in common however either was
// spaced, hyphenated at line ends or punctuated.
//
// (One text folding belongs in one place; this one moves to the shared
// text package when it lands.)
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'ﬁ':
			b.WriteString("fi")
		case 'ﬂ':
			b.WriteString("fl")
		case 'ﬀ':
			b.WriteString("ff")
		case 'ﬃ':
			b.WriteString("ffi")
		case 'ﬄ':
			b.WriteString("ffl")
		default:
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(unicode.ToLower(r))
			}
		}
	}
	return b.String()
}
