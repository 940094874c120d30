package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/pdf"
)

// extracted is what the index stores of a PDF's reading beside its pages:
// what the PDF says about itself (metadata.Extracted, which an edited
// metadata.json is merged with again without re-extraction) and which
// pages' text was cut at pdf's caps, for the paper's health.
type extracted struct {
	metadata.Extracted
	Cut string `json:"cut,omitempty"` // which pages' text was cut at pdf's caps (cutNote)
}

// fromDocument reads what the index keeps of a PDF besides its pages.
func fromDocument(doc *pdf.Document) extracted {
	return extracted{Extracted: metadata.FromDocument(doc), Cut: cutNote(doc.Pages)}
}

// cutNote says which pages the extractor cut at its text caps, for the
// paper's health: such a paper is indexed, but not whole.
func cutNote(pages []pdf.Page) string {
	var cut, dropped []int
	for _, pg := range pages {
		switch {
		case pg.Cut && pg.Text == "":
			dropped = append(dropped, pg.Number)
		case pg.Cut:
			cut = append(cut, pg.Number)
		}
	}
	var notes []string
	if len(cut) > 0 {
		notes = append(notes, fmt.Sprintf("text cut at %d bytes on %s", pdf.MaxPageText, pageList(cut)))
	}
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("%s not indexed: the document passed %d bytes of text", pageList(dropped), pdf.MaxDocumentText))
	}
	return strings.Join(notes, "; ")
}

// pageList names pages compactly: "page 3", "pages 3, 7", "pages 12–900".
func pageList(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("page %d", ns[0])
	}
	contiguous := ns[len(ns)-1]-ns[0] == len(ns)-1
	if contiguous {
		return fmt.Sprintf("pages %d–%d", ns[0], ns[len(ns)-1])
	}
	parts := make([]string, 0, min(len(ns), 10))
	for _, n := range ns[:min(len(ns), 10)] {
		parts = append(parts, strconv.Itoa(n))
	}
	more := ""
	if len(ns) > 10 {
		more = fmt.Sprintf(" and %d more", len(ns)-10)
	}
	return "pages " + strings.Join(parts, ", ") + more
}

// joinNotes joins the non-empty notes of a paper's health.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// withoutGarbled returns doc with the text of the garbled pages taken out
// (doc itself when there are none): what is not text is not indexed, and
// so never offered to an agent.
func withoutGarbled(doc *pdf.Document, garbled []int) *pdf.Document {
	if len(garbled) == 0 {
		return doc
	}
	out := *doc
	out.Pages = slices.Clone(doc.Pages)
	for _, n := range garbled {
		if n >= 1 && n <= len(out.Pages) {
			out.Pages[n-1].Text = ""
		}
	}
	return &out
}

// garbledNote says, for the paper's health, which pages have an
// unreadable text layer.
func garbledNote(garbled []int) string {
	if len(garbled) == 0 {
		return ""
	}
	return "unreadable text (a broken font encoding) on " + pageList(garbled) + ", not indexed: needs OCR"
}
