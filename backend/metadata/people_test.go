package metadata

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/pdf"
)

// TestAuthorsArePeople: what a header or an Info field gives as authors
// keeps the people and drops the kinds of junk real PDFs carry there.
func TestAuthorsArePeople(t *testing.T) {
	const title = "The Dining Cryptographers Problem: Unconditional Sender and Recipient Untraceability"
	for _, tc := range []struct {
		name  string
		in    []string
		lines []pdf.Line
		page  string
		want  []string
	}{
		{"people", []string{"David Chaum", "Ana María de la Cruz", "J. R. R. Tolkien", "Jean-Baptiste Lespiau", "Conor O'Brien"}, nil, "",
			[]string{"David Chaum", "Ana María de la Cruz", "J. R. R. Tolkien", "Jean-Baptiste Lespiau", "Conor O'Brien"}},
		{"an organisation", []string{"Association for Computational Linguistics", "Ann Smith"}, nil, "", []string{"Ann Smith"}},
		{"a keyword line", []string{"Additional Key Words", "Phrases"}, nil, "", nil},
		{"an address", []string{"Piazza di Porta S. Donato", "Via Roma", "Maria Rossi"}, nil, "", []string{"Maria Rossi"}},
		{"the subtitle read as names", []string{"Unconditional Sender", "Recipient Untraceability", "David Chaum"}, nil, "", []string{"David Chaum"}},
		{"mojibake", []string{"JÃ¶rg MÃ¼ller", "Ren\ufffde Roe"}, nil, "", nil},
		{"names in capitals", []string{"MICHAEL J. FISCHER"}, nil, "", []string{"Michael J. Fischer"}},
		{"affiliation letters on every name", []string{"Dirk Eddelbuettela", "Romain Françoisb"},
			[]pdf.Line{{Text: "aDebian Project, Chicago, USA"}, {Text: "b Department of Statistics, Some University"}}, "",
			[]string{"Dirk Eddelbuettel", "Romain François"}},
		{"an affiliation letter the page prints without", []string{"Dirk Eddelbuettela"},
			[]pdf.Line{{Text: "aDebian Project, Chicago, USA"}}, "Eddelbuettel, D. (2013). Seamless R and C++ integration.",
			[]string{"Dirk Eddelbuettel"}},
		{"a family name that ends in such a letter", []string{"Maria Costa"},
			[]pdf.Line{{Text: "a Department of Physics, Some University"}}, "",
			[]string{"Maria Costa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := people(tc.in, title, tc.lines, tc.page)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("people(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

// TestTitleKeepsItsParts: a title keeps its subtitle set in smaller type,
// a leading token set apart, and loses a footnote's number.
func TestTitleKeepsItsParts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []pdf.Line
		want  string
		last  int
	}{
		{"subtitle in smaller type", []pdf.Line{
			{Text: "J. Cryptology (1988) 1:65-75", Size: 8},
			{Text: "The Dining Cryptographers Problem:", Size: 16},
			{Text: "Unconditional Sender and Recipient Untraceability", Size: 13},
			{Text: "David Chaum", Size: 11},
			{Text: "Centre for Mathematics and Computer Science, Amsterdam", Size: 9},
			{Text: "Abstract. Keeping confidential who sends which messages is a problem.", Size: 9},
		}, "The Dining Cryptographers Problem: Unconditional Sender and Recipient Untraceability", 2},
		{"a leading token set apart", []pdf.Line{
			{Text: "P5", Size: 17},
			{Text: ": A Protocol for Scalable Anonymous Communication", Size: 17},
			{Text: "Rob Sherwood Bobby Bhattacharjee Aravind Srinivasan", Size: 11},
			{Text: "Some words of the body of the paper set in the body's type.", Size: 10},
		}, "P5: A Protocol for Scalable Anonymous Communication", 1},
		{"a footnote's number", []pdf.Line{
			{Text: "Notes on Linear Algebra1", Size: 17},
			{Text: "Ann Smith", Size: 11},
		}, "Notes on Linear Algebra", 0},
		{"a number that is the title's", []pdf.Line{
			{Text: "Training ResNet50 in an Hour", Size: 17},
			{Text: "Ann Smith", Size: 11},
		}, "Training ResNet50 in an Hour", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, last := titleLines(tc.lines)
			if got != tc.want || last != tc.last {
				t.Errorf("titleLines = %q (last line %d), want %q (%d)", got, last, tc.want, tc.last)
			}
			if tc.name == "subtitle in smaller type" {
				if a := people(headAuthors(tc.lines, last+1), got, tc.lines, ""); !cmp.Equal(a, []string{"David Chaum"}) {
					t.Errorf("authors under it: %q", a)
				}
			}
		})
	}
}

// TestYearOfAReport: a report's series line in the header gives the
// year it appeared, before a later copy's date.
func TestYearOfAReport(t *testing.T) {
	lines := []pdf.Line{
		{Text: "Technical Report CSL-TR-87-331, Stanford University, March 1987", Size: 9},
		{Text: "Fast Consensus", Size: 17},
		{Text: "Ann Smith", Size: 11},
		{Text: "Reprinted September 2010", Size: 9},
		{Text: "Abstract", Size: 11},
	}
	text := "Technical Report CSL-TR-87-331, Stanford University, March 1987\nFast Consensus\nAnn Smith\nReprinted September 2010\nAbstract\nWe see."
	if y, _ := headYear(text, lines, 2); y != 1987 {
		t.Errorf("headYear = %d, want the report's 1987", y)
	}
	// a report cited in the body is not this paper's
	body := "Fast Consensus\nAnn Smith\nAbstract\nAs our technical report of 2009 shows, it is fast."
	if y, _ := headYear(body, []pdf.Line{{Text: "Fast Consensus", Size: 17}, {Text: "Ann Smith", Size: 11}, {Text: "Abstract", Size: 11},
		{Text: "As our technical report of 2009 shows, it is fast.", Size: 10}}, 1); y == 2009 {
		t.Errorf("headYear = %d from a report the body cites", y)
	}
}
