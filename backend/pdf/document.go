package pdf

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/klippa-app/go-pdfium"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Document is what Extract reads from one PDF file.
type Document struct {
	Pages          []Page    // one per physical page, Number 1..N; Text "" when the page has no text layer
	Info           Info      // from the Info dictionary and the XMP metadata
	Outline        []Section // bookmarks in document order, pages resolved to physical page numbers
	FirstPageLines []Line    // page 1's text lines in reading order with their font size
}

// Page is the text of one physical page.
type Page struct {
	Number int    // physical page number, 1-based
	Label  string // printed page label from /PageLabels, "" when the PDF has none
	Text   string // normalised text in reading order, "" when the page has no text layer
}

// Info is the document metadata. Values from the Info dictionary win; XMP
// fills what the Info dictionary leaves empty and is the only source of the
// DOI besides a "doi" Info key. A Title that is a file name ("paper.dvi",
// "Microsoft Word - x.doc") or an arXiv stamp is dropped.
type Info struct {
	Title, Author, Subject, Keywords, Creator, Producer string
	CreationYear                                        int    // 0 when unknown
	DOI                                                 string // lower case, without a resolver prefix
}

// Section is one outline (bookmark) entry.
type Section struct {
	Title string
	Level int // 1 for top-level entries
	Page  int // physical page number, 1-based; 0 when the entry points nowhere in the file
}

// Line is one line of text with the font size most of its characters use,
// in points as rendered on the page.
type Line struct {
	Text string
	Size float64
}

// Outline walking limits: outlines can be cyclic or absurdly deep in broken
// files, and nothing useful lies beyond these.
const (
	maxOutlineEntries = 5000
	maxOutlineDepth   = 16
)

// maxPages is more pages than any real document has; a larger page count is
// a broken or hostile page tree.
const maxPages = 100_000

// readDocument reads everything but XMP from f with one PDFium instance.
// It runs in a worker process, which the parent kills when the file takes
// too long; nothing here needs to watch the clock.
func readDocument(inst pdfium.Pdfium, f *os.File, size int64, log *slog.Logger) (*Document, error) {
	opened, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: size})
	if err != nil {
		return nil, openError(err)
	}
	doc := opened.Document
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})

	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc})
	if err != nil {
		return nil, fmt.Errorf("count pages: %w: %w", ErrDamaged, err)
	}
	if count.PageCount <= 0 || count.PageCount > maxPages {
		return nil, fmt.Errorf("page count %d: %w", count.PageCount, ErrDamaged)
	}

	out := &Document{Pages: make([]Page, count.PageCount)}
	failed := 0
	for i := range out.Pages {
		text, err := pageText(inst, doc, i)
		if err != nil {
			failed++
			log.Debug("pdf: page text", "page", i+1, "err", err)
		}
		out.Pages[i] = Page{Number: i + 1, Label: pageLabel(inst, doc, i), Text: text}
	}
	if failed == len(out.Pages) {
		// Not even one page could be loaded: the page tree is unusable.
		return nil, fmt.Errorf("no page could be read: %w", ErrDamaged)
	}

	out.Info = readInfo(inst, doc)
	out.Outline = readOutline(inst, doc, len(out.Pages))
	if lines, err := firstPageLines(inst, doc); err == nil {
		out.FirstPageLines = lines
	} else {
		log.Debug("pdf: first page lines", "err", err)
	}
	return out, nil
}

// openError maps PDFium's open errors to ours: a password or an unknown
// security handler means encrypted; anything else (bad format, unreadable
// file, a trap inside PDFium) means damaged.
func openError(err error) error {
	if errors.Is(err, pdfiumerrors.ErrPassword) || errors.Is(err, pdfiumerrors.ErrSecurity) {
		return fmt.Errorf("open pdf: %w", ErrEncrypted)
	}
	return fmt.Errorf("open pdf: %w: %w", ErrDamaged, err)
}

// pageText returns the normalised text of page i (0-based). The whole page
// goes through FPDFText_GetText in one call, which keeps PDFium's reading
// order (columns one after the other).
func pageText(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, i int) (string, error) {
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: i}},
	})
	if err != nil {
		return "", fmt.Errorf("load text page: %w", err)
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})

	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return "", fmt.Errorf("count chars: %w", err)
	}
	if n.Count <= 0 {
		return "", nil
	}
	text, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, Count: n.Count})
	if err != nil {
		return "", fmt.Errorf("get text: %w", err)
	}
	return Normalize(text.Text), nil
}

// pageLabel returns the printed label of page i (0-based), "" when the PDF
// has no /PageLabels.
func pageLabel(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, i int) string {
	label, err := inst.FPDF_GetPageLabel(&requests.FPDF_GetPageLabel{Document: doc, Page: i})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(label.Label)
}

// readInfo reads the Info dictionary.
func readInfo(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT) Info {
	get := func(tag string) string {
		v, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc, Tag: tag})
		if err != nil {
			return ""
		}
		return cleanMeta(v.Value)
	}
	info := Info{
		Title:        plausibleTitle(get("Title")),
		Author:       get("Author"),
		Subject:      get("Subject"),
		Keywords:     get("Keywords"),
		Creator:      get("Creator"),
		Producer:     get("Producer"),
		CreationYear: pdfDateYear(get("CreationDate")),
	}
	for _, tag := range []string{"doi", "DOI"} {
		if d := normalizeDOI(get(tag)); d != "" {
			info.DOI = d
			break
		}
	}
	return info
}

// plausibleTitle returns s, or "" when s is what producers write instead of a
// title: a file name ("paper.dvi", "Microsoft Word - draft.doc") or an arXiv
// stamp. A caller then falls back to the title on page 1.
func plausibleTitle(s string) string {
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "microsoft word - ") || strings.HasPrefix(lower, "arxiv:") || lower == "untitled" {
		return ""
	}
	for _, ext := range []string{".dvi", ".eps", ".ps", ".pdf", ".doc", ".docx", ".tex", ".rtf", ".indd", ".qxd", ".dot"} {
		if strings.HasSuffix(lower, ext) {
			return ""
		}
	}
	return s
}

// cleanMeta collapses white space in a metadata value.
func cleanMeta(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\x00", "")), " ")
}

// pdfDateYear returns the year of a PDF date ("D:20140520…"), or 0.
func pdfDateYear(s string) int {
	s = strings.TrimPrefix(strings.TrimSpace(s), "D:")
	if len(s) < 4 {
		return 0
	}
	y, err := strconv.Atoi(s[:4])
	if err != nil || y < 1000 || y > 9999 {
		return 0
	}
	return y
}

// readOutline walks the bookmark tree depth first. Entries whose target is
// not a page of this file keep Page 0. Errors end the walk with what was
// read so far: an outline is a convenience, not worth failing a file for.
func readOutline(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) []Section {
	var out []Section
	var walk func(parent *references.FPDF_BOOKMARK, level int)
	walk = func(parent *references.FPDF_BOOKMARK, level int) {
		if level > maxOutlineDepth {
			return
		}
		child, err := inst.FPDFBookmark_GetFirstChild(&requests.FPDFBookmark_GetFirstChild{Document: doc, Bookmark: parent})
		if err != nil || child.Bookmark == nil {
			return
		}
		bm := *child.Bookmark
		for len(out) < maxOutlineEntries {
			title := ""
			if t, err := inst.FPDFBookmark_GetTitle(&requests.FPDFBookmark_GetTitle{Bookmark: bm}); err == nil {
				title = cleanMeta(t.Title)
			}
			page := bookmarkPage(inst, doc, bm)
			if page < 1 || page > pages {
				page = 0
			}
			out = append(out, Section{Title: title, Level: level, Page: page})
			walk(&bm, level+1)

			next, err := inst.FPDFBookmark_GetNextSibling(&requests.FPDFBookmark_GetNextSibling{Document: doc, Bookmark: bm})
			if err != nil || next.Bookmark == nil {
				return
			}
			bm = *next.Bookmark
		}
	}
	walk(nil, 1)
	return out
}

// bookmarkPage returns the 1-based page a bookmark points to, through its
// /Dest or its GoTo action, or 0.
func bookmarkPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, bm references.FPDF_BOOKMARK) int {
	var dest references.FPDF_DEST
	if d, err := inst.FPDFBookmark_GetDest(&requests.FPDFBookmark_GetDest{Document: doc, Bookmark: bm}); err == nil && d.Dest != nil {
		dest = *d.Dest
	} else if a, err := inst.FPDFBookmark_GetAction(&requests.FPDFBookmark_GetAction{Bookmark: bm}); err == nil && a.Action != nil {
		if d, err := inst.FPDFAction_GetDest(&requests.FPDFAction_GetDest{Document: doc, Action: *a.Action}); err == nil && d.Dest != nil {
			dest = *d.Dest
		}
	}
	if dest == "" {
		return 0
	}
	idx, err := inst.FPDFDest_GetDestPageIndex(&requests.FPDFDest_GetDestPageIndex{Document: doc, Dest: dest})
	if err != nil || idx.Index < 0 {
		return 0
	}
	return idx.Index + 1
}
