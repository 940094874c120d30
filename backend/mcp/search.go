package mcp

import (
	"context"
	"encoding/json"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
)

type searchInput struct {
	Query  string `json:"query"`
	Limit  *int   `json:"limit"`
	Cursor string `json:"cursor"`
}

// card is one search result (SPEC §13).
type card struct {
	Ref         string `json:"ref"`
	Path        string `json:"path,omitempty"` // for a text file
	Title       string `json:"title"`
	Page        int    `json:"page,omitempty"`
	PageLabel   string `json:"pageLabel,omitempty"` // the printed page number
	Snippet     string `json:"snippet"`
	CitationURI string `json:"citationUri"`
}

type searchResult struct {
	Cards      []card `json:"cards"`
	Omitted    int    `json:"omitted"`              // matches not shown by this call
	NextCursor string `json:"nextCursor,omitempty"` // pass with the same query for the next cards
	Note       string `json:"note,omitempty"`
}

// Search limits.
const (
	maxTerms     = 12   // words of a query that are searched
	maxMatches   = 2000 // pages or files read per search
	snippetChars = 400  // a card's snippet, under the excerpt cap
)

// scope is what the grant lets a search see: the pages of granted papers,
// and the text files of granted files, directories and paper folders.
func (s *Server) scope() index.Scope {
	var sc index.Scope
	for _, src := range s.grant.Allowed {
		switch src.Kind {
		case grant.KindPaper:
			sc.Papers = append(sc.Papers, src.Ref)
			sc.Folders = append(sc.Folders, src.Ref)
		case grant.KindFile:
			sc.Files = append(sc.Files, src.Ref)
		case grant.KindDirectory:
			sc.Folders = append(sc.Folders, src.Ref)
		}
	}
	return sc
}

func (s *Server) search(ctx context.Context, args json.RawMessage, room int) (reply, error) {
	var in searchInput
	if err := decode(args, &in); err != nil {
		return reply{}, err
	}
	if strings.TrimSpace(in.Query) == "" || len(in.Query) > maxQuery {
		return reply{}, errorf("query must hold 1 to %d characters", maxQuery)
	}
	b := s.grant.Budget
	limit, err := limitArg(in.Limit, b.SearchCards, maxLimit)
	if err != nil {
		return reply{}, err
	}
	limit = min(limit, b.SearchCards)
	key := cursorKey("search", in.Query)
	off, err := readCursor(in.Cursor, key)
	if err != nil {
		return reply{}, err
	}
	terms := index.Terms(in.Query)
	if len(terms) == 0 {
		return reply{}, errorf("query has no words to search for")
	}
	terms = terms[:min(len(terms), maxTerms)]
	ranked := rankTerms(terms)
	hits, err := s.rank(ctx, terms, ranked, b.CardsPerPaper)
	if err != nil {
		return reply{}, err
	}
	if off > len(hits) {
		return reply{}, errorf("cursor is past the last result")
	}
	// Take cards in order until the limit, or until one paper would pass
	// its cap in this call; the cursor continues from there.
	n := min(b.ExcerptChars, snippetChars)
	res := searchResult{Cards: []card{}}
	var cites []cite
	perGroup := map[string]int{}
	used, end := 0, off
	for ; end < len(hits) && len(res.Cards) < limit; end++ {
		h := hits[end]
		if perGroup[h.group] >= b.CardsPerPaper {
			break
		}
		c, ok := s.card(h, parseMarks(h.m.Text, ranked).snippet(n))
		if !ok {
			continue
		}
		chars := size(c)
		if used+chars > room-300 {
			res.Note = "fewer cards than asked: this turn's budget is nearly spent"
			break
		}
		used += chars
		perGroup[h.group]++
		res.Cards = append(res.Cards, c)
		cites = append(cites, cite{c.Ref, c.CitationURI})
	}
	if len(res.Cards) == 0 && res.Note != "" {
		return reply{}, s.errSpent()
	}
	res.Omitted = len(hits) - end
	if res.Omitted > 0 {
		res.NextCursor = makeCursor(key, end)
	}
	if len(hits) == 0 {
		res.Note = "nothing granted to this turn matches"
	}
	return reply{value: res, cites: cites}, nil
}

// hit is a matched page or file with what ranking needs.
type hit struct {
	m     index.Match
	tf    []int // marks of each term
	tier  int   // 0 the whole query as a phrase, 1 every term, 2 some terms
	score float64
	group string // the paper or file the per-paper cap counts against
	round int    // rank within its group / cardsPerPaper
}

// rank finds every granted page and file that matches a term of the query
// and orders them: pages holding the whole query as a phrase, then those
// holding every term, then the rest; within a tier by BM25 computed over
// the grant's own pages and files (not the library's). Each paper's (or
// file's) first perPaper hits come before any paper's next ones, so a page
// of results spreads over papers.
//
// One FTS query per paper finds the pages holding any term, with the
// matched tokens marked; the marks give each term's frequency and centre
// the snippets, so no page is searched twice. A second query per paper
// finds the phrase, when some page holds every term. Very common words (the, of, …) are left out of the
// terms when others remain: their weight in BM25 is nil, and their marks
// would cover every page.
func (s *Server) rank(ctx context.Context, terms, ranked []index.Term, perPaper int) ([]*hit, error) {
	sc, err := s.db.Scoped(ctx, s.scope())
	if err != nil {
		return nil, err
	}
	each := make([]string, len(ranked))
	for i, t := range ranked {
		each[i] = index.MatchExpr([]index.Term{t}, false)
	}
	ms, err := sc.Match(ctx, strings.Join(each, " OR "), maxMatches, true)
	if err != nil {
		return nil, err
	}
	docs := float64(max(sc.Pages+sc.Files, 1))
	hits := make([]*hit, 0, len(ms))
	df := make([]float64, len(ranked))
	var avg float64
	every := false // some page holds every term: a phrase is possible
	for _, m := range ms {
		h := &hit{m: m, tf: countMarks(m.Text, ranked), tier: 1, group: m.Ref}
		if m.File {
			h.group = m.Path
		}
		for i, tf := range h.tf {
			if tf > 0 {
				df[i]++
			} else {
				h.tier = 2
			}
		}
		every = every || h.tier == 1
		avg += float64(max(m.Chars, 1))
		hits = append(hits, h)
	}
	if every && len(allWords(terms)) > 1 {
		pm, err := sc.Match(ctx, index.MatchExpr(terms, true), maxMatches, false)
		if err != nil {
			return nil, err
		}
		phrase := map[[2]any]bool{}
		for _, m := range pm {
			phrase[[2]any{m.File, m.ID}] = true
		}
		for _, h := range hits {
			if phrase[[2]any{h.m.File, h.m.ID}] {
				h.tier = 0
			}
		}
	}
	avg /= float64(max(len(hits), 1))
	const k1, b = 1.2, 0.75
	for _, h := range hits {
		norm := k1 * (1 - b + b*float64(max(h.m.Chars, 1))/avg)
		for i, tf := range h.tf {
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (docs-df[i]+0.5)/(df[i]+0.5))
			h.score += idf * float64(tf) * (k1 + 1) / (float64(tf) + norm)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, c := hits[i], hits[j]
		if a.tier != c.tier {
			return a.tier < c.tier
		}
		if a.score != c.score {
			return a.score > c.score
		}
		if a.m.Path != c.m.Path {
			return a.m.Path < c.m.Path
		}
		return a.m.Page < c.m.Page
	})
	seen := map[string]int{}
	for _, h := range hits {
		h.round = seen[h.group] / max(perPaper, 1)
		seen[h.group]++
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].round < hits[j].round })
	return hits, nil
}

// common are words on nearly every page: searched only as part of a phrase,
// or when a query holds nothing else.
var common = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in is it its of on or that the this to was
		were which with we our not but can all also these those their there been will would than then`) {
		common[w] = true
	}
}

// rankTerms drops common single words when other terms remain.
func rankTerms(terms []index.Term) []index.Term {
	var out []index.Term
	for _, t := range terms {
		if t.Phrase || len(t.Words) != 1 || !common[strings.ToLower(t.Words[0])] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return terms
	}
	return out
}

func allWords(terms []index.Term) []string {
	var w []string
	for _, t := range terms {
		w = append(w, t.Words...)
	}
	return w
}

// card renders a hit. A file that the grant no longer covers on disk
// (moved, or turned into a link that leaves the grant) gives no card.
func (s *Server) card(h *hit, snip string) (card, bool) {
	if h.m.File {
		ref, src, _, err := s.grant.Resolve(h.m.Path)
		if err != nil {
			return card{}, false
		}
		return card{Ref: src.Ref, Path: ref, Title: path.Base(ref), Snippet: snip, CitationURI: ref}, true
	}
	return card{Ref: h.m.Ref, Title: h.m.Title, Page: h.m.Page, PageLabel: pageLabel(h.m.Label, h.m.Page),
		Snippet: snip, CitationURI: index.CitationURI(h.m.Path, h.m.Page, "")}, true
}
