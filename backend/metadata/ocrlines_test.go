package metadata

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

// ocrPage lays lines out as OCR reads them: each word boxed as tall as
// its letters reach in type of the line's size (a word of small letters
// half as tall as one with capitals and descenders).
func ocrPage(lines []pdf.Line) pdf.PageChars {
	pc := pdf.PageChars{Number: 1, Width: 612, Height: 792}
	y := 40.0
	for i, ln := range lines {
		if i > 0 {
			pc.Text += "\n"
			pc.Boxes = append(pc.Boxes, [4]float64{})
		}
		x := 50.0
		for j, w := range strings.Fields(ln.Text) {
			if j > 0 {
				pc.Text += " "
				pc.Boxes = append(pc.Boxes, [4]float64{})
			}
			top, bottom := y+0.5*ln.Size, y+ln.Size*0.95 // small letters only
			if strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZbdfhklt0123456789") {
				top = y + 0.23*ln.Size
			}
			if strings.ContainsAny(w, "gjpqy") {
				bottom = y + ln.Size*1.18
			}
			for range w {
				pc.Boxes = append(pc.Boxes, [4]float64{x, top, x + 5, bottom})
				x += 5
			}
			pc.Text += w
			x += 3
		}
		y += ln.Size * 1.4
	}
	return pc
}

// TestOCRLines: the sizes estimated from OCR's word boxes keep the order
// of the type's sizes, so the header of a scanned page is read as a text
// layer's.
func TestOCRLines(t *testing.T) {
	page := []pdf.Line{
		l(8, "Reprinted from JOURNAL OF PARALLEL COMPUTING Vol. 9, No. 2, May 1989"),
		l(14, "Wait-Free Queues on"),
		l(14, "Shared-Memory Machines"),
		l(10, "HERMANN T. KOHL"),
		l(8, "Institut für Informatik, Universität Karlsruhe, Germany"),
		l(8, "Received June 13, 1988; revised January 3, 1989"),
		l(9, "Queues are the building block of many concurrent programs; we show one on which no process waits."),
	}
	got := OCRLines(ocrPage(page))
	if len(got) != len(page) {
		t.Fatalf("%d lines, want %d: %+v", len(got), len(page), got)
	}
	for i, ln := range got {
		if ln.Text != page[i].Text || ln.Size < page[i].Size-1 || ln.Size > page[i].Size+1 {
			t.Errorf("line %d: %q at %.1f, want %q at about %.1f", i, ln.Text, ln.Size, page[i].Text, page[i].Size)
		}
	}
	doc := &pdf.Document{Pages: []pdf.Page{{Number: 1, OCR: true, Text: ocrPage(page).Text}}, FirstPageLines: got}
	d := Derive("papers/x", File{}, FromDocument(doc), 0)
	if d.Title != "Wait-Free Queues on Shared-Memory Machines" || len(d.Authors) != 1 || d.Authors[0] != "Hermann T. Kohl" || d.Year != 1989 {
		t.Errorf("read from OCR: %q by %q, %d", d.Title, d.Authors, d.Year)
	}
}
