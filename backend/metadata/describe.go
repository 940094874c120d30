package metadata

import (
	"github.com/agentero/agentero/backend/pdf"
)

// Describe is what a PDF says about itself, merged the way the library
// shows it when a paper has no metadata.json: the title (Info/XMP where
// sane, else page 1's heading), authors, year, DOI and arXiv id. Adding a
// paper writes it to the new paper's metadata.json, so the folder's name
// and the library agree. A title found nowhere is left empty.
func Describe(doc *pdf.Document) File {
	d := Derive("", File{}, FromDocument(doc), 0)
	m := File{Authors: d.Authors, Year: d.Year, DOI: d.DOI, ArxivID: d.ArxivID, Abstract: d.Abstract}
	if d.TitleSource != "folder" {
		m.Title = d.Title
	}
	if len(m.Authors) == 0 {
		m.Authors = nil
	}
	return m
}
