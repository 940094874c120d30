package intake

import (
	"context"
	"os"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/pdf"
)

// Extractor reads a whole PDF (pdf.Extractor, the library's shared one).
type Extractor interface {
	ExtractFile(ctx context.Context, f *os.File) (*pdf.Document, error)
}

// PDFDescriber reads a PDF's title, authors, year, identifiers and abstract
// with ex, the way the index derives them for a paper without
// metadata.json (metadata.Describe).
func PDFDescriber(ex Extractor) Describer {
	return describer(ex.ExtractFile)
}

// HeadExtractor reads what names a paper from a PDF: its first page, Info
// and XMP (pdf.Extractor.ExtractHead).
type HeadExtractor interface {
	ExtractHead(ctx context.Context, f *os.File) (*pdf.Document, error)
}

// PDFHeadDescriber is PDFDescriber reading page 1 alone (with the Info
// dictionary and XMP) when ex can (HeadExtractor): all that metadata.Describe
// reads, at a fraction of a whole reading's cost. It is for a preview that
// only names papers (arranging a folder of loose PDFs), whose PDFs the
// index reads whole afterwards anyway. Add keeps PDFDescriber: the whole
// reading it makes is handed to the index (library.AddReader).
func PDFHeadDescriber(ex Extractor) Describer {
	if h, ok := ex.(HeadExtractor); ok {
		return describer(h.ExtractHead)
	}
	return PDFDescriber(ex)
}

func describer(extract func(context.Context, *os.File) (*pdf.Document, error)) Describer {
	return func(ctx context.Context, path string) (Described, error) {
		f, _, err := openPDF(path)
		if err != nil {
			return Described{}, err
		}
		defer f.Close()
		doc, err := extract(ctx, f)
		if err != nil {
			return Described{}, err
		}
		m := metadata.Describe(doc)
		return Described{Title: m.Title, Authors: m.Authors, Year: m.Year, DOI: m.DOI, ArxivID: m.ArxivID, Abstract: m.Abstract}, nil
	}
}
