package mcp

import (
	"context"
	"encoding/json"

	"github.com/agentero/agentero/backend/refs"
)

// paper_relations serves the relations backend/refs keeps in the index:
// reference lists matched to library papers, the cited-by scan, and related
// papers (SPEC §5).

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
	MatchBy     string `json:"matchBy"` // doi, arxiv, title; sharedReferences or text for related papers
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

const defaultRelations = 10

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
	self := t.paper.Ref
	res := relationsResult{Ref: self}
	want := func(k string) bool { return in.Kind == "" || in.Kind == k }
	var lists []*[]relCard
	for _, k := range []struct {
		kind refs.Kind
		dst  **[]relCard
	}{{refs.References, &res.References}, {refs.CitedBy, &res.CitedBy}, {refs.Related, &res.Related}} {
		if !want(string(k.kind)) {
			continue
		}
		found, err := refs.Relations(ctx, s.db, self, k.kind, limit)
		if err != nil {
			return reply{}, err
		}
		cards := []relCard{}
		for _, c := range found {
			cards = append(cards, s.relCard(c))
		}
		*k.dst = &cards
		lists = append(lists, *k.dst)
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
			if c.CitationURI != "" {
				cites = append(cites, cite{c.PaperPath, c.CitationURI})
			}
		}
	}
	return reply{value: res, cites: cites}, nil
}

// relCard adds to a relations card whether this turn may read the paper:
// papers outside the grant are shown, and context_read refuses them.
func (s *Server) relCard(c refs.Card) relCard {
	in := false
	if c.PaperPath != "" {
		_, err := s.grant.Covering(c.PaperPath)
		in = err == nil
	}
	return relCard{Title: c.Title, Year: c.Year, DOI: c.DOI, ArxivID: c.ArxivID, PaperPath: c.PaperPath,
		MatchBy: c.MatchBy, InGrant: in, CitationURI: c.CitationURI}
}
