package pdf

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Document is what Extract reads from one PDF file.
type Document struct {
	Pages          []Page    // one per physical page, Number 1..N; Text "" when the page has no text layer
	Info           Info      // from the Info dictionary and the XMP metadata
	Outline        []Section // bookmarks in document order, pages resolved to physical page numbers
	FirstPageLines []Line    // page 1's text lines in reading order with their font size
	// Chars holds the pages a Chars request asked for; nil otherwise.
	Chars []PageChars
	// Image holds the drawing a Render request asked for; nil otherwise.
	Image *Image
	// Captions are the figures' and tables' captions found on the pages
	// with a text layer, in page order, one per label.
	Captions []Caption
}

// Page is the text of one physical page.
type Page struct {
	Number int    // physical page number, 1-based
	Label  string // printed page label from /PageLabels, "" when the PDF has none
	Text   string // normalised text in reading order, "" when the page has no text layer
	// Cut is set when the text was cut at MaxPageText, or, past
	// MaxDocumentText, dropped: Text "" then does not mean no text layer.
	Cut bool
	// Short holds the page's lines of at most MaxShortLine characters,
	// in reading order, with their size and boldness: where its headings
	// are. BodySize is the size most of the page's text is set in (0 when
	// it has none).
	Short    []Line
	BodySize float64
	// OCR is set when Text was read from the page's image (Extractor.OCR):
	// it has no text layer, or one that is garbage.
	OCR bool
}

// MaxShortLine is the longest line a page's Short lines hold.
const MaxShortLine = 120

// Text caps. Real pages hold 2,000–6,000 bytes of text (the densest page
// of the shared corpus holds 8,604, its longest paper 278 KB); a page
// past MaxPageText is a hostile or broken file (text drawn a million times
// over), and its text past the cap is cut. A document keeps at most
// MaxDocumentText bytes of page text, about 2,000 dense pages; the pages
// after that keep no text. Either way the page is marked Cut, and the
// index records it in the paper's health. The Info fields and outline
// titles are capped too.
const (
	MaxPageText     = 100_000    // bytes of one page's text
	MaxDocumentText = 10_000_000 // bytes of a document's page text
	maxMetaText     = 2_000      // bytes of one Info field or outline title
)

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
// in points as rendered on the page, and whether their font is bold (set
// heavier than the page's body, or bold outright).
type Line struct {
	Text string
	Size float64
	Bold bool
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

// pdfReader is one open PDF as extraction reads it. PDFium compiled to
// WebAssembly (wasmReader) and a native libpdfium (nativeReader) both
// provide it; page and bookmark indexes are 0-based, as PDFium's.
type pdfReader interface {
	pageCount() (int, error)
	// pageText returns page i's text as FPDFText_GetText gives it, in
	// PDFium's reading order (columns one after the other).
	pageText(i int) (string, error)
	pageLabel(i int) string // the printed label, trimmed; "" when none
	metaText(tag string) string
	// firstBookmark returns the first child of parent (nil: the outline's
	// root); nextBookmark the next sibling of bm.
	firstBookmark(parent bookmark) (bookmark, bool)
	nextBookmark(bm bookmark) (bookmark, bool)
	bookmarkTitle(bm bookmark) string
	// bookmarkPage returns the page index bm points to through its /Dest or
	// its GoTo action, or -1.
	bookmarkPage(bm bookmark) int
	// chars calls each for the first max characters of page i: r, its
	// rendered size (0 for line breaks, spaces and PDFium's hyphen marker),
	// its font's weight (400 normal, 700 bold; 0 when unknown) and whether
	// it is turned by about 90 degrees.
	chars(i, max int, each func(r rune, size float64, weight int, vertical bool)) error
	// charBoxes returns page i's text as pageText reads it, each rune with
	// its loose box on the shown page, and the page's size.
	charBoxes(i int) (rawChars, error)
	// pageLayout returns page i's text as pageText does and, from the same
	// reading of the page, its characters as FPDFText_GetUnicode gives
	// them, with the props of the first lineHead characters of each line
	// and of every bodySample-th character (size -1 for the others, 0 for
	// white space and line breaks).
	pageLayout(i int) (string, rawLayout, error)
	close()
}

// bookmark is a reader's handle of an outline entry.
type bookmark any

// readDocument reads everything but XMP from an open PDF. It runs in a
// worker process, which the parent kills when the file takes too long;
// nothing here needs to watch the clock.
func readDocument(r pdfReader, log *slog.Logger) (*Document, error) {
	return readPages(r, log, false)
}

// readPages is readDocument, or, with head, what names a paper only:
// page 1 (its text and lines) and the Info dictionary, without the other
// pages and the outline (ExtractHead).
func readPages(r pdfReader, log *slog.Logger, head bool) (*Document, error) {
	count, err := r.pageCount()
	if err != nil {
		return nil, fmt.Errorf("count pages: %w: %w", ErrDamaged, err)
	}
	if count <= 0 || count > maxPages {
		return nil, fmt.Errorf("page count %d: %w", count, ErrDamaged)
	}
	if head {
		count = 1
	}

	out := &Document{Pages: make([]Page, count)}
	failed, total := 0, 0
	for i := range out.Pages {
		pg := Page{Number: i + 1, Label: truncate(r.pageLabel(i), maxMetaText)}
		if total >= MaxDocumentText {
			pg.Cut = true // the document's text is full: not read
			out.Pages[i] = pg
			continue
		}
		var text string
		var layout rawLayout
		var err error
		if i == 0 {
			text, err = r.pageText(i)
		} else {
			text, layout, err = r.pageLayout(i)
		}
		if err != nil {
			failed++
			log.Debug("pdf: page text", "page", i+1, "err", err)
		}
		pg.Text = Normalize(text)
		if limit := min(MaxPageText, MaxDocumentText-total); len(pg.Text) > limit {
			pg.Text, pg.Cut = truncate(pg.Text, limit), true
		}
		total += len(pg.Text)
		if i == 0 {
			if lines, err := pageLines(r, 0); err == nil {
				out.FirstPageLines, pg.Short, pg.BodySize = pageOf(lines)
			} else {
				log.Debug("pdf: first page lines", "err", err)
			}
		} else if pg.Text != "" {
			pg.Short, pg.BodySize = layout.lines()
		}
		if !head && maybeCaptions(pg.Text) {
			if raw, err := r.charBoxes(i); err == nil {
				out.Captions = append(out.Captions, findCaptions(pageChars(i+1, raw))...)
			} else {
				log.Debug("pdf: caption boxes", "page", i+1, "err", err)
			}
		}
		out.Pages[i] = pg
	}
	if failed == len(out.Pages) {
		// Not even one page could be loaded: the page tree is unusable.
		return nil, fmt.Errorf("no page could be read: %w", ErrDamaged)
	}

	out.Info = readInfo(r)
	if !head {
		out.Outline = readOutline(r, len(out.Pages))
		out.Captions = documentCaptions(out.Captions)
	}
	return out, nil
}

// readInfo reads the Info dictionary.
func readInfo(r pdfReader) Info {
	get := func(tag string) string { return cleanMeta(r.metaText(tag)) }
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

// cleanMeta collapses white space in a metadata value, and cuts it at
// maxMetaText.
func cleanMeta(s string) string {
	return truncate(strings.Join(strings.Fields(strings.ReplaceAll(s, "\x00", "")), " "), maxMetaText)
}

// truncate cuts s to at most n bytes, at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// pdfDateYear returns the year of a PDF date ("D:20140520…"), or 0.
func pdfDateYear(s string) int {
	s = strings.TrimSpace(s)
	d, pdfDate := strings.CutPrefix(s, "D:")
	if pdfDate || (len(s) >= 4 && isDigits(s[:4])) {
		if len(d) < 4 || !isDigits(d[:4]) {
			return 0
		}
		y, _ := strconv.Atoi(d[:4])
		if y < 1000 {
			return 0
		}
		return y
	}
	// Not the PDF date format: some producers write a ctime date ("Thu May
	// 3 21:55:42 2012") or a local one ("03/05/2012"). Take the year when
	// the string holds exactly one.
	found := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(f) != 4 {
			continue
		}
		y, _ := strconv.Atoi(f)
		switch {
		case y < 1900 || y > 2100:
		case found != 0 && found != y:
			return 0 // two years: which one is unknown
		default:
			found = y
		}
	}
	return found
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// readOutline walks the bookmark tree depth first. Entries whose target is
// not a page of this file keep Page 0. A failed call ends the walk with what
// was read so far: an outline is a convenience, not worth failing a file for.
func readOutline(r pdfReader, pages int) []Section {
	var out []Section
	var walk func(parent bookmark, level int)
	walk = func(parent bookmark, level int) {
		if level > maxOutlineDepth {
			return
		}
		bm, ok := r.firstBookmark(parent)
		for ok && len(out) < maxOutlineEntries {
			page := r.bookmarkPage(bm) + 1
			if page < 1 || page > pages {
				page = 0
			}
			out = append(out, Section{Title: cleanMeta(r.bookmarkTitle(bm)), Level: level, Page: page})
			walk(bm, level+1)
			bm, ok = r.nextBookmark(bm)
		}
	}
	walk(nil, 1)
	return out
}
