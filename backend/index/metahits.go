package index

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/text"
)

// Metadata hits: a paper without readable text (a scan without OCR, a
// garbled text layer) has no page a query can match, yet its badge promises
// that its title and metadata are searchable. A search's first result
// therefore leads with such papers of its scope whose title, authors, year,
// DOI, arXiv id or abstract hold every term of the query, each as a hit on
// page 1 whose snippet says why it matched.

// maxMetadataHits bounds the metadata hits of one result.
const maxMetadataHits = 5

// metadataHits finds the papers of scope without readable text that the
// query's terms all name.
func (db *DB) metadataHits(ctx context.Context, p *plan, scope Scope) ([]Hit, error) {
	if p.stopOnly || len(p.terms) == 0 {
		return nil, nil
	}
	cond, args, all := refScope("ref", scope)
	switch {
	case all:
	case cond == "":
		return nil, nil
	default:
		cond = " AND (" + cond + ")"
	}
	// The papers_status index finds them, within the scope.
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, pdf_path, title, authors, year, doi, arxiv_id, abstract, status
		FROM papers WHERE status IN (?, ?)`+cond+` ORDER BY ref`, append([]any{StatusNoText, StatusGarbled}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("metadata hits: %w", err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() && len(out) < maxMetadataHits {
		var ref, pdfPath, title, authorsJSON, doi, arxiv, abstract, status string
		var year int
		if err := rows.Scan(&ref, &pdfPath, &title, &authorsJSON, &year, &doi, &arxiv, &abstract, &status); err != nil {
			return nil, fmt.Errorf("metadata hits: %w", err)
		}
		var authors []string
		_ = json.Unmarshal([]byte(authorsJSON), &authors)
		fields := []string{title, strings.Join(authors, " "), doi, arxiv, abstract}
		if year != 0 {
			fields = append(fields, strconv.Itoa(year))
		}
		if !namesAll(text.Words(strings.Join(fields, " ")), p.terms) {
			continue
		}
		why := "no text layer (a scan without OCR)"
		if status == StatusGarbled {
			why = "unreadable text layer (needs OCR)"
		}
		snip := title
		if len(authors) > 0 {
			snip += " — " + strings.Join(authors, ", ")
		}
		if year != 0 {
			snip += " (" + strconv.Itoa(year) + ")"
		}
		out = append(out, Hit{Ref: ref, Title: title, Page: 1, CitationURI: CitationURI(pdfPath, 1, ""),
			Snippet: snip + " · found by its metadata: " + why})
	}
	return out, rows.Err()
}

// namesAll reports whether words (folded) hold every term: each of a
// term's words as a word, or as the stem of one ("counting" names "count").
func namesAll(words []string, terms []text.Term) bool {
	for _, t := range terms {
		for _, w := range t.Words {
			if !hasWord(words, text.Fold(w)) {
				return false
			}
		}
	}
	return true
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w || len(w) >= 5 && len(x) >= 5 && commonPrefix(x, w) >= max(len(w), len(x))-3 {
			return true
		}
	}
	return false
}
