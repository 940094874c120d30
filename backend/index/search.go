package index

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// Snippet markers: a matched term sits between MarkStart and MarkEnd.
// Control characters never survive text normalisation, so they cannot
// occur in indexed text.
const (
	MarkStart = "\x02"
	MarkEnd   = "\x03"
)

// Hit is one page that matches a search.
type Hit struct {
	Ref         string  `json:"ref"`
	Title       string  `json:"title"`
	Page        int     `json:"page"`
	PageLabel   string  `json:"pageLabel"`
	Snippet     string  `json:"snippet"`
	CitationURI string  `json:"citationUri"`
	Score       float64 `json:"-"`
}

// MaxHitsPerPaper keeps one long paper from filling a result list.
const MaxHitsPerPaper = 3

// Search finds the pages that best match query over the whole vault, best
// first. Words are matched with stemming; "quoted phrases" must match
// exactly. Pages holding the words as a phrase rank before pages that hold
// them apart.
func (db *DB) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 20
	}
	if limit > 200 {
		limit = 200
	}
	terms := Terms(query)
	if len(terms) == 0 {
		return []Hit{}, nil
	}
	// The phrase of all the words ranks first; then pages holding every
	// word that carries meaning. Words on nearly every page (the, of) only
	// cost time there, so they are left to the phrase, and a query of such
	// words alone is matched without ranking.
	content := Content(terms)
	ranked := len(content) > 0
	if !ranked {
		content = terms
	}
	queries := []string{MatchExpr(content, false)}
	if len(terms) > 1 {
		queries = []string{MatchExpr(terms, true), queries[0]}
	}
	hits := []Hit{}
	perPaper := map[string]int{}
	seen := map[[2]any]bool{}
	for _, q := range queries {
		// Rank in the FTS subquery, but build snippets only for the pages
		// kept: a snippet tokenizes its whole page, far too costly to make
		// for every page a common word matches.
		rows, err := db.sql.QueryContext(ctx, `
			SELECT m.rowid, p.ref, p.title, p.pdf_path, pg.page, pg.label
			FROM (SELECT rowid, `+scoreExpr(ranked)+` AS score
			      FROM pages_fts WHERE pages_fts MATCH ? `+orderBy(ranked)+` LIMIT ?) m
			JOIN pages pg ON pg.id = m.rowid
			JOIN papers p ON p.id = pg.paper_id
			ORDER BY m.score`, q, limit*MaxHitsPerPaper)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		var found []Hit
		var rowids []int64
		for rows.Next() {
			var h Hit
			var rowid int64
			var pdfPath string
			if err := rows.Scan(&rowid, &h.Ref, &h.Title, &pdfPath, &h.Page, &h.PageLabel); err != nil {
				rows.Close()
				return nil, fmt.Errorf("search: %w", err)
			}
			key := [2]any{h.Ref, h.Page}
			if seen[key] || perPaper[h.Ref] >= MaxHitsPerPaper || len(hits)+len(found) >= limit {
				continue
			}
			seen[key] = true
			perPaper[h.Ref]++
			h.CitationURI = CitationURI(pdfPath, h.Page, "")
			found = append(found, h)
			rowids = append(rowids, rowid)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		for i := range found {
			snip, err := db.snippet(ctx, q, rowids[i])
			if err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
			found[i].Snippet = snip
		}
		hits = append(hits, found...)
		if len(hits) >= limit {
			break
		}
	}
	return hits, nil
}

func scoreExpr(ranked bool) string {
	if ranked {
		return "bm25(pages_fts)"
	}
	return "0"
}

func orderBy(ranked bool) string {
	if ranked {
		return "ORDER BY score"
	}
	return ""
}

// stopWords are English words found on nearly every page of a paper.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after all also an and any are as at be been but by can could did do does
		for from had has have he her his how i if in into is it its may more most no not of on one or other our
		she should so some such than that the their them then there these they this those through to up
		was we were what when where which while who will with would you your`) {
		stopWords[w] = true
	}
}

// Content keeps the terms that carry meaning: phrases, and words that are
// not stop words.
func Content(terms []Term) []Term {
	var out []Term
	for _, t := range terms {
		if t.Phrase || !stopWords[strings.ToLower(t.Words[0])] {
			out = append(out, t)
		}
	}
	return out
}

// snippet marks the terms of an FTS query on one page.
func (db *DB) snippet(ctx context.Context, match string, rowid int64) (string, error) {
	var s string
	err := db.sql.QueryRowContext(ctx, `SELECT snippet(pages_fts, 0, char(2), char(3), '…', 24)
		FROM pages_fts WHERE pages_fts MATCH ? AND rowid = ?`, match, rowid).Scan(&s)
	return strings.Join(strings.Fields(s), " "), err
}

// CitationURI builds the SPEC §1 location of a page: the vault-relative
// file path, #page=N, and optionally the first words of a quote.
func CitationURI(file string, page int, quote string) string {
	if page <= 0 {
		return file
	}
	u := fmt.Sprintf("%s#page=%d", file, page)
	if quote != "" {
		u += "&quote=" + url.QueryEscape(quote)
	}
	return u
}

// Term is one search term: a word, or a phrase the user quoted.
type Term struct {
	Words  []string
	Phrase bool
}

// Terms splits a user query into words and "quoted phrases". Punctuation
// separates words; FTS5 syntax in the query has no effect.
func Terms(query string) []Term {
	var out []Term
	parts := strings.Split(query, `"`)
	for i, part := range parts {
		words := strings.FieldsFunc(part, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			continue
		}
		if i%2 == 1 && i < len(parts)-1 { // inside a closed pair of quotes
			out = append(out, Term{Words: words, Phrase: true})
			continue
		}
		for _, w := range words {
			out = append(out, Term{Words: []string{w}})
		}
	}
	return out
}

// MatchExpr renders terms as an FTS5 MATCH expression. With asPhrase, all
// the words form one phrase; otherwise each term must occur.
func MatchExpr(terms []Term, asPhrase bool) string {
	quote := func(ws []string) string {
		qs := make([]string, len(ws))
		for i, w := range ws {
			qs[i] = strings.ToLower(w)
		}
		return `"` + strings.Join(qs, " ") + `"`
	}
	if asPhrase {
		var all []string
		for _, t := range terms {
			all = append(all, t.Words...)
		}
		return quote(all)
	}
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = quote(t.Words)
	}
	return strings.Join(parts, " AND ")
}
