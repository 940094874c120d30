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
	if len(scope.Papers) == 0 && len(scope.Folders) == 0 && !scope.AllPapers {
		return nil, nil
	}
	// The papers_status index finds them; the scope is applied here too, so
	// that a turn granted a few papers reads only those rows.
	where, args := scopeSQL(scope)
	rows, err := db.sql.QueryContext(ctx, `SELECT ref, pdf_path, title, authors, year, doi, arxiv_id, abstract, status
		FROM papers WHERE status IN (?, ?)`+where+` ORDER BY ref`, append([]any{StatusNoText, StatusGarbled}, args...)...)
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
		if !inScope(ref, scope) {
			continue
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

// scopeSQL is scope as a condition on papers.ref (" AND …"), "" for the
// whole library or a scope too long to spell out (inScope still checks
// each row).
func scopeSQL(s Scope) (string, []any) {
	if s.AllPapers || len(s.Papers)+len(s.Folders) > 200 {
		return "", nil
	}
	var or []string
	var args []any
	for _, p := range s.Papers {
		or = append(or, "ref = ?")
		args = append(args, p)
	}
	for _, d := range s.Folders {
		if d == "" || d == "." {
			return "", nil
		}
		or = append(or, "substr(ref, 1, length(?) + 1) = ? || '/'")
		args = append(args, d, d)
	}
	return " AND (" + strings.Join(or, " OR ") + ")", args
}

// inScope reports whether the paper ref lies in scope.
func inScope(ref string, s Scope) bool {
	if s.AllPapers {
		return true
	}
	for _, p := range s.Papers {
		if p == ref {
			return true
		}
	}
	for _, d := range s.Folders {
		if d == "" || d == "." || ref == d || strings.HasPrefix(ref, d+"/") {
			return true
		}
	}
	return false
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
		if x == w || len(w) >= 5 && len(x) >= 5 && sharedPrefix(x, w) >= max(len(w), len(x))-3 {
			return true
		}
	}
	return false
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
