package metadata

import (
	"encoding/json"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

// page1 is a first page as PDFium gives it: title in large type, authors,
// affiliations, the abstract.
var page1 = []pdf.Line{
	{Text: "Journal of Computer and System Sciences 75 (2009) 178–189", Size: 6.4},
	{Text: "Chain Replication for Supporting", Size: 14.3},
	{Text: "High Throughput and Availability ∗", Size: 14.3},
	{Text: "Robbert van Renesse1, Fred B. Schneider2", Size: 12},
	{Text: "1Cornell University, Ithaca, NY", Size: 10},
	{Text: "rvr@cs.cornell.edu", Size: 10},
	{Text: "Abstract", Size: 12},
	{Text: "Chain replication is a new approach to coordinating clusters of fail-stop storage servers.", Size: 10},
}

func TestInfoTitleOnlyWhenPageOneShowsIt(t *testing.T) {
	head, last := titleLines(page1)
	if head != "Chain Replication for Supporting High Throughput and Availability" || last != 2 {
		t.Fatalf("head title %q (last line %d)", head, last)
	}
	for info, want := range map[string]string{
		"Chain Replication for Supporting High Throughput and Availability":                        "Chain Replication for Supporting High Throughput and Availability",
		"<dc:title>Chain Replication for Supporting High Throughput &amp; Availability</dc:title>": "Chain Replication for Supporting High Throughput & Availability",
		"Introduction":                            "", // a section heading
		"Proceedings of OSDI 2004":                "", // the volume's name
		"Microsoft Word - chain.doc":              "",
		"Paper Title (use style: paper title)":    "", // the template's
		"untitled":                                "",
		"osdi04_final_v2":                         "",
		"Journal of Computer and System Sciences": "", // on page 1, but not as the title
	} {
		if got := infoTitleFor(info, head, page1); got != want {
			t.Errorf("infoTitleFor(%q) = %q, want %q", info, got, want)
		}
	}
	// a masthead set larger than the title: the Info title is still found
	// in large type near the top; body text is not large type
	masthead := append([]pdf.Line{{Text: "COMMUNICATIONS OF THE ACM", Size: 20}}, page1[1:]...)
	if got := infoTitleFor("Chain Replication for Supporting High Throughput and Availability", "Communications of the ACM", masthead); got == "" {
		t.Error("an Info title in large type under a larger masthead was refused")
	}
	if got := infoTitleFor("Chain replication is a new approach to coordinating clusters of fail-stop storage servers", "Communications of the ACM", masthead); got != "" {
		t.Errorf("an Info title from the body text was taken: %q", got)
	}
	// a scan has no text to check against: a sane Info title is kept
	if got := infoTitleFor("Probabilistic Counting Algorithms", "", nil); got != "Probabilistic Counting Algorithms" {
		t.Errorf("scan: %q", got)
	}
	if got := infoTitleFor("Scan0001.pdf", "", nil); got != "" {
		t.Errorf("scan file name kept: %q", got)
	}
}

func TestHeadAuthorsAndYear(t *testing.T) {
	_, last := titleLines(page1)
	got := headAuthors(page1, last+1)
	if len(got) != 2 || got[0] != "Robbert van Renesse" || got[1] != "Fred B. Schneider" {
		t.Errorf("authors %q", got)
	}
	caps := []pdf.Line{{Text: "IMPOSSIBILITY OF CONSENSUS", Size: 15}, {Text: "MICHAEL J. FISCHER", Size: 10},
		{Text: "Yale University, New Haven, Connecticut", Size: 9}, {Text: "AND", Size: 10}, {Text: "NANCY A. LYNCH", Size: 10}}
	if got := headAuthors(caps, 1); len(got) != 2 || got[0] != "Michael J. Fischer" || got[1] != "Nancy A. Lynch" {
		t.Errorf("authors in capitals %q", got)
	}
	spaced := []pdf.Line{{Text: "Kaiming He Xiangyu Zhang Shaoqing Ren Jian Sun", Size: 12}}
	if got := headAuthors(spaced, 0); len(got) != 4 || got[0] != "Kaiming He" || got[3] != "Jian Sun" {
		t.Errorf("space-separated authors %q", got)
	}
	for text, want := range map[string]int{
		"arXiv:1910.02054v3 [cs.LG] 13 May 2020":                                                                     2020,
		"Journal of the ACM, Vol. 32, No. 2, April 1985, pp. 374-382.":                                               1985,
		"A preliminary version appears in Proceedings of PODC, 1984. Journal of the ACM, Vol. 35, No. 2, April 1988": 1988,
		"Published as a conference paper at ICLR 2021":                                                               2021,
		"a (slightly) modified version of Zeileis (2004), published in the Journal":                                  2004,
		"Copyright 2015 ACM": 2015,
		"no year at all":     0,
	} {
		if got, _ := headYear(text, nil, -1); got != want {
			t.Errorf("headYear(%q) = %d, want %d", text, got, want)
		}
	}
	if y, dated := headYear("Some words. (Draft of October 7, 2013)", nil, -1); y != 2013 || !dated {
		t.Errorf("a draft's date line: headYear = %d, dated %v; want 2013, dated", y, dated)
	}
	if y, dated := headYear("Robbert van Renesse. March 25, 2011. Abstract", nil, -1); y != 2011 || dated {
		t.Errorf("a report's date line: headYear = %d, dated %v; want 2011, the paper's", y, dated)
	}
	if _, dated := headYear("arXiv:2010.11929v2 [cs.CV] 3 Jun 2021", nil, -1); dated {
		t.Error("an arXiv stamp is taken for a date line")
	}
	if got := fileYear("papers/1985-Flajolet-Probabilistic-counting"); got != 1985 {
		t.Errorf("fileYear = %d", got)
	}
	if got := estimateYear(2022, 2002); got != 2002 {
		t.Errorf("estimateYear(rebuilt) = %d", got)
	}
	if got := estimateYear(2010, 2009); got != 2010 {
		t.Errorf("estimateYear = %d", got)
	}
}

func TestGarbageText(t *testing.T) {
	for _, s := range []string{"HJI?KLGM <?B7NPORQ\"NTSUSUV W-XGYZ\\[^]`_aZ", "bdc=egf`eaf`hikjmln`h-f!imh\\ophcjmh\\qreaj\"jms!hut^v3v3w"} {
		if !garbageText(s) {
			t.Errorf("not garbage: %q", s)
		}
	}
	for _, s := range []string{"ZooKeeper: Wait-free coordination for Internet-scale systems", "yi = x⊤ i β + ui (i = 1, . . . , n) (1) is still one of the most popular tools", "Łukasz Kaiser∗ Google Brain"} {
		if garbageText(s) {
			t.Errorf("garbage: %q", s)
		}
	}
}

// TestCitedYearStandsInForACopysDate checks which years the year the
// library's papers cite a paper by replaces: one that dates the copy only.
func TestCitedYearStandsInForACopysDate(t *testing.T) {
	for _, c := range []struct {
		name  string
		ref   string
		m     File
		x     Extracted
		cited int
		want  int
	}{
		{"a draft's date line gives way", "papers/raft", File{}, Extracted{Year: 2013, YearDated: true}, 2014, 2014},
		{"a date line far from the cited year stands", "papers/raft", File{}, Extracted{Year: 2013, YearDated: true}, 2019, 2013},
		{"a PDF made after the paper gives way", "papers/bitcoin", File{}, Extracted{FileYear: 2009}, 2008, 2008},
		{"a scan made decades later gives way", "papers/scan", File{}, Extracted{FileYear: 2005}, 1978, 1978},
		{"a PDF is not made years before the paper", "papers/x", File{}, Extracted{FileYear: 2009}, 2015, 2009},
		{"no year at all takes the cited one", "papers/x", File{}, Extracted{}, 1994, 1994},
		{"an arXiv stamp stands", "papers/shor", File{}, Extracted{Year: 1996}, 1995, 1996},
		{"a year in the file's name stands", "papers/1985-Flajolet-counting", File{}, Extracted{FileYear: 2004}, 1984, 1985},
		{"metadata.json's year stands", "papers/raft", File{Year: 2013}, Extracted{Year: 2013, YearDated: true}, 2014, 2013},
		{"not cited: the paper's own", "papers/raft", File{}, Extracted{Year: 2013, YearDated: true}, 0, 2013},
	} {
		if got := Derive(c.ref, c.m, c.x, c.cited).Year; got != c.want {
			t.Errorf("%s: year %d, want %d", c.name, got, c.want)
		}
	}
}

// TestAddedPaperIsReadAgain checks that the fields metadata.json holds
// only because they were read from the PDF when it was added are derived
// again (so a year the library cites shows), unlike the user's.
func TestAddedPaperIsReadAgain(t *testing.T) {
	added := func(extra string) File {
		var m File
		if err := json.Unmarshal([]byte(`{"title": "Bitcoin", "year": 2009, "authors": ["Satoshi Nakamoto"],
			"imported": {"from": "file", "file": "/home/u/Downloads/bitcoin.pdf",
				"values": {"title": "Bitcoin", "year": 2009, "authors": [
					"Satoshi Nakamoto"
				]}},
			"source": {"title": "pdf", "year": "pdf", "authors": "pdf"}`+extra+`}`), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	x := Extracted{HeadTitle: "Bitcoin: A Peer-to-Peer Electronic Cash System", FileYear: 2009}
	d := Derive("papers/nakamoto-2009-bitcoin", added(""), x, 2008)
	if d.Year != 2008 || d.Title != x.HeadTitle {
		t.Errorf("added from a file: %q, %d; want the page's title and the cited 2008", d.Title, d.Year)
	}
	if d := Derive("papers/nakamoto-2009-bitcoin", added(`, "edited": ["year"]`), x, 2008); d.Year != 2009 {
		t.Errorf("year edited by the user: %d, want 2009", d.Year)
	}
	byHand := added("")
	byHand.Year = 2007 // changed in the file, not in the app
	if d := Derive("papers/nakamoto-2009-bitcoin", byHand, x, 2008); d.Year != 2007 {
		t.Errorf("year changed by hand in metadata.json: %d, want 2007", d.Year)
	}
	if d := Derive("papers/nakamoto-2009-bitcoin", added(""), Extracted{}, 0); d.Title != "Bitcoin" || d.Year != 2009 {
		t.Errorf("before the PDF is read: %q, %d; want metadata.json's", d.Title, d.Year)
	}
	// a PDF that names itself nowhere (a garbled page 1) is titled by the
	// file's name as the user had it, not by the folder's slug
	var untitled File
	if err := json.Unmarshal([]byte(`{"imported": {"from": "file", "file": "/home/u/a-response-to-cheriton-and-skeens.pdf"}}`), &untitled); err != nil {
		t.Fatal(err)
	}
	if d := Derive("papers/response-cheriton-skeens", untitled, Extracted{HeadTitle: "HJI?KLGM", Garbled: []int{1}}, 0); d.Title != "a response to cheriton and skeens" || d.TitleSource != "folder" {
		t.Errorf("a PDF with no title: %q from %s, want the file's name", d.Title, d.TitleSource)
	}
}
