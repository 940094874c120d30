package mcp

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/index"
)

// paper_relations serves what the index already knows (SPEC §5 builds real
// reference lists later): identifiers and titles found in page text.

type relationsInput struct {
	Ref   string `json:"ref"`
	Kind  string `json:"kind"`
	Limit *int   `json:"limit"`
}

// relCard is a thin card for a library paper (SPEC §13).
type relCard struct {
	Title       string `json:"title"`
	Year        int    `json:"year"`
	DOI         string `json:"doi"`
	ArxivID     string `json:"arxivId"`
	PaperPath   string `json:"paperPath"`
	MatchBy     string `json:"matchBy"` // doi, arxiv, title; terms for related papers
	InGrant     bool   `json:"inGrant"` // false: context_read refuses it in this turn
	CitationURI string `json:"citationUri"`
}

type relationsResult struct {
	Ref        string     `json:"ref"`
	References *[]relCard `json:"references,omitempty"`
	CitedBy    *[]relCard `json:"citedBy,omitempty"`
	Related    *[]relCard `json:"related,omitempty"`
	cutInfo
}

const (
	defaultRelations = 10
	maxRelatedTerms  = 8
)

func (s *Server) relations(ctx context.Context, args json.RawMessage, room int) (reply, error) {
	var in relationsInput
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	if in.Ref == "" || len(in.Ref) > maxRef {
		return reply{}, errorf("ref must be a path of at most %d bytes", maxRef)
	}
	switch in.Kind {
	case "", "references", "citedBy", "related":
	default:
		return reply{}, errorf("unknown kind: use references, citedBy or related")
	}
	limit, err := limitArg(in.Limit, defaultRelations, maxLimit)
	if err != nil {
		return reply{}, err
	}
	t, err := s.resolve(ctx, in.Ref)
	if err != nil {
		return reply{}, err
	}
	if t.kind != paperTarget {
		return reply{}, errorf("relations are known for papers only: pass a paper ref")
	}
	lib, err := s.library(ctx)
	if err != nil {
		return reply{}, err
	}
	self := t.paper.Ref
	res := relationsResult{Ref: self}
	want := func(k string) bool { return in.Kind == "" || in.Kind == k }
	var lists []*[]relCard
	add := func(dst **[]relCard, found []match) {
		cards := []relCard{}
		for _, m := range found[:min(len(found), limit)] {
			cards = append(cards, s.relCard(lib.byRef[m.ref], m.by))
		}
		*dst = &cards
		lists = append(lists, *dst)
	}
	if want("references") {
		found, err := s.references(ctx, lib, self)
		if err != nil {
			return reply{}, err
		}
		add(&res.References, found)
	}
	if want("citedBy") {
		found, err := s.citedBy(ctx, lib, self)
		if err != nil {
			return reply{}, err
		}
		add(&res.CitedBy, found)
	}
	if want("related") {
		found, err := s.related(ctx, lib, self)
		if err != nil {
			return reply{}, err
		}
		add(&res.Related, found)
	}
	// Over the cap: drop cards from the end of the longest list.
	most := min(s.grant.Budget.FullChars, room-300)
	for size(res) > most {
		longest := lists[0]
		for _, l := range lists {
			if len(*l) > len(*longest) {
				longest = l
			}
		}
		if len(*longest) == 0 {
			break
		}
		*longest = (*longest)[:len(*longest)-1]
		res.cutInfo = cutInfo{Truncated: true, Note: "fewer cards than found: ask for one kind with a smaller limit"}
	}
	var cites []cite
	for _, l := range lists {
		for _, c := range *l {
			cites = append(cites, cite{c.PaperPath, c.CitationURI})
		}
	}
	return reply{value: res, cites: cites}, nil
}

func (s *Server) relCard(k index.PaperKey, by string) relCard {
	_, err := s.grant.Covering(k.PDFPath)
	return relCard{Title: k.Title, Year: k.Year, DOI: k.DOI, ArxivID: k.ArxivID, PaperPath: k.Ref, MatchBy: by,
		InGrant: err == nil, CitationURI: k.PDFPath}
}

// library is every paper's identifiers, looked up by ref, DOI, arXiv id and
// title words.
type library struct {
	byRef   map[string]index.PaperKey
	byDOI   map[string]string
	byArxiv map[string]string
	titles  map[string][]titleKey // by the first three words of a title
	words   map[string][]string   // the title words of each ref
}

type titleKey struct {
	ref   string
	words []string
}

// Titles shorter than this are too common to match by.
const (
	minTitleWords = 3
	minTitleChars = 12
)

// library loads the library's identifiers once per server: a turn is short,
// and a paper added meanwhile can wait for the next turn.
func (s *Server) library(ctx context.Context) (*library, error) {
	s.libMu.Lock()
	defer s.libMu.Unlock()
	if s.lib != nil {
		return s.lib, nil
	}
	keys, err := s.db.PaperKeys(ctx)
	if err != nil {
		return nil, err
	}
	lib := &library{byRef: map[string]index.PaperKey{}, byDOI: map[string]string{}, byArxiv: map[string]string{},
		titles: map[string][]titleKey{}, words: map[string][]string{}}
	for _, k := range keys {
		lib.byRef[k.Ref] = k
		if k.DOI != "" {
			lib.byDOI[k.DOI] = k.Ref
		}
		if k.ArxivID != "" {
			lib.byArxiv[k.ArxivID] = k.Ref
		}
		w := words(k.Title)
		lib.words[k.Ref] = w
		if len(w) >= minTitleWords && len(k.Title) >= minTitleChars {
			key := strings.Join(w[:3], " ")
			lib.titles[key] = append(lib.titles[key], titleKey{k.Ref, w})
		}
	}
	s.lib = lib
	return lib, nil
}

// words splits text into lower-case words the way the search index does.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

type match struct {
	ref, by string
}

// matches collects library papers once each, in the order found.
type matches struct {
	self string
	seen map[string]bool
	list []match
}

func (m *matches) add(ref, by string) {
	if ref == "" || ref == m.self || m.seen[ref] {
		return
	}
	m.seen[ref] = true
	m.list = append(m.list, match{ref, by})
}

var (
	newArxivID = regexp.MustCompile(`\b\d{4}\.\d{4,5}(?:v\d+)?\b`)
	oldArxivID = regexp.MustCompile(`\b[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?\b`)
)

// references are the library papers whose DOI, arXiv id or title this
// paper's text holds.
func (s *Server) references(ctx context.Context, lib *library, self string) ([]match, error) {
	pages, err := s.db.Pages(ctx, self, 1, maxPage)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, p := range pages {
		b.WriteString(p.Text)
		b.WriteByte('\n')
	}
	text := b.String()
	found := &matches{self: self, seen: map[string]bool{}}
	for _, d := range ident.FindDOIs(text) {
		found.add(lib.byDOI[d], "doi")
		found.add(lib.byArxiv[ident.ArxivFromDOI(d)], "arxiv")
	}
	for _, re := range []*regexp.Regexp{newArxivID, oldArxivID} {
		for _, a := range re.FindAllString(text, -1) {
			found.add(lib.byArxiv[ident.NormalizeArxiv(a)], "arxiv")
		}
	}
	w := words(text)
	for i := 0; i+minTitleWords <= len(w); i++ {
		for _, tk := range lib.titles[w[i]+" "+w[i+1]+" "+w[i+2]] {
			if i+len(tk.words) <= len(w) && equalWords(w[i:i+len(tk.words)], tk.words) {
				found.add(tk.ref, "title")
			}
		}
	}
	return found.list, nil
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// phrase is the FTS5 expression of words as one phrase.
func phrase(ws []string) string {
	return index.MatchExpr([]index.Term{{Words: ws, Phrase: true}}, false)
}

// citedBy are the library papers whose text holds this paper's DOI, arXiv
// id or exact title.
func (s *Server) citedBy(ctx context.Context, lib *library, self string) ([]match, error) {
	k := lib.byRef[self]
	found := &matches{self: self, seen: map[string]bool{}}
	try := func(ws []string, by string) error {
		if len(ws) == 0 {
			return nil
		}
		refs, err := s.db.PaperPages(ctx, phrase(ws), 500)
		if err != nil {
			return err
		}
		for _, r := range sortedKeys(refs) {
			found.add(r, by)
		}
		return nil
	}
	if err := try(words(k.DOI), "doi"); err != nil {
		return nil, err
	}
	if err := try(words(k.ArxivID), "arxiv"); err != nil {
		return nil, err
	}
	if tw := lib.words[self]; len(tw) >= minTitleWords && len(k.Title) >= minTitleChars {
		if err := try(tw, "title"); err != nil {
			return nil, err
		}
	}
	return found.list, nil
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for with from into onto over under via its our their this that these those
		are was were has have had not but all any can may use using used based new towards toward how what why when
		which who more most less than one two three part parts paper study analysis approach method methods system
		systems model models data large scale high low level`) {
		stopwords[w] = true
	}
}

// related are the library papers that share this paper's rarer title
// words: in their own titles, or, for words rare in the library, often in
// their text. A word weighs by its rarity in the library's pages.
func (s *Server) related(ctx context.Context, lib *library, self string) ([]match, error) {
	_, total, err := s.db.Counts(ctx)
	if err != nil {
		return nil, err
	}
	var terms []string
	seen := map[string]bool{}
	for _, w := range lib.words[self] {
		if len(w) >= 3 && !stopwords[w] && !seen[w] && len(terms) < maxRelatedTerms {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	// Words on more pages than this are matched in titles only: grouping
	// their pages by paper costs more than it tells.
	rare := max(50, total/100)
	score := map[string]float64{}
	for _, w := range terms {
		expr := phrase([]string{w})
		df, err := s.db.CountPages(ctx, expr)
		if err != nil {
			return nil, err
		}
		if df == 0 || df > total/2 {
			continue
		}
		idf := math.Log(1 + (float64(total)-float64(df)+0.5)/(float64(df)+0.5))
		if df <= rare {
			pages, err := s.db.PaperPages(ctx, expr, 500)
			if err != nil {
				return nil, err
			}
			for ref, n := range pages {
				score[ref] += idf * float64(min(n, 5)) / 5
			}
		}
		for ref, tw := range lib.words {
			if slices.Contains(tw, w) {
				score[ref] += idf
			}
		}
	}
	delete(score, self)
	var refs []string
	for ref, sc := range score {
		if sc >= 1 {
			refs = append(refs, ref)
		}
	}
	sort.Slice(refs, func(i, j int) bool {
		if score[refs[i]] != score[refs[j]] {
			return score[refs[i]] > score[refs[j]]
		}
		return refs[i] < refs[j]
	})
	out := make([]match, len(refs))
	for i, r := range refs {
		out[i] = match{r, "terms"}
	}
	return out, nil
}
