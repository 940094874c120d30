// Package outline gives a paper's sections: the PDF's own outline when it
// is right (its titles are printed on the pages it points to), else the
// headings found on the pages — numbered ("3", "3.2", "IV.", "A.1") or with
// the usual names (Abstract, Introduction, References…), set larger or
// bolder than the body, short, neither a caption nor a running head, in
// page order and numbering order.
//
// Each section says where it starts: its page and the rune offset of its
// title in the page's text as the index holds it (pdf.Page.Text), so that a
// section read returns exactly its text, up to the next section's start.
package outline

import (
	"strings"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
)

// Section is one section of a paper.
type Section struct {
	Title  string `json:"title"`
	Level  int    `json:"level"`  // 1 for top-level sections
	Page   int    `json:"page"`   // physical page number, 1-based
	Offset int    `json:"offset"` // rune offset of the title in the page's text
}

// Source says where a paper's sections came from.
type Source string

const (
	FromOutline  Source = "outline"  // the PDF's bookmarks
	FromHeadings Source = "headings" // detected on the pages
)

// Sections returns doc's sections in reading order and where they came
// from. Every section's title is on its page, at its Offset.
func Sections(doc *pdf.Document) ([]Section, Source) {
	fromOutline := checkOutline(doc)
	// A right outline wins when it is not much poorer than the headings:
	// a PDF that bookmarks only its chapters still reads better by them.
	if len(fromOutline) >= 4 {
		return fromOutline, FromOutline
	}
	found := Detect(doc.Pages)
	if len(fromOutline) >= len(found) && len(fromOutline) > 0 {
		return fromOutline, FromOutline
	}
	return found, FromHeadings
}

// checkOutline returns the outline's entries that are printed on their
// pages, with their offsets, when most of them are; nil when the outline is
// missing or wrong (pointing at the wrong pages, or titled for a reader
// rather than as printed).
func checkOutline(doc *pdf.Document) []Section {
	if len(doc.Outline) == 0 {
		return nil
	}
	var out []Section
	pointed := 0
	for _, s := range doc.Outline {
		if s.Page < 1 || s.Page > len(doc.Pages) {
			continue
		}
		pointed++
		text := doc.Pages[s.Page-1].Text
		off, ok := locate(text, s.Title, 0)
		if !ok {
			continue
		}
		out = append(out, Section{Title: s.Title, Level: s.Level, Page: s.Page, Offset: off})
	}
	if pointed == 0 || len(out)*10 < pointed*6 {
		return nil
	}
	return out
}

// locate returns the rune offset of title in text at or after rune from:
// as written, else ignoring case, spacing, hyphens and punctuation.
func locate(text, title string, from int) (int, bool) {
	title = strings.TrimSpace(title)
	if title == "" {
		return 0, false
	}
	r := []rune(text)
	if from > len(r) {
		from = len(r)
	}
	rest := string(r[from:])
	if i := strings.Index(rest, title); i >= 0 {
		return from + len([]rune(rest[:i])), true
	}
	if from > 0 {
		if off, ok := locate(text, title, 0); ok {
			return off, true
		}
	}
	if len(quote.Fold(title)) < 3 {
		return 0, false
	}
	p := quote.NewPaper([]quote.Page{{Number: 1, Text: text}})
	if m, ok := p.Find(1, title); ok && len(m.Spans) > 0 && m.Spans[0].Page == 1 {
		return m.Spans[0].From, true
	}
	return foldedIndex(r, title)
}

// foldedIndex finds a title too short for the quote locator: the first
// line start whose folded text begins with the folded title.
func foldedIndex(r []rune, title string) (int, bool) {
	want := quote.Fold(title)
	if want == "" {
		return 0, false
	}
	start := 0
	for i := 0; i <= len(r); i++ {
		if i < len(r) && r[i] != '\n' {
			continue
		}
		if strings.HasPrefix(quote.Fold(string(r[start:i])), want) {
			return start, true
		}
		start = i + 1
	}
	return 0, false
}
