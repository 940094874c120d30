package docs

import (
	"strings"
	"unicode/utf8"
)

// Hit is one document a search found, with a snippet around the first
// match (or its description when only the id or description matched).
type Hit struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Trigger     Trigger  `json:"trigger"`
	TrustLevel  string   `json:"trustLevel"`
	Snippet     string   `json:"snippet"`
	Offset      int      `json:"offset"` // where the snippet starts in the body; read on from there
	Matches     int      `json:"matches"`
	Priority    Priority `json:"priority"`
}

// SearchResult is a search's hits, best first, and whether more were left
// out.
type SearchResult struct {
	Query   string `json:"query"`
	Hits    []Hit  `json:"hits"`
	Omitted int    `json:"omitted,omitempty"` // hits left out past the limit: narrow the query
}

// MaxSearchHits is the most hits a search returns.
const MaxSearchHits = 20

// Search finds the documents whose id, description or body hold every word
// of query (case folded), most matches first. Bodies are read from disk
// now. Forbidden documents are searched too: forbiddenLoad keeps a
// document out of the preloaded context, not out of reach.
func (c *Catalog) Search(query string, limit int) (SearchResult, error) {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return SearchResult{}, inputErrorf("the query is empty: give a few words to look for")
	}
	if limit <= 0 || limit > MaxSearchHits {
		limit = MaxSearchHits
	}
	res := SearchResult{Query: query, Hits: []Hit{}}
	var hits []Hit
	for _, d := range c.docs {
		body, err := c.body(d.ID)
		if err != nil {
			continue
		}
		lower := strings.ToLower(string(body))
		head := strings.ToLower(d.ID + " " + d.Description)
		count, first := 0, -1
		ok := true
		for _, w := range words {
			n := strings.Count(lower, w) + strings.Count(head, w)
			if n == 0 {
				ok = false
				break
			}
			count += n
			if i := strings.Index(lower, w); i >= 0 && (first < 0 || i < first) {
				first = i
			}
		}
		if !ok {
			continue
		}
		h := Hit{ID: d.ID, Description: d.Description, Trigger: d.Trigger, TrustLevel: d.TrustLevel, Matches: count, Priority: d.Priority}
		if first >= 0 && len(lower) == len(body) {
			start := max(0, first-80)
			for start > 0 && !utf8.RuneStart(body[start]) {
				start--
			}
			end := min(len(body), first+200)
			for end < len(body) && !utf8.RuneStart(body[end]) {
				end++
			}
			h.Offset = start
			h.Snippet = strings.Join(strings.Fields(string(body[start:end])), " ")
		} else {
			h.Snippet = d.Description
		}
		hits = append(hits, h)
	}
	sortHits(hits)
	if len(hits) > limit {
		res.Omitted = len(hits) - limit
		hits = hits[:limit]
	}
	res.Hits = append(res.Hits, hits...)
	return res, nil
}

func sortHits(h []Hit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && (h[j].Matches > h[j-1].Matches || h[j].Matches == h[j-1].Matches && h[j].ID < h[j-1].ID); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}
