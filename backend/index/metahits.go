package index

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/citation"
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

// metadataHits finds the papers of scope without readable text whose
// metadata holds every term of the query: one FTS5 lookup in textless_fts
// (migration 007), matched as pages are (stemmed, diacritics folded, a
// quoted phrase as a phrase), which costs next to nothing when the query
// names none of them. An index opened read-only that predates textless_fts
// has those papers' rows read and matched in Go instead (scanMetadataHits).
func (db *DB) metadataHits(ctx context.Context, p *plan, scope Scope) ([]Hit, error) {
	if p.stopOnly || len(p.terms) == 0 {
		return nil, nil
	}
	cond, args, all := refScope("p.ref", scope)
	switch {
	case all:
	case cond == "":
		return nil, nil
	default:
		cond = " AND (" + cond + ")"
	}
	if !db.textless {
		return db.scanMetadataHits(ctx, p, cond, args)
	}
	if !all && onlyPapers(scope) {
		// A grant's few papers (each with its folder, as context_search
		// scopes them) mostly hold no paper without text: a look at them
		// by ref says so in a third of the time an FTS5 query takes. The
		// unary + keeps SQLite from the status index, which would have it
		// test the scope on every text-less paper of the library.
		ids, iargs := refIDs(scope)
		var some bool
		if err := db.sql.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM papers WHERE +status IN (?, ?) AND id IN (`+ids+`))`,
			append([]any{StatusNoText, StatusGarbled}, iargs...)...).Scan(&some); err != nil {
			return nil, fmt.Errorf("metadata hits: %w", err)
		}
		if !some {
			return nil, nil
		}
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, p.pdf_path, p.title, p.authors, p.year, p.status
		FROM textless_fts CROSS JOIN papers p ON p.id = textless_fts.rowid
		WHERE textless_fts MATCH ? AND p.status IN (?, ?)`+cond+` ORDER BY p.ref LIMIT ?`,
		append(append([]any{p.allExpr, StatusNoText, StatusGarbled}, args...), maxMetadataHits)...)
	if err != nil {
		return nil, fmt.Errorf("metadata hits: %w", err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var ref, pdfPath, title, authorsJSON, status string
		var year int
		if err := rows.Scan(&ref, &pdfPath, &title, &authorsJSON, &year, &status); err != nil {
			return nil, fmt.Errorf("metadata hits: %w", err)
		}
		var authors []string
		_ = json.Unmarshal([]byte(authorsJSON), &authors)
		out = append(out, metadataHit(ref, pdfPath, title, authors, year, status))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("metadata hits: %w", err)
	}
	return out, nil
}

// onlyPapers reports whether s names papers alone: its folders, if any,
// are the folders of papers it names, which hold those papers (and their
// files) rather than a part of the library.
func onlyPapers(s Scope) bool {
	for _, d := range s.Folders {
		if !slices.Contains(s.Papers, d) {
			return false
		}
	}
	return true
}

// metadataHit is a paper without readable text found by its metadata: a
// hit on page 1 whose snippet says what it is and why it matched.
func metadataHit(ref, pdfPath, title string, authors []string, year int, status string) Hit {
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
	return Hit{Ref: ref, Title: title, Page: 1, CitationURI: citation.New(pdfPath, 1, "").String(),
		Snippet: snip + " · found by its metadata: " + why}
}

// scanMetadataHits is metadataHits on an index without textless_fts: the
// rows of the scope's papers without readable text (cond, a condition on
// papers p, and its args) are read, through the papers_status index, and
// matched in Go (namesAll).
func (db *DB) scanMetadataHits(ctx context.Context, p *plan, cond string, args []any) ([]Hit, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT p.ref, p.pdf_path, p.title, p.authors, p.year, p.doi, p.arxiv_id, p.abstract, p.status
		FROM papers p WHERE p.status IN (?, ?)`+cond+` ORDER BY p.ref`, append([]any{StatusNoText, StatusGarbled}, args...)...)
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
		if namesAll(text.Words(strings.Join(fields, " ")), p.terms) {
			out = append(out, metadataHit(ref, pdfPath, title, authors, year, status))
		}
	}
	return out, rows.Err()
}

// namesAll reports whether words (folded) hold every term: each of a
// term's words as a word, or as the stem of one ("counting" names "count":
// five letters at least in common, and at most three more in either word,
// so that "paxos" does not name "paper").
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
		if x == w {
			return true
		}
		if n := commonPrefix(x, w); n >= 5 && n >= max(len(w), len(x))-3 {
			return true
		}
	}
	return false
}
