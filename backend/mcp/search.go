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
	maxMatches   = 2000 // pages or files read per term
	snippetChars = 400  // a card's snippet, under the excerpt cap
)

// scope is what the grant lets a search see.
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

// hit is a matched page or file with what ranking needs.
type hit struct {
	m     index.Match
	tf    []int // hits per query term
	terms int   // terms matched
	tier  int   // 0 phrase, 1 every term, 2 some terms
	score float64
	group string // the paper or file the per-paper cap counts against
	round int    // rank within its group / cardsPerPaper
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
	hits, err := s.rank(ctx, terms, b.CardsPerPaper)
	if err != nil {
		return reply{}, err
	}
	if off > len(hits) {
		return reply{}, errorf("cursor is past the last result")
	}
	// Take cards in order until the limit, or until one paper would pass
	// its cap in this call; the cursor continues from there.
	var each []string
	for _, t := range terms {
		each = append(each, index.MatchExpr([]index.Term{t}, false))
	}
	anyTerm := strings.Join(each, " OR ")
	whole := index.MatchExpr(terms, true)
	snip := min(b.ExcerptChars, snippetChars)
	res := searchResult{Cards: []card{}}
	var cites []cite
	perGroup := map[string]int{}
	used, end := 0, off
	for ; end < len(hits) && len(res.Cards) < limit; end++ {
		h := hits[end]
		if perGroup[h.group] >= b.CardsPerPaper {
			break
		}
		expr := anyTerm
		if h.tier == 0 {
			expr = whole // centre the snippet on the phrase
		}
		c, ok, err := s.card(ctx, h, expr, snip)
		if err != nil {
			return reply{}, err
		}
		if !ok {
			continue
		}
		n := size(c)
		if used+n > room-300 {
			res.Note = "fewer cards than asked: this turn's budget is nearly spent"
			break
		}
		used += n
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

// rank finds every granted page and file that matches a term and orders
// them: pages holding the whole query as a phrase, then those holding every
// term, then the rest; within a tier by BM25 computed over the grant's own
// pages and files. Each paper's (or file's) first perPaper hits come
// before any paper's next ones, so a page of results spreads over papers.
func (s *Server) rank(ctx context.Context, terms []index.Term, perPaper int) ([]*hit, error) {
	sc, err := s.db.Scoped(ctx, s.scope())
	if err != nil {
		return nil, err
	}
	type docKey struct {
		file bool
		id   int64
	}
	byDoc := map[docKey]*hit{}
	df := make([]int, len(terms))
	for i, t := range terms {
		ms, err := sc.Match(ctx, index.MatchExpr([]index.Term{t}, false), maxMatches)
		if err != nil {
			return nil, err
		}
		df[i] = len(ms)
		for _, m := range ms {
			k := docKey{m.File, m.ID}
			h := byDoc[k]
			if h == nil {
				h = &hit{m: m, tf: make([]int, len(terms)), tier: 2}
				byDoc[k] = h
			}
			h.tf[i] = max(m.Hits, 1)
			h.terms++
		}
	}
	if len(terms) > 1 && len(byDoc) > 0 {
		ms, err := sc.Match(ctx, index.MatchExpr(terms, true), maxMatches)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if h := byDoc[docKey{m.File, m.ID}]; h != nil {
				h.tier = 0
			}
		}
	}
	docs := max(sc.Pages+sc.Files, 1)
	var avg float64
	for _, h := range byDoc {
		avg += float64(max(h.m.Chars, 1))
	}
	avg /= float64(max(len(byDoc), 1))
	const k1, bb = 1.2, 0.75
	hits := make([]*hit, 0, len(byDoc))
	for _, h := range byDoc {
		if h.tier == 2 && h.terms == len(terms) {
			h.tier = 1
		}
		norm := k1 * (1 - bb + bb*float64(max(h.m.Chars, 1))/avg)
		for i, tf := range h.tf {
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (float64(docs)-float64(df[i])+0.5)/(float64(df[i])+0.5))
			h.score += idf * float64(tf) * (k1 + 1) / (float64(tf) + norm)
		}
		h.group = h.m.Ref
		if h.m.File {
			h.group = h.m.Path
		}
		hits = append(hits, h)
	}
	better := func(a, b *hit) bool {
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.score != b.score {
			return a.score > b.score
		}
		if a.m.Path != b.m.Path {
			return a.m.Path < b.m.Path
		}
		return a.m.Page < b.m.Page
	}
	sort.Slice(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
	seen := map[string]int{}
	for _, h := range hits {
		h.round = seen[h.group] / max(perPaper, 1)
		seen[h.group]++
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].round < hits[j].round })
	return hits, nil
}

// card renders a hit, with its snippet built around the matched terms. A
// file that the grant no longer covers on disk (moved, or turned into a
// link that leaves the grant) gives no card.
func (s *Server) card(ctx context.Context, h *hit, expr string, n int) (card, bool, error) {
	text, err := s.db.Highlight(ctx, h.m, expr)
	if err != nil {
		return card{}, false, err
	}
	if h.m.File {
		ref, src, _, err := s.grant.Resolve(h.m.Path)
		if err != nil {
			return card{}, false, nil
		}
		return card{Ref: src.Ref, Path: ref, Title: path.Base(ref), Snippet: snippet(text, n), CitationURI: ref}, true, nil
	}
	return card{Ref: h.m.Ref, Title: h.m.Title, Page: h.m.Page, PageLabel: pageLabel(h.m.Label, h.m.Page), Snippet: snippet(text, n),
		CitationURI: index.CitationURI(h.m.Path, h.m.Page, "")}, true, nil
}
