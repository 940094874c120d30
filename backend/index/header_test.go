package index

import (
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
		if got := headYear(text, nil, -1); got != want {
			t.Errorf("headYear(%q) = %d, want %d", text, got, want)
		}
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
