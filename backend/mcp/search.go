package mcp

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/text"
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
	Section     string `json:"section,omitempty"`   // the title of the section the hit is in
	Snippet     string `json:"snippet"`
	CitationURI string `json:"citationUri"`
	// A figure card (a figure or table whose caption the query names or
	// matches) has its kind ("figure", "table"), its label ("Figure 3"),
	// its caption as the snippet, its region on the page, and the
	// context_read call that shows it as an image.
	Kind   string      `json:"kind,omitempty"`
	Label  string      `json:"label,omitempty"`
	Region *index.Rect `json:"region,omitempty"`
	Open   *nextCall   `json:"open,omitempty"`
}

type searchResult struct {
	Cards      []card    `json:"cards"`
	Omitted    int       `json:"omitted"`              // matches not shown by this call
	NextCursor string    `json:"nextCursor,omitempty"` // pass with the same query for the next cards
	Next       *nextCall `json:"next,omitempty"`       // the call that gives them
	Note       string    `json:"note,omitempty"`
}

// snippetChars is a card's snippet, under the excerpt cap.
const snippetChars = 400

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
		case grant.KindVault:
			sc.Folders = append(sc.Folders, ".")
		}
	}
	return sc
}

// search runs context_search on the index's one query path (index.Query):
// the library's search box ranks the same words the same way. The index
// caps the cards per paper and ends a call where one paper would pass its
// cap; the budget (the turn's, or the request's on the whole-vault server)
// may end it sooner, and the cursor continues from there.
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
	if len(text.Parse(in.Query)) == 0 {
		return reply{}, errorf("query has no words to search for")
	}
	found, err := s.db.Search(ctx, index.Query{Text: in.Query, Scope: s.scope(), PerPaper: b.CardsPerPaper,
		Limit: limit, Offset: off, SnippetChars: min(b.ExcerptChars, snippetChars)})
	if err != nil {
		return reply{}, err
	}
	if off > found.Found {
		return reply{}, errorf("cursor is past the last result")
	}
	res := searchResult{Cards: []card{}}
	var cites []cite
	// What the cards may fill: the room less the rest of the result (the
	// note and the next call, which repeats the query).
	fill := room - 500 - runeCount(s.budgetCut()) - 2*runeCount(in.Query)
	used, next := 0, found.Next
	if off == 0 {
		figs, err := s.db.FigureHits(ctx, index.FigureQuery{Text: in.Query, Scope: s.scope(), Limit: min(limit, maxFigureCards)})
		if err != nil {
			return reply{}, err
		}
		for _, f := range figs {
			c := s.figureCard(f)
			if chars := size(c); used+chars <= fill {
				used += chars
				res.Cards = append(res.Cards, c)
				cites = append(cites, cite{c.Ref, c.CitationURI})
			}
		}
	}
	for _, h := range found.Hits {
		c, ok := s.card(h)
		if !ok {
			continue
		}
		chars := size(c)
		if used+chars > fill {
			res.Note = "fewer cards than asked: " + s.budgetCut()
			next = h.Rank
			break
		}
		used += chars
		res.Cards = append(res.Cards, c)
		cites = append(cites, cite{c.Ref, c.CitationURI})
	}
	if len(res.Cards) == 0 && res.Note != "" {
		return reply{}, errNoRoom
	}
	if next > 0 {
		res.Omitted = found.Found - next
		res.NextCursor = makeCursor(key, next)
		args := map[string]any{"query": in.Query, "cursor": res.NextCursor}
		if in.Limit != nil {
			args["limit"] = *in.Limit
		}
		res.Next = &nextCall{Tool: s.toolName("context_search"), Arguments: args}
	}
	switch {
	case len(res.Cards) > 0 && found.Found == 0:
	case found.Found == 0 && s.perRequest:
		res.Note = "nothing in the vault matches"
	case found.Found == 0:
		res.Note = "nothing granted to this turn matches"
	}
	return reply{value: res, cites: cites}, nil
}

// unmark takes the index's match marks out of a snippet.
var unmark = strings.NewReplacer(index.MarkStart, "", index.MarkEnd, "")

// card renders a hit. A file that the grant no longer covers on disk
// (moved, or turned into a link that leaves the grant) gives no card.
func (s *Server) card(h index.Hit) (card, bool) {
	snip := unmark.Replace(h.Snippet)
	if h.Path != "" {
		ref, src, _, err := s.grant.Resolve(h.Path)
		if err != nil {
			return card{}, false
		}
		return card{Ref: src.Ref, Path: ref, Title: path.Base(ref), Snippet: snip, CitationURI: citation.New(ref, 0, "").String()}, true
	}
	return card{Ref: h.Ref, Title: h.Title, Page: h.Page, PageLabel: pageLabel(h.PageLabel, h.Page), Section: h.Section,
		Snippet: snip, CitationURI: h.CitationURI}, true
}

// maxFigureCards is the most figure cards a search returns, ahead of its
// page cards, on its first call.
const maxFigureCards = 3

// figureCard renders a figure or table found by its caption: the page
// card of its page, with the caption as its snippet, a citation URI that
// names the figure's region (a source citing it outlines the figure), and
// the call that shows it.
func (s *Server) figureCard(f index.Figure) card {
	region := f.Region
	uri := f.CitationURI
	if u, err := citation.Parse(uri); err == nil {
		uri = u.WithRegion(citation.Region(region)).String()
	}
	return card{Ref: f.Ref, Title: f.Title, Page: f.Page, PageLabel: pageLabel(f.PageLabel, f.Page),
		Snippet: cut([]rune(f.Caption), 0, snippetChars).text, CitationURI: uri, Kind: f.Kind, Label: f.Label, Region: &region,
		Open: s.readCall(map[string]any{"ref": f.Ref, "mode": modeImage, "page": f.Page,
			"region": map[string]float64{"x": region.X, "y": region.Y, "width": region.Width, "height": region.Height}})}
}
