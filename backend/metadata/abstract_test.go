package metadata

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

const abstractBody = "We present a protocol that lets a group of servers agree on one value even when some of them fail. " +
	"It is simpler than the protocols it replaces, and we prove it correct."

func TestAbstractOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		page string
		want string
	}{
		{"heading alone", "A Protocol\nAnn Author\nAbstract\n" + abstractBody + "\n1 Introduction\nConsensus is hard.", abstractBody},
		{"heading in capitals", "A Protocol\nABSTRACT\n" + abstractBody + "\n1 INTRODUCTION\nConsensus is hard.", abstractBody},
		{"heading run into the text", "A Protocol\nAbstract. " + abstractBody + "\nKeywords: consensus, failures", abstractBody},
		{"heading with a dash", "A Protocol\nAbstract—" + abstractBody + "\nIndex Terms—consensus", abstractBody},
		{"capitals run into the text", "A Protocol\nABSTRACT " + abstractBody + "\nI. INTRODUCTION", abstractBody},
		{"summary", "A Protocol\nSummary\n" + abstractBody + "\nIntroduction\nConsensus is hard.", abstractBody},
		{"letter-spaced heading", "A Protocol\nA B S T R A C T\n" + abstractBody + "\n1. Introduction", abstractBody},
		{"journal columns", "A Protocol\narticle info abstract\nArticle history:\nReceived 23 July 2007\nKeywords:\nConsensus\n" +
			abstractBody + "\n© 2008 Elsevier Inc. All rights reserved.\n1. Introduction", abstractBody},
		{"ends before the footnotes", "A Protocol\nAbstract\n" + abstractBody + "\n∗Equal contribution.\n†Work performed while at a lab.", abstractBody},
		{"ends before the copyright", "A Protocol\nAbstract\n" + abstractBody + "\nPermission to make digital or hard copies of all or part", abstractBody},
		{"footnote mark after the last sentence", "A Protocol\nAbstract\n" + abstractBody + "1\n1 Introduction", abstractBody},
		// PDFium joins a word it broke at a soft hyphen: a hyphen left at a
		// line's end is a compound's
		{"compound broken across lines", "A Protocol\nAbstract\nWe present a crash-\nrecovery protocol for a group of servers that agree on one value even when some fail.\n1 Introduction",
			"We present a crash-recovery protocol for a group of servers that agree on one value even when some fail."},
		{"a running head after the last sentence", "A Protocol\nAbstract\n" + abstractBody + " The rest of this\nJOURNAL OF THINGS 12\n", abstractBody},
		{"a title that starts with the word", "Abstract Interpretation of Programs\nAnn Author\nIntroduction\n" + abstractBody, ""},
		{"a summary after the introduction", "A Protocol\nIntroduction\n" + abstractBody + "\nSummary\n" + abstractBody, ""},
		{"a heading with no prose under it", "A Protocol\nAbstract\nAnn Author, Bob Builder\n1 Introduction", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pages := []pdf.Page{{Number: 1, Text: tc.page}}
			if got := abstractOf(pages, nil, -1, nil); got != tc.want {
				t.Errorf("abstractOf:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestAbstractWithoutHeading: a paper that prints its abstract without a
// heading has it read from the block of prose, set in one type, between
// its header and its introduction; a header alone gives none.
func TestAbstractWithoutHeading(t *testing.T) {
	lines := func(above ...pdf.Line) []pdf.Line {
		out := []pdf.Line{
			{Text: "A Protocol for Agreement", Size: 17},
			{Text: "Ann Author, Bob Builder", Size: 12},
			{Text: "Department of Things, Some University", Size: 10},
		}
		out = append(out, above...)
		return append(out, pdf.Line{Text: "1 Introduction", Size: 12}, pdf.Line{Text: "Consensus is hard.", Size: 10})
	}
	body := abstractBody + " We measure it on a cluster of five machines and find it as fast as the protocols it replaces."
	var block []pdf.Line
	for _, l := range strings.SplitAfter(body, ". ") {
		block = append(block, pdf.Line{Text: strings.TrimSpace(l), Size: 9})
	}
	for _, tc := range []struct {
		name  string
		lines []pdf.Line
		want  string
	}{
		{"block above the introduction", lines(block...), body},
		{"a note in another type above it", lines(append([]pdf.Line{{Text: "All authors from a lab, †Equal contributions", Size: 7}}, block...)...), body},
		{"no block", lines(), ""},
		{"names, not prose", lines(pdf.Line{Text: "Carol Chen, Dan Dole, Eve Ellis, Fay Fox, Gil Gray, Hal Hill, Ivy Ito", Size: 10}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var text []string
			for _, l := range tc.lines {
				text = append(text, l.Text)
			}
			pages := []pdf.Page{{Number: 1, Text: strings.Join(text, "\n")}}
			if got := abstractOf(pages, tc.lines, 0, nil); got != tc.want {
				t.Errorf("abstractOf:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestAbstractMergeOrder: metadata.json's abstract (the user's, an
// import's) wins over the one read from the PDF.
func TestAbstractMergeOrder(t *testing.T) {
	x := Extracted{Abstract: "Read from the first page."}
	if got := Derive("papers/p", File{Abstract: "The user's own."}, x, 0).Abstract; got != "The user's own." {
		t.Errorf("with metadata.json's abstract: %q", got)
	}
	if got := Derive("papers/p", File{}, x, 0).Abstract; got != x.Abstract {
		t.Errorf("without: %q, want the PDF's", got)
	}
}
