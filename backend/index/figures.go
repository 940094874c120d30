package index

// Figures and tables: the captions found on each paper's pages
// (pdf.Caption) with where they and what they label are, read back for
// the viewer's list and found by a search that names one ("figure 3") or
// matches words of its caption.

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/text"
)

// Rect is a rectangle on a page in points from the top-left corner of the
// page as shown: what context_read mode "image" takes as its region.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Figure is a figure or a table of a paper, found by its caption.
type Figure struct {
	Ref       string `json:"ref"`
	Title     string `json:"title"` // the paper's
	Page      int    `json:"page"`
	PageLabel string `json:"pageLabel"`
	Kind      string `json:"kind"`  // "figure" or "table"
	Label     string `json:"label"` // "Figure 3", "Table II"
	Caption   string `json:"caption"`
	// Region holds the figure or table with its caption; Box the caption.
	Region Rect `json:"region"`
	Box    Rect `json:"box"`
	// CitationURI cites the figure's page.
	CitationURI string `json:"citationUri"`
}

// insertFigures writes the captions of doc's pages that have a text layer
// (not OCR'd, not garbled: their boxes are not the layer's).
func insertFigures(ctx context.Context, tx *sql.Tx, id int64, doc *pdf.Document) error {
	if len(doc.Captions) == 0 {
		return nil
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO figures (paper_id, ord, page, kind, label, caption, x, y, width, height, cx, cy, cwidth, cheight)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for i, c := range doc.Captions {
		if c.Page < 1 || c.Page > len(doc.Pages) {
			continue
		}
		if pg := doc.Pages[c.Page-1]; pg.OCR || strings.TrimSpace(pg.Text) == "" {
			continue
		}
		r, b := c.Region, c.Box
		if _, err := ins.ExecContext(ctx, id, i, c.Page, c.Kind, c.Label, c.Text,
			r.X, r.Y, r.Width, r.Height, b.X, b.Y, b.Width, b.Height); err != nil {
			return err
		}
	}
	return nil
}

// figureCols are the columns scanFigure reads, from figures f, papers p
// and pages pg.
const figureCols = `p.ref, p.pdf_path, p.title, f.page, coalesce(pg.label, ''), f.kind, f.label, f.caption,
	f.x, f.y, f.width, f.height, f.cx, f.cy, f.cwidth, f.cheight`

const figureJoins = `figures f JOIN papers p ON p.id = f.paper_id
	LEFT JOIN pages pg ON pg.paper_id = f.paper_id AND pg.page = f.page`

func scanFigures(rows *sql.Rows, err error) ([]Figure, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Figure{}
	for rows.Next() {
		var f Figure
		var pdfPath string
		if err := rows.Scan(&f.Ref, &pdfPath, &f.Title, &f.Page, &f.PageLabel, &f.Kind, &f.Label, &f.Caption,
			&f.Region.X, &f.Region.Y, &f.Region.Width, &f.Region.Height,
			&f.Box.X, &f.Box.Y, &f.Box.Width, &f.Box.Height); err != nil {
			return nil, err
		}
		f.CitationURI = citation.New(pdfPath, f.Page, "").String()
		out = append(out, f)
	}
	return out, rows.Err()
}

// Captions returns a paper's figures and tables in page order, each with
// its caption's text: what the viewer lists, and what a search may weigh
// apart from the pages' text. An index that predates them (opened
// read-only) has none.
func (db *DB) Captions(ctx context.Context, ref string) ([]Figure, error) {
	if !db.figures {
		return []Figure{}, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+figureCols+` FROM `+figureJoins+`
		WHERE p.ref = ? ORDER BY f.page, f.ord`, ref)
	if err != nil {
		return nil, fmt.Errorf("read captions: %w", err)
	}
	out, err := scanFigures(rows, nil)
	if err != nil {
		return nil, fmt.Errorf("read captions: %w", err)
	}
	return out, nil
}

// FigureQuery asks for the figures and tables of Scope that a query names
// ("figure 3", "Table II") or whose captions hold its words.
type FigureQuery struct {
	Text  string
	Scope Scope
	Limit int // 0: 5
}

// figureWords are the words of a query that ask for a figure or a table
// rather than describe it.
var figureWords = map[string]bool{"figure": true, "figures": true, "fig": true, "table": true, "tables": true, "tab": true,
	"diagram": true, "diagrams": true, "plot": true, "plots": true, "chart": true, "charts": true, "graph": true, "graphs": true,
	"illustration": true, "picture": true, "image": true}

// FigureHits returns the figures and tables a query asks for, best first:
// those it names by label, then those whose captions hold its words. A
// query that asks for a figure (names one, or says figure, table, plot,
// diagram…) matches a caption holding all its other words, or of three
// words or more two thirds of them; any other query only a caption
// holding all of its three or more words, so that a search for a topic
// ("leader election") stays a search of pages.
func (db *DB) FigureHits(ctx context.Context, q FigureQuery) ([]Figure, error) {
	if !db.figures {
		return nil, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 5
	}
	cond, args, all := refScope("p.ref", q.Scope)
	if cond == "" && !all {
		return nil, nil // text files only
	}
	where := "1"
	if !all {
		where = "(" + cond + ")"
	}
	var out []Figure
	seen := map[string]bool{}
	add := func(fs []Figure) {
		for _, f := range fs {
			if k := f.Ref + "\x00" + f.Label; !seen[k] && len(out) < limit {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	rest := q.Text
	for _, named := range text.FigureNames(q.Text, 4) {
		rows, err := db.sql.QueryContext(ctx, `SELECT `+figureCols+` FROM `+figureJoins+`
			WHERE f.label = ? COLLATE NOCASE AND `+where+` ORDER BY p.ref LIMIT ?`, append(append([]any{named.Label}, args...), limit)...)
		if err != nil {
			return nil, fmt.Errorf("find figures: %w", err)
		}
		fs, err := scanFigures(rows, nil)
		if err != nil {
			return nil, fmt.Errorf("find figures: %w", err)
		}
		add(fs)
		rest = strings.Replace(rest, q.Text[named.Start:named.End], " ", 1)
	}
	asked := rest != q.Text
	var words []string
	for _, t := range text.Content(text.Parse(rest)) {
		for _, w := range t.Words {
			switch w = text.Fold(w); {
			case figureWords[w]:
				asked = true
			case !text.Stop(w):
				words = append(words, w)
			}
		}
	}
	if len(words) == 0 || len(out) >= limit || !asked && len(words) < 3 {
		return out, nil
	}
	if len(words) > 12 {
		words = words[:12]
	}
	need := len(words)
	if asked && need >= 3 {
		need = max(2, int(math.Ceil(float64(need)*2/3)))
	}
	match := make([]string, len(words))
	for i, w := range words {
		match[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	// a caption must hold them all unless a figure was asked for: FTS5
	// then reads only those (a topic's three words at 10,000 papers: tens
	// of thousands of captions hold one of them)
	join := " OR "
	if need == len(words) {
		join = " AND "
	}
	expr := "caption : (" + strings.Join(match, join) + ")"
	fs, err := db.captionHits(ctx, q.Scope, expr, where, args, all)
	if err != nil {
		return nil, fmt.Errorf("find figures: %w", err)
	}
	var kept []Figure
	var n []int
	for _, f := range fs {
		if c := covered(f.Caption, words); c >= need {
			kept, n = append(kept, f), append(n, c)
		}
	}
	// the captions that hold the most of the words first
	at := make([]int, len(kept))
	for i := range at {
		at[i] = i
	}
	sort.SliceStable(at, func(i, j int) bool { return n[at[i]] > n[at[j]] })
	sorted := make([]Figure, len(kept))
	for i, k := range at {
		sorted[i] = kept[k]
	}
	kept = sorted
	add(kept)
	return out, nil
}

// captionHits returns the figures of a scope whose captions match expr,
// best first. A few papers (at most rankAll) are read paper by paper,
// each by the span of its figures' ids (a paper's figures are written in
// one transaction), which FTS5 seeks to, and their figures come in the
// papers' order (of ids): ranking them with bm25 would cost a pass over every
// caption of the library that holds a word (3 ms of a context_search's 5
// at 10,000 papers). The library, or more papers, in one statement by
// bm25.
func (db *DB) captionHits(ctx context.Context, scope Scope, expr, where string, args []any, all bool) ([]Figure, error) {
	if !all {
		ids, iargs := refIDs(scope)
		spans, err := db.spans(ctx, `SELECT paper_id, min(id), max(id) FROM figures WHERE paper_id IN (`+ids+`)
			GROUP BY paper_id ORDER BY paper_id LIMIT ?`, append(iargs, rankAll+1)...)
		if err != nil {
			return nil, err
		}
		if len(spans) <= rankAll {
			stmt, err := db.sql.PrepareContext(ctx, `SELECT `+figureCols+` FROM figures_fts JOIN `+figureJoins+`
				WHERE f.id = figures_fts.rowid AND figures_fts MATCH ? AND figures_fts.rowid BETWEEN ? AND ? ORDER BY f.id`)
			if err != nil {
				return nil, err
			}
			defer stmt.Close()
			out := []Figure{}
			for _, sp := range spans {
				fs, err := scanFigures(stmt.QueryContext(ctx, expr, sp.lo, sp.hi))
				if err != nil {
					return nil, err
				}
				out = append(out, fs...)
			}
			return out, nil
		}
	}
	return scanFigures(db.sql.QueryContext(ctx, `SELECT `+figureCols+` FROM figures_fts JOIN `+figureJoins+`
		WHERE f.id = figures_fts.rowid AND figures_fts MATCH ? AND `+where+` ORDER BY bm25(figures_fts, 2.0, 1.0) LIMIT 100`,
		append([]any{expr}, args...)...))
}

// covered counts the words of a query (folded) that a caption holds, as
// the index stems them.
func covered(caption string, words []string) int {
	has := map[string]bool{}
	for _, w := range text.Words(caption) {
		has[text.Stem(w)] = true
	}
	n := 0
	for _, w := range words {
		if has[text.Stem(w)] {
			n++
		}
	}
	return n
}
