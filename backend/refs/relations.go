// Package refs builds the relations between papers offline (SPEC §5): each
// paper's reference list, read from a citation sidecar, from
// source/*.bib|*.bbl or from the reference list in its PDF text; each entry
// matched to a library paper by DOI, arXiv id or a confident title match;
// the library-wide cited-by scan (.agentero/citing-scan.json); and related
// papers. Sync stores the lists after each index sync in refs' own tables
// of the index file (store.go), so that Relations, which the MCP server and
// the UI call, only reads.
package refs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/index"
)

// Kind is a kind of paper relation (SPEC §4 paper_relations).
type Kind string

// The relations of a paper.
const (
	References Kind = "references" // what it cites
	CitedBy    Kind = "citedBy"    // library papers that cite it
	Related    Kind = "related"    // library papers that share its references or its words
)

// Kinds lists the relations in the order they are shown.
var Kinds = []Kind{References, CitedBy, Related}

// ParseKind reads a kind as written on the command line or in a tool call.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown relation kind %q: use references, citedBy or related", s)
}

// Limits on the number of cards of one kind.
const (
	DefaultLimit = 10
	MaxLimit     = 200
)

// Card is a thin card for a related work (SPEC §13). PaperPath is set only
// for a real library match; CitationURI only when the work can be opened:
// the library paper's PDF, https://doi.org/<doi> or
// https://arxiv.org/abs/<id>. The MCP layer adds inGrant.
type Card struct {
	Title       string `json:"title"`
	Year        int    `json:"year"`
	DOI         string `json:"doi"`
	ArxivID     string `json:"arxivId"`
	PaperPath   string `json:"paperPath"`
	MatchBy     string `json:"matchBy"` // doi, arxiv, title; for related: sharedReferences or text
	CitationURI string `json:"citationUri"`
}

// Ways a related paper is related.
const (
	BySharedReferences = "sharedReferences"
	ByText             = "text"
)

// Relations returns up to limit cards of one kind for the library paper
// ref, from what Sync stored: the references in list order with library
// papers first, the citing papers by ref, the related papers best first.
// It only reads the index, so it works on a read-only one. A paper not in
// the index is index.ErrNotFound; one whose list was not read yet has no
// references.
func Relations(ctx context.Context, db *index.DB, ref string, kind Kind, limit int) ([]Card, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	p, err := db.Paper(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("relations of %s: %w", ref, err)
	}
	switch kind {
	case References:
		return references(ctx, db, p, limit)
	case CitedBy:
		return citedBy(ctx, db, p, limit)
	case Related:
		return related(ctx, db, p, limit)
	}
	return nil, fmt.Errorf("relations of %s: unknown kind %q", ref, kind)
}

// libraryCard is the card of a library paper.
func libraryCard(p index.Paper, by string) Card {
	return Card{Title: p.Title, Year: p.Year, DOI: p.DOI, ArxivID: p.ArxivID, PaperPath: p.Ref, MatchBy: by,
		CitationURI: citation.New(p.PDFPath, 0, "").String()}
}

// externalCard is the card of a cited work outside the library.
func externalCard(c Citation) Card {
	title := c.Title
	if title == "" {
		title = c.Raw
		if len(title) > 160 {
			title = strings.TrimSpace(title[:160]) + "…"
		}
	}
	card := Card{Title: title, Year: c.Year, DOI: c.DOI, ArxivID: c.ArxivID}
	switch {
	case c.DOI != "":
		card.CitationURI = citation.URI{URL: ident.DOIURL(c.DOI)}.String()
	case c.ArxivID != "":
		card.CitationURI = citation.URI{URL: "https://arxiv.org/abs/" + c.ArxivID}.String()
	}
	return card
}

func references(ctx context.Context, db *index.DB, p index.Paper, limit int) ([]Card, error) {
	l, err := ReadList(ctx, db, p.Ref)
	if errors.Is(err, index.ErrNotFound) {
		return []Card{}, nil
	}
	if err != nil {
		return nil, err
	}
	var local, external []Card
	seen := map[string]bool{}
	for _, c := range l.Citations {
		if c.MatchRef == "" {
			external = append(external, externalCard(c))
			continue
		}
		if seen[c.MatchRef] {
			continue
		}
		seen[c.MatchRef] = true
		m, err := db.Paper(ctx, c.MatchRef)
		if err != nil {
			external = append(external, externalCard(c))
			continue
		}
		card := libraryCard(m, c.MatchBy)
		if card.Year == 0 {
			card.Year = c.Year
		}
		if card.DOI == "" {
			card.DOI = c.DOI
		}
		if card.ArxivID == "" {
			card.ArxivID = c.ArxivID
		}
		local = append(local, card)
	}
	out := append(local, external...)
	if out == nil {
		out = []Card{}
	}
	return out[:min(len(out), limit)], nil
}

func citedBy(ctx context.Context, db *index.DB, p index.Paper, limit int) ([]Card, error) {
	edges, err := citingPapers(ctx, db, p.Ref)
	if err != nil {
		return nil, err
	}
	out := []Card{}
	for _, e := range edges {
		if len(out) >= limit {
			break
		}
		c, err := db.Paper(ctx, e.Citing)
		if err != nil {
			continue
		}
		out = append(out, libraryCard(c, e.MatchBy))
	}
	return out, nil
}
