package index

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/agentero/agentero/backend/metadata"
	"github.com/agentero/agentero/backend/pdf"
)

// OCRReader reads pages of a PDF from their images: text and per-character
// boxes, as pdf.Extractor.OCR does. sha is the PDF's content hash, the key
// of its cache; pdf.ErrNoOCR says it cannot read on this machine.
type OCRReader interface {
	// read, when not nil, is called with the count of pages read so far
	// each time one more is, one call at a time.
	OCR(ctx context.Context, f *os.File, sha string, pages []int, read func(done int)) ([]pdf.PageChars, error)
}

// OCRProbe is an OCRReader that can tell whether it can read on this
// machine now (pdf.Extractor: whether Tesseract is installed). The
// indexer asks it once a sync, to read again the papers an earlier sync
// left needing OCR because it could not.
type OCRProbe interface {
	CanOCR() bool
}

// ocrProbe tells whether a sync's OCR can read now, asking its OCRProbe
// at the first question only. One sync's goroutine asks it: no lock.
type ocrProbe struct {
	ocr        OCRReader
	asked, can bool
}

func (p *ocrProbe) canOCR() bool {
	if !p.asked {
		probe, ok := p.ocr.(OCRProbe)
		p.can, p.asked = ok && probe.CanOCR(), true
	}
	return p.can
}

// needsOCR reports a paper whose pages were left unread because OCR was
// not installed when it was indexed.
func (k *known) needsOCR() bool {
	if !strings.Contains(k.extracted, `"noOcr"`) {
		return false
	}
	var x extracted
	return json.Unmarshal([]byte(k.extracted), &x) == nil && x.NoOCR
}

// unreadPages are the pages of doc without readable text: no text layer
// (and not cut at a cap), or a garbled one.
func unreadPages(doc *pdf.Document) []int {
	out := metadata.GarbledPages(doc.Pages)
	for _, pg := range doc.Pages {
		if strings.TrimSpace(pg.Text) == "" && !pg.Cut && !slices.Contains(out, pg.Number) {
			out = append(out, pg.Number)
		}
	}
	slices.Sort(out)
	return out
}

// ocr has the pages of doc without readable text read by SyncOptions.OCR,
// and returns doc with their text (Page.OCR set), or doc itself when there
// is nothing to read or no OCR. missing reports that Tesseract is not
// installed: the paper then stays as it was, needing OCR. A page OCR finds
// no words on keeps no text.
func (ix *Indexer) ocr(ctx context.Context, f *os.File, sha, ref string, doc *pdf.Document) (_ *pdf.Document, missing bool) {
	if ix.opts.OCR == nil {
		return doc, false
	}
	want := unreadPages(doc)
	if len(want) == 0 {
		return doc, false
	}
	if probe, ok := ix.opts.OCR.(OCRProbe); !ok || probe.CanOCR() {
		ix.progress(Progress{Step: StepOCR, Current: ref, Page: 0, Pages: len(want)})
	}
	got, err := ix.opts.OCR.OCR(ctx, f, sha, want, func(done int) {
		ix.progress(Progress{Step: StepOCR, Current: ref, Page: done, Pages: len(want)})
	})
	if errors.Is(err, pdf.ErrNoOCR) {
		return doc, true
	}
	if err != nil {
		ix.opts.Logger.Warn("ocr failed", "ref", ref, "err", err)
		return doc, false
	}
	out := *doc
	out.Pages = slices.Clone(doc.Pages)
	for _, pc := range got {
		if pc.Number < 1 || pc.Number > len(out.Pages) || strings.TrimSpace(pc.Text) == "" {
			continue
		}
		pg := &out.Pages[pc.Number-1]
		pg.Text, pg.OCR, pg.Short, pg.BodySize = pc.Text, true, nil, 0
		if pc.Number == 1 {
			// page 1's header (title, names, year) is read from what OCR
			// read, not from the text layer's lines, absent or garbage
			out.FirstPageLines = metadata.OCRLines(pc)
		}
	}
	ix.opts.Logger.Debug("ocr", "ref", ref, "pages", len(want))
	return &out, false
}

// ocrPages are the pages of doc whose text OCR read.
func ocrPages(pages []pdf.Page) []int {
	var out []int
	for _, pg := range pages {
		if pg.OCR {
			out = append(out, pg.Number)
		}
	}
	return out
}

// ocrNote is the health of a paper with pages read by OCR, or of one that
// needs OCR on a machine without Tesseract.
func ocrNote(pages []int, missing bool) string {
	switch {
	case len(pages) > 0:
		return "text from OCR on " + pageList(pages)
	case missing:
		return pdf.ErrNoOCR.Error()
	}
	return ""
}
