package outline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/google/go-cmp/cmp"
)

// line is a short line of a test page: its text, size and boldness.
type line struct {
	text string
	size float64
	bold bool
}

const body = 10

// page builds a page whose text is its lines, one a line, body lines at
// the body size.
func page(n int, lines ...line) pdf.Page {
	pg := pdf.Page{Number: n, BodySize: body}
	var texts []string
	for _, l := range lines {
		texts = append(texts, l.text)
		pg.Short = append(pg.Short, pdf.Line{Text: l.text, Size: l.size, Bold: l.bold})
	}
	pg.Text = strings.Join(texts, "\n")
	return pg
}

func bodyLine(s string) line    { return line{s, body, false} }
func heading(s string) line     { return line{s, 12, true} }
func boldHeading(s string) line { return line{s, body, true} }

// titles lists sections as "page level title".
func titles(secs []Section) []string {
	var out []string
	for _, s := range secs {
		out = append(out, fmt.Sprintf("%d %d %s", s.Page, s.Level, s.Title))
	}
	return out
}

func TestDetect(t *testing.T) {
	running := line{"Journal of Examples 12 (2020)", 9, false}
	tests := []struct {
		name  string
		pages []pdf.Page
		want  []string
	}{{
		name: "numbered, with captions, equations and a running head",
		pages: []pdf.Page{
			page(1, line{"A Paper About Things", 17, true}, bodyLine("Ann Author"), heading("Abstract"),
				bodyLine("We study things."), heading("1 Introduction"), bodyLine("Things matter."), running),
			page(2, running, heading("2 Method"), line{"Figure 1: The method at work.", 9, true},
				line{"Table 2 Results", 9, true}, bodyLine("x = 2y + 3 (1)"), line{"2 + 3", 12, false},
				heading("2.1 Setup"), bodyLine("1. Take a sample of things from the pile"), line{"3", 9, false}),
			page(3, running, heading("3 Results"), heading("4 Conclusion"), heading("References"),
				bodyLine("[3] A. Author. A Study of Things. 2019."), bodyLine("1. Bolt, B. Specifications."),
				line{"A Study of Other Things, 2018", 10, false}),
		},
		want: []string{"1 1 Abstract", "1 1 1 Introduction", "2 1 2 Method", "2 2 2.1 Setup", "3 1 3 Results",
			"3 1 4 Conclusion", "3 1 References"},
	}, {
		name: "a table of contents is not the sections",
		pages: []pdf.Page{
			page(1, heading("Contents"), boldHeading("1 Introduction 1"), bodyLine("2.1 The Problem . . . . . . . 2"),
				boldHeading("2 The Algorithm 3")),
			page(2, heading("1 Introduction"), bodyLine("Text."), heading("2 The Algorithm"), bodyLine("More text.")),
		},
		want: []string{"1 1 Contents", "2 1 1 Introduction", "2 1 2 The Algorithm"},
	}, {
		name: "body-set numbered headings follow the numbering, list items do not",
		pages: []pdf.Page{
			page(1, bodyLine("1. Introduction"), bodyLine("Text about the problem."),
				bodyLine("1. Reply false if term is older than the current term"), bodyLine("2. Consensus Protocols")),
			page(2, bodyLine("7. Append any new entries"), bodyLine("3. Main Result"), bodyLine("5. Conclusion")),
		},
		want: []string{"1 1 1. Introduction", "1 1 2. Consensus Protocols", "2 1 3. Main Result", "2 1 5. Conclusion"},
	}, {
		name: "IEEE: roman sections, lettered subsections, appendices after the references",
		pages: []pdf.Page{
			page(1, heading("I. INTRODUCTION"), bodyLine("Text."), heading("II. SYSTEM MODEL"),
				boldHeading("A. Core properties"), boldHeading("B. Comparison")),
			page(2, heading("III. ANALYSIS"), boldHeading("A. Definitions"), heading("REFERENCES"),
				bodyLine("A. Author, B. Author. Title. 2001."), heading("A Proofs")),
		},
		want: []string{"1 1 I. INTRODUCTION", "1 1 II. SYSTEM MODEL", "1 2 A. Core properties", "1 2 B. Comparison",
			"2 1 III. ANALYSIS", "2 2 A. Definitions", "2 1 REFERENCES", "2 1 A Proofs"},
	}, {
		name: "unnumbered headings: emphasised lines after the title block, not sentence ends",
		pages: []pdf.Page{
			page(1, boldHeading("A History of Things"), boldHeading("Ken Author"), boldHeading("Introduction"),
				bodyLine("We begin with the"), bodyLine("model."), boldHeading("Distributed consistency: Who needs it?")),
			page(2, boldHeading("Historical context"), boldHeading("Arguments:"), bodyLine("introduction"),
				boldHeading("Furthermore, one rat was reanimated ten times after being cooled at"),
				boldHeading("Conclusions"), heading("References")),
		},
		want: []string{"1 1 Introduction", "1 1 Distributed consistency: Who needs it?", "2 1 Historical context",
			"2 1 Conclusions", "2 1 References"},
	}, {
		name: "a run-in heading keeps its title only",
		pages: []pdf.Page{
			page(1, bodyLine("1. INTRODUCTION"), bodyLine("4.2 UPPER BOUNDS FOR DELTA. Now we consider the model")),
			page(2, bodyLine("1.1 BACKGROUND"), bodyLine("1.2 LOWER BOUNDS. We show"), bodyLine("2. DEFINITIONS")),
		},
		want: []string{"1 1 1. INTRODUCTION", "2 2 1.1 BACKGROUND", "2 2 1.2 LOWER BOUNDS", "2 1 2. DEFINITIONS"},
	}, {
		name: "a heading on two lines",
		pages: []pdf.Page{
			page(1, heading("1 Introduction"), heading("2 Achieving fault-tolerance with replicated"), heading("state machines"),
				bodyLine("Text."), heading("3 What is wrong with Paxos?")),
		},
		want: []string{"1 1 1 Introduction", "1 1 2 Achieving fault-tolerance with replicated state machines",
			"1 1 3 What is wrong with Paxos?"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.pages)
			if diff := cmp.Diff(tt.want, titles(got)); diff != "" {
				t.Errorf("sections (-want +got):\n%s", diff)
			}
			doc := &pdf.Document{Pages: tt.pages}
			for _, s := range got {
				if msg := checkOnPage(doc, s); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

func TestSectionsOutline(t *testing.T) {
	pages := []pdf.Page{
		page(1, heading("1 Introduction"), bodyLine("Text."), heading("2 Design")),
		page(2, bodyLine("More."), heading("3 Evaluation"), bodyLine("Numbers.")),
	}
	t.Run("a right outline is used, with offsets", func(t *testing.T) {
		// 4 of 5 entries are printed on their pages (the one missing is
		// left out): right, and as rich as the headings.
		doc := &pdf.Document{Pages: pages, Outline: []pdf.Section{{Title: "Introduction", Level: 1, Page: 1},
			{Title: "Design", Level: 1, Page: 1}, {Title: "Design goals", Level: 2, Page: 1}, {Title: "Evaluation", Level: 1, Page: 2},
			{Title: "Numbers", Level: 2, Page: 2}}}
		got, src := Sections(doc)
		want := []Section{{"Introduction", 1, 1, 2}, {"Design", 1, 1, 23}, {"Evaluation", 1, 2, 8}, {"Numbers", 2, 2, 19}}
		if src != FromOutline {
			t.Errorf("source %s, want outline", src)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("sections (-want +got):\n%s", diff)
		}
	})
	t.Run("an outline pointing at the wrong pages is not", func(t *testing.T) {
		doc := &pdf.Document{Pages: pages, Outline: []pdf.Section{{Title: "Introduction", Level: 1, Page: 2},
			{Title: "Design", Level: 1, Page: 2}, {Title: "Evaluation", Level: 1, Page: 1}}}
		got, src := Sections(doc)
		if src != FromHeadings {
			t.Errorf("source %s, want headings", src)
		}
		if diff := cmp.Diff([]string{"1 1 1 Introduction", "1 1 2 Design", "2 1 3 Evaluation"}, titles(got)); diff != "" {
			t.Errorf("sections (-want +got):\n%s", diff)
		}
	})
}
