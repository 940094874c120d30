package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/quote"
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

// keyOf is what a citation points at, whatever its encoding, label or
// quote: a file and a page (0 for the whole file), or an external link
// (compared in lower case, as DOIs are).
func keyOf(u citation.URI) citation.Key {
	k := u.Key()
	k.URL = strings.ToLower(k.URL)
	return k
}

// candidate is something the answer may cite: a card of the prompt's
// evidence or a citation a tool returned.
type candidate struct {
	uri   string // as the card or the tool wrote it
	ref   string // the paper or source it belongs to
	quote string // the card's quoted text (evidence cards)
	cite  citation.URI
	key   citation.Key
}

func newCandidate(uri, ref, quote string) (candidate, bool) {
	u, err := citation.Parse(uri)
	if err != nil {
		return candidate{}, false
	}
	return candidate{uri: uri, ref: ref, quote: quote, cite: u, key: keyOf(u)}, true
}

// What a candidate is, in the order a quoted passage is credited to one:
// a page of a paper; a text file (notes); a whole paper (its title and
// abstract); a file of data (metadata.json, a .bib).
type kind int

const (
	pageKind kind = iota
	textKind
	paperKind
	dataKind
)

func (c candidate) kind() kind {
	switch {
	case c.cite.IsPDF() && c.key.Page > 0:
		return pageKind
	case c.cite.IsPDF():
		return paperKind
	case dataFiles[strings.ToLower(path.Ext(c.key.Path))]:
		return dataKind
	}
	return textKind
}

// dataFiles are the kinds of text file that hold data about papers
// (metadata.json, citation sidecars, bibliographies) rather than text a
// reader would cite: sources only when the answer quotes them.
var dataFiles = map[string]bool{".json": true, ".bib": true, ".bbl": true, ".csv": true, ".tsv": true, ".yaml": true, ".yml": true, ".toml": true, ".xml": true}

// sourcer splits what a turn could cite into what its answer uses (the
// sources) and the rest the tools returned (consulted), SPEC §6. It reads
// the passages the answer may have quoted from the index and the vault.
type sourcer struct {
	vault string
	idx   Index
}

// split returns the answer's sources, in the order the answer first uses
// them, and the citations the tools returned that it does not use, in the
// order they were returned.
//
// The answer uses a citation when its text carries the citation's URI
// (however citation.Find reads it: a link, bracketed or bare; encoded or
// not; with any quote) or quotes a passage (of minQuote letters and
// digits or more) that the locator finds on the page, or in the card or
// file, the citation names. A passage is credited to one citation: a page
// of a paper before a text file, a text file before a whole paper, a whole
// paper before a file of data; a passage that is only a paper's title
// names the paper and is no quote. A URI naming another page of a paper
// the turn could cite is a source too; a URI of anything else is not.
//
// The sources are precise: one per file and page, whatever the quotes; a
// whole paper only when the answer cites no page of it; a file of data
// (metadata.json) only when the answer quotes it.
func (s sourcer) split(ctx context.Context, answer string, evidence []plan.Card, got []returned) (sources, consulted []string) {
	var cands []candidate
	for _, c := range evidence {
		if c.CitationURI == "" {
			continue
		}
		if cd, ok := newCandidate(c.CitationURI, c.Ref, c.Quote); ok {
			cands = append(cands, cd)
		}
	}
	for _, r := range got {
		if cd, ok := newCandidate(r.URI, r.Ref, ""); ok {
			cands = append(cands, cd)
		}
	}

	type use struct {
		at  int
		uri string
	}
	used := map[citation.Key]use{}
	mark := func(k citation.Key, at int, uri string) {
		if u, ok := used[k]; !ok || at < u.at {
			used[k] = use{at, uri}
		}
	}
	files := map[citation.Key][]candidate{} // by file (or link), whatever the page
	fileOf := func(k citation.Key) citation.Key { return citation.Key{Path: k.Path, URL: k.URL} }
	for _, c := range cands {
		files[fileOf(c.key)] = append(files[fileOf(c.key)], c)
	}
	// The region of a page (a figure, a table) the answer first cites it
	// with goes with its source, so that the source outlines it.
	regions := map[citation.Key]citation.Region{}
	cited := citation.Find(answer)
	for _, m := range cited {
		k := keyOf(m.URI)
		same := files[fileOf(k)]
		if len(same) == 0 {
			continue // not something this turn could cite
		}
		if _, ok := regions[k]; !ok && !m.URI.Region.IsZero() {
			regions[k] = m.URI.Region
		}
		if c, ok := bestFor(cands, k); ok {
			if c.kind() != dataKind {
				mark(k, m.Start, c.uri)
			}
		} else if uri, ref, ok := s.pageOf(ctx, same, k); ok {
			mark(k, m.Start, uri)
			// The page is now something the answer's quotes may be from.
			if cd, ok := newCandidate(uri, ref, ""); ok {
				cands = append(cands, cd)
				files[fileOf(k)] = append(files[fileOf(k)], cd)
			}
		}
	}
	if qs := quotesIn(answer, cited); len(qs) > 0 {
		q := s.quoter(ctx, cands)
		for _, qt := range qs {
			if q.names(qt.text) {
				continue
			}
			if c, ok := q.holder(ctx, qt.text); ok {
				best, _ := bestFor(cands, c.key)
				mark(c.key, qt.at, best.uri)
			}
		}
	}
	// A whole paper only when no page of it is cited.
	for k := range used {
		if k.Page > 0 {
			delete(used, citation.Key{Path: k.Path})
		}
	}

	keys := make([]citation.Key, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := used[keys[i]], used[keys[j]]
		return a.at < b.at || a.at == b.at && a.uri < b.uri
	})
	sources, consulted = []string{}, []string{}
	for _, k := range keys {
		sources = append(sources, withRegion(used[k].uri, regions[k]))
	}
	seen := map[citation.Key]bool{}
	for _, r := range got {
		u, err := citation.Parse(r.URI)
		if err != nil {
			continue
		}
		k := keyOf(u)
		if _, ok := used[k]; ok || seen[k] {
			continue
		}
		seen[k] = true
		consulted = append(consulted, r.URI)
	}
	return sources, consulted
}

// withRegion is the source uri citing region r of its page, unless r is
// none or uri names a region already.
func withRegion(uri string, r citation.Region) string {
	u, err := citation.Parse(uri)
	if r.IsZero() || err != nil || !u.Region.IsZero() {
		return uri
	}
	return u.WithRegion(r).String()
}

// bestFor is the candidate of key k whose URI goes into the sources: one
// that carries a quote to highlight when there is one, else the first.
func bestFor(cands []candidate, k citation.Key) (candidate, bool) {
	var first *candidate
	for i := range cands {
		c := &cands[i]
		if c.key != k {
			continue
		}
		if c.cite.Quote != "" {
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

// pageOf is the citation of page k.Page of a paper's PDF that the turn
// could cite other pages of, when the paper has that page, and the
// paper's ref.
func (s sourcer) pageOf(ctx context.Context, same []candidate, k citation.Key) (uri, ref string, ok bool) {
	if k.Page == 0 || k.URL != "" || !strings.EqualFold(path.Ext(k.Path), ".pdf") {
		return "", "", false
	}
	for _, c := range same {
		if c.ref == "" {
			continue
		}
		p, err := s.idx.Paper(ctx, c.ref)
		if err == nil && p.PDFPath == k.Path && k.Page <= p.Pages {
			return citation.New(k.Path, k.Page, "").String(), c.ref, true
		}
	}
	return "", "", false
}

// quoter finds the passages an answer quotes in what its candidates name,
// through the one locator. Texts are read once each, when first needed.
type quoter struct {
	s      sourcer
	cands  []candidate
	papers map[citation.Key][]*quote.Paper // the texts of each key: its page, file or paper, and its cards' quotes
	titles []string                        // the folded titles of the papers the turn could cite
}

func (s sourcer) quoter(ctx context.Context, cands []candidate) *quoter {
	q := &quoter{s: s, cands: cands, papers: map[citation.Key][]*quote.Paper{}}
	seen := map[string]bool{}
	for _, c := range cands {
		if c.ref == "" || !c.cite.IsPDF() || seen[c.ref] {
			continue
		}
		seen[c.ref] = true
		if p, err := s.idx.Paper(ctx, c.ref); err == nil && p.Title != "" {
			q.titles = append(q.titles, quote.Fold(p.Title))
		}
	}
	return q
}

// names reports whether a quoted passage is only (a part of) a paper's
// title: the answer names the paper, it quotes nothing of it.
func (q *quoter) names(passage string) bool {
	f := quote.Fold(passage)
	for _, t := range q.titles {
		if strings.Contains(t, f) {
			return true
		}
	}
	return false
}

// holder is the candidate a passage is credited to: the first, in the
// turn's order, of the first kind that holds it.
func (q *quoter) holder(ctx context.Context, passage string) (candidate, bool) {
	for k := pageKind; k <= dataKind; k++ {
		for _, c := range q.cands {
			if c.kind() != k {
				continue
			}
			for _, p := range q.texts(ctx, c) {
				if _, ok := p.Find(p.Pages()[0].Number, passage); ok {
					return c, true
				}
			}
		}
	}
	return candidate{}, false
}

// texts are what a candidate's key stands for, ready for the locator:
// its page (with the next, for a passage that runs over), its file, or
// its paper's title and abstract; and the quotes of its cards.
func (q *quoter) texts(ctx context.Context, c candidate) []*quote.Paper {
	if ps, ok := q.papers[c.key]; ok {
		return ps
	}
	var ps []*quote.Paper
	if pages := q.s.textOf(ctx, c); len(pages) > 0 {
		ps = append(ps, quote.NewPaper(pages))
	}
	for _, o := range q.cands {
		if o.key == c.key && o.quote != "" {
			ps = append(ps, quote.NewPaper([]quote.Page{{Number: 1, Text: o.quote}}))
		}
	}
	q.papers[c.key] = ps
	return ps
}

// textOf is the text a candidate stands for: its page and the next, its
// file, or its paper's title and abstract; none when it cannot be read.
func (s sourcer) textOf(ctx context.Context, c candidate) []quote.Page {
	k := c.key
	switch {
	case k.URL != "":
		return nil
	case c.cite.IsPDF():
		if c.ref == "" {
			return nil
		}
		if k.Page > 0 {
			var out []quote.Page
			for n := k.Page; n <= k.Page+1; n++ {
				text, _, err := s.idx.PageText(ctx, c.ref, n)
				if err != nil {
					break
				}
				out = append(out, quote.Page{Number: n, Text: text})
			}
			return out
		}
		p, err := s.idx.Paper(ctx, c.ref)
		if err != nil {
			return nil
		}
		return []quote.Page{{Number: 1, Text: p.Title + "\n" + p.Abstract}}
	default:
		text, err := vault.ReadText(ctx, s.vault, k.Path)
		if err != nil {
			return nil
		}
		return []quote.Page{{Number: 1, Text: text}}
	}
}

// Quoted passages: a quote shorter than minQuote letters and digits is a
// phrase, not a passage; pieces of a quote cut with "…" (or by a citation
// inside it) shorter than minPiece are not looked for.
const (
	minQuote = 30
	minPiece = 20
)

// quoteAt is a passage an answer quotes: its pieces to look for, joined by
// ellipses, as the locator reads them.
type quoteAt struct {
	at   int
	text string
}

var (
	quoteMarks = []*regexp.Regexp{
		regexp.MustCompile(`“([^”]+)”`),
		regexp.MustCompile(`«([^»]+)»`),
		regexp.MustCompile(`"([^"\n]+)"`),
		regexp.MustCompile(`(?m)((?:^[ \t]*>[^\n]*(?:\n|$))+)`), // a Markdown block quote
	}
	quoteLead = regexp.MustCompile(`(?m)^[ \t]*>`)
	// ellipses are the cuts of a quote a text may write.
	ellipses = regexp.MustCompile(`\[?(?:…|\.\.\.)\]?`)
)

// quotesIn finds the passages an answer quotes: text in “…”, «…» or
// "…", and Markdown block quotes. The citations the answer holds (cited)
// cut a quote where they stand in it, as ellipses do.
func quotesIn(text string, cited []citation.Cited) []quoteAt {
	var out []quoteAt
	for _, re := range quoteMarks {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			var body strings.Builder
			at := m[2]
			for _, c := range cited {
				if c.End <= at || c.Start >= m[3] {
					continue
				}
				body.WriteString(text[at:max(c.Start, at)])
				body.WriteString(" … ")
				at = min(c.End, m[3])
			}
			body.WriteString(text[at:m[3]])
			b := quoteLead.ReplaceAllString(body.String(), " ")
			var pieces []string
			total := 0
			for _, p := range ellipses.Split(b, -1) {
				f := quote.Fold(p)
				total += len(f)
				if len(f) >= minPiece {
					pieces = append(pieces, strings.TrimSpace(p))
				}
			}
			if total >= minQuote && len(pieces) > 0 {
				out = append(out, quoteAt{at: m[0], text: strings.Join(pieces, " … ")})
			}
		}
	}
	return out
}
