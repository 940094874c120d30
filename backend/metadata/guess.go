package metadata

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/pdf"
)

// Extracted is what a PDF says about itself. The index stores it with the
// paper so that an edited metadata.json re-derives the metadata without
// re-extraction.
type Extracted struct {
	InfoTitle   string   `json:"infoTitle,omitempty"` // only when page 1 shows it (infoTitleFor)
	InfoAuthors []string `json:"infoAuthors,omitempty"`
	HeadTitle   string   `json:"headTitle,omitempty"`
	HeadAuthors []string `json:"headAuthors,omitempty"` // the names under the title on page 1
	DOI         string   `json:"doi,omitempty"`
	ArxivID     string   `json:"arxivId,omitempty"`
	Year        int      `json:"year,omitempty"`      // printed on page 1 (stamp, journal, copyright, date)
	YearDated   bool     `json:"yearDated,omitempty"` // Year is a date line's: this copy's date, not where it was published
	FileYear    int      `json:"fileYear,omitempty"`  // estimated from the PDF's creation year (estimateYear), the weakest evidence
	Abstract    string   `json:"abstract,omitempty"`  // printed on the first pages (abstractOf)
	// Garbled lists the pages whose text layer is garbage (a broken font
	// encoding): their text is not indexed, and the paper needs OCR.
	Garbled []int `json:"garbled,omitempty"`
}

// FromDocument reads identifiers and title candidates from the PDF's Info/XMP
// and its first page.
func FromDocument(doc *pdf.Document) Extracted {
	var x Extracted
	first := ""
	if len(doc.Pages) > 0 {
		first = doc.Pages[0].Text
	}
	lines := doc.FirstPageLines
	var last int
	x.HeadTitle, last = titleLines(lines)
	x.InfoTitle = infoTitleFor(doc.Info.Title, x.HeadTitle, lines)
	if a := strings.TrimSpace(stripMarkup(doc.Info.Author)); a != "" && !strings.ContainsAny(a, "\\/") {
		x.InfoAuthors = people(verifiedAuthors(infoAuthors(a), first), "", lines, first)
	}
	x.Garbled = GarbledPages(doc.Pages)
	if !slices.Contains(x.Garbled, 1) { // a garbled page 1's "names" are mojibake
		x.HeadAuthors = people(headAuthors(lines, last+1), x.HeadTitle, lines, first)
	}
	x.DOI = ident.NormalizeDOI(doc.Info.DOI)
	if x.DOI == "" {
		x.DOI = ident.FindDOI(first)
	}
	x.ArxivID = ident.FindArxiv(first)
	if x.ArxivID == "" {
		x.ArxivID = ident.ArxivFromDOI(x.DOI)
	}
	x.Year, x.YearDated = headYear(first, lines, last+1)
	if x.Year == 0 {
		x.Year = ident.ArxivYear(x.ArxivID)
	}
	created := doc.Info.CreationYear
	if yearOf(strconv.Itoa(created)) == 0 {
		created = 0
	}
	x.FileYear = estimateYear(created, citedYear(first))
	x.Abstract = abstractOf(doc.Pages, lines, last, x.Garbled)
	return x
}

// Derived is the metadata the library shows, merged from metadata.json, the
// PDF's Info/XMP and its first page, in that order (SPEC §1).
type Derived struct {
	Title, TitleSource string
	Authors            []string
	Year               int
	DOI, ArxivID       string
	Abstract           string
}

// cited is the year the library's papers give when they cite this one
// (0 when none does; refs.Sync records it with SetCitedYears). It stands
// in for a year that says when this copy was made rather than when the
// paper appeared: a date line under the title (a draft's, a report's) or
// the PDF's creation date, and for a paper with no year at all. A draft
// of 2013 cited as published in 2014 is the paper of 2014; a white paper
// written in 2008 whose PDF was made in 2009 is the paper of 2008. A year
// printed as where the paper appeared (an arXiv stamp, a journal line, a
// copyright), a year in the file's name and metadata.json's year stand.
func Derive(ref string, m File, x Extracted, cited int) Derived {
	named := ref // the name a year in it is the user's (fileYear)
	if pv := provenanceOf(m); pv.Imported.From == "file" {
		// Added from a file: the folder's name is Agentero's slug, and the
		// fields read from the PDF then are read again, so that what the
		// index learns since (a year the library cites) shows.
		named = pv.Imported.File
		if pv.readFromPDF("title", m.Title) && (x.InfoTitle != "" || x.HeadTitle != "" && !slices.Contains(x.Garbled, 1)) {
			m.Title = ""
		}
		if pv.readFromPDF("authors", m.Authors) && len(x.InfoAuthors)+len(x.HeadAuthors) > 0 {
			m.Authors = nil
		}
		if pv.readFromPDF("year", m.Year) && (x.Year != 0 || x.FileYear != 0 || fileYear(named) != 0) {
			m.Year = 0
		}
		if pv.readFromPDF("abstract", m.Abstract) && x.Abstract != "" {
			m.Abstract = ""
		}
	}
	d := Derived{Authors: m.Authors, Year: m.Year, Abstract: m.Abstract}
	switch {
	case m.Title != "":
		d.Title, d.TitleSource = cleanSpace(m.Title), "metadata.json"
	case x.InfoTitle != "":
		d.Title, d.TitleSource = x.InfoTitle, "pdf-info"
	case x.HeadTitle != "" && !slices.Contains(x.Garbled, 1):
		d.Title, d.TitleSource = x.HeadTitle, "first-page"
	default:
		// the file's name as the user had it (an added file's) says
		// more than the folder's slug, which drops its small words
		d.Title, d.TitleSource = folderTitle(strings.TrimSuffix(named, path.Ext(named))), "folder"
	}
	if len(d.Authors) == 0 {
		d.Authors = x.InfoAuthors
		// an Info field that names the first author alone ("Sunny King")
		// gives way to page 1's fuller list that starts with them
		if h := x.HeadAuthors; len(h) > len(d.Authors) && (len(d.Authors) == 0 || sameFamily(h[0], d.Authors[0])) {
			d.Authors = h
		}
	}
	if d.Authors == nil {
		d.Authors = []string{}
	}
	if d.Abstract == "" {
		d.Abstract = x.Abstract // metadata.json's (the user's, an import's) wins
	}
	d.DOI = ident.NormalizeDOI(m.DOI)
	if d.DOI == "" {
		d.DOI = x.DOI
	}
	d.ArxivID = ident.NormalizeArxiv(m.ArxivID)
	if d.ArxivID == "" {
		d.ArxivID = ident.ArxivFromDOI(d.DOI)
	}
	if d.ArxivID == "" {
		d.ArxivID = x.ArxivID
	}
	copyYear, dated := 0, false // a year that dates this copy, not the paper
	if d.Year == 0 {
		d.Year = x.Year
		if x.YearDated {
			copyYear, dated = d.Year, true
		}
	}
	if d.Year == 0 {
		d.Year = fileYear(named)
	}
	if d.Year == 0 {
		d.Year = x.FileYear
		copyYear = d.Year
	}
	if cited != 0 && (d.Year == 0 || copyYear != 0 && citedFits(cited, copyYear, dated)) {
		d.Year = cited
	}
	return d
}

// provenance is what metadata.json says of where its values came from:
// "edited" lists the fields the user set in the app (Save), "source" names
// each field's origin, "imported" the file a paper was added from and the
// values the import wrote (Imported, MergeImport).
type provenance struct {
	Edited   []string
	Source   map[string]string
	Imported Imported
}

func provenanceOf(m File) provenance {
	return provenance{Edited: m.Edited(), Source: m.Sources(), Imported: ImportedOf(m.Extra)}
}

// readFromPDF says whether metadata.json holds field, now v, only because
// it was read from the PDF when the paper was added: its source is "pdf",
// the user did not edit it in the app, and it still holds what the import
// wrote (a value changed by hand in the file is the user's).
func (pv provenance) readFromPDF(field string, v any) bool {
	if pv.Source[field] != "pdf" || slices.Contains(pv.Edited, field) {
		return false
	}
	now, err := json.Marshal(v)
	var was bytes.Buffer
	if err != nil || json.Compact(&was, pv.Imported.Values[field]) != nil {
		return false
	}
	return bytes.Equal(now, was.Bytes())
}

// citedFits says whether the year citing papers give can be the year of a
// paper whose copy is dated copyYear: a draft or report appears within a
// few years of its date, and a PDF is seldom made before the paper it
// holds (a preprint's, up to two years), though often long after it (a
// scan, a reprint).
func citedFits(cited, copyYear int, dated bool) bool {
	if dated {
		return cited >= copyYear-3 && cited <= copyYear+2
	}
	return cited <= copyYear+2
}

var junkTitle = regexp.MustCompile(`(?i)(^untitled|microsoft word|\.(pdf|docx?|dvi|tex|ps|indd)$|^doi:|^arxiv:|^\d+$|^paper\d*$|^document\d*$|^slide)`)

// saneTitle rejects Info titles that name a file or a template instead of
// the paper.
func saneTitle(t string) bool {
	t = cleanSpace(t)
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 4 && len(t) <= 400 && !junkTitle.MatchString(t)
}

var notHeading = regexp.MustCompile(`(?i)(^(chapter|part|lecture|appendix)\s+([\dIVXLC]+|[A-Z])\.?$|^(research|original|review|short|full|invited|position|regular|technical|brief)?\s*(article|paper|letter|review|communication|report|note)s?$|^open access$|arxiv:|^preprint|journal of|proceedings|volume \d|vol\. \d|^doi|https?://|@|©|copyright|^\d+$|^page \d)`)

// sectionHeading matches the headings a first page carries besides its
// title; set large, they would otherwise win.
var sectionHeading = regexp.MustCompile(`(?i)^\s*(\d+(\.\d+)*\.?\s+)?(abstract|introduction|contents|keywords|index terms|references|acknowledge?ments?|summary|background|overview|preface)\s*[.:]?\s*$`)

func headingLike(s string) bool {
	s = strings.TrimSpace(s)
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 3 && len(s) <= 200 && !notHeading.MatchString(s) && !sectionHeading.MatchString(s)
}

func folderTitle(ref string) string {
	base := path.Base(ref)
	return strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(base))
}

func cleanSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
