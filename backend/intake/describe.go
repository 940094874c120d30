package intake

import (
	"context"

	"github.com/agentero/agentero/backend/index"
)

// PDFDescriber reads a PDF's title, authors, year and identifiers with ex,
// the way the index derives them for a paper without metadata.json.
func PDFDescriber(ex index.Extractor) Describer {
	return func(ctx context.Context, path string) (Described, error) {
		f, _, err := openPDF(path)
		if err != nil {
			return Described{}, err
		}
		defer f.Close()
		doc, err := ex.ExtractFile(ctx, f)
		if err != nil {
			return Described{}, err
		}
		m := index.Describe(doc)
		return Described{Title: m.Title, Authors: m.Authors, Year: m.Year, DOI: m.DOI, ArxivID: m.ArxivID, Abstract: m.Abstract}, nil
	}
}
