package metadata

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/pdf"
)

// Abstracts: what a paper's first pages print as its abstract, read
// offline so that a paper added without a lookup has one. Two ways, in
// this order: the text under an "Abstract" heading ("ABSTRACT",
// "Abstract.", "Abstract—", "Summary", Elsevier's "article info abstract"
// columns) up to the introduction, the keywords or a footnote; else, on
// page 1, the block of prose set in one type just above the introduction's
// heading and below the title (papers that print their abstract without a
// heading). Rules for papers in general; none names a paper.

const (
	// abstractPages is how many leading pages are searched for the heading.
	abstractPages = 2
	// maxAbstract bounds an abstract: a longer run means its end was
	// missed, and it is cut at the last sentence before the bound.
	maxAbstract = 4000
	// minAbstract is the shortest prose block taken as an abstract when
	// no heading names it.
	minAbstract = 200
)

var (
	// abstractHead is an abstract's heading, alone on its line or followed
	// by the abstract's first words after a stop, colon or dash
	// ("Abstract. A purely peer-to-peer…", "Abstract—Zab is…").
	abstractHead = regexp.MustCompile(`(?i)^\s*(?:abstract|summary|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t)\s*(?:$|[.:—–-]\s*(.*)$)`)
	// capsHead is "ABSTRACT" or "SUMMARY" in capitals run into the text.
	capsHead = regexp.MustCompile(`^\s*(?:ABSTRACT|SUMMARY)\s+(\p{Lu}.*)$`)
	// columnsHead is a journal's two columns side by side, the article's
	// details on the left and its abstract on the right, whose headings
	// share one line ("article info abstract").
	columnsHead = regexp.MustCompile(`(?i)^\s*(?:article\s+info|a\s?r\s?t\s?i\s?c\s?l\s?e\s+i\s?n\s?f\s?o)\s+(?:abstract|a\s?b\s?s\s?t\s?r\s?a\s?c\s?t)\s*$`)
	// abstractEnd is a line the abstract does not reach: a section's
	// heading, the keywords and classification lines, the notes at the
	// foot of page 1, an arXiv stamp.
	abstractEnd = regexp.MustCompile(`(?i)^\s*(?:(?:\d+(?:\.\d+)*\.?|[IVX]+\.?)\s+)?(?:introduction|keywords?|key\s*words|index terms|ccs concepts|categories and subject descriptors|general terms|additional key words|acm reference format|contents|table of contents|background|motivation|preliminaries|related work|overview)\b` +
		`|^\s*(?:©|\(c\)\s*\d|copyright\b|permission to (?:make|copy)|corresponding author|preprint submitted|arxiv:|e-?mail\b|work (?:performed|done) while|equal contribution|[∗*†‡§¶]\s*\p{Lu})`)
	// firstHeading is a numbered first section's heading ("1 Introduction",
	// "1. The Problem", "I. INTRODUCTION").
	firstHeading = regexp.MustCompile(`^\s*(?:1\.?|I\.)\s+\p{Lu}[\p{L} -]{2,60}$`)
	// introHeading is the introduction's heading, numbered or not.
	introHeading = regexp.MustCompile(`(?i)^\s*(?:(?:\d+|[IVX]+)\.?\s+)?introduction\s*$`)
	sentenceEnd  = regexp.MustCompile(`[.!?][)"”’]?$`)
	endMark      = regexp.MustCompile(`([.!?][)"”’]?)[\d` + footnoteMarks + `]+$`)
)

// abstractOf returns the abstract a paper's first pages print, "" when
// none is found. Garbled pages are not read; lines are page 1's, with
// their type sizes, and title is the index of the title's last line
// among them (-1 when unknown).
func abstractOf(pages []pdf.Page, lines []pdf.Line, title int, garbled []int) string {
	for i := 0; i < len(pages) && i < abstractPages; i++ {
		if slices.Contains(garbled, pages[i].Number) {
			continue
		}
		if a := underHeading(strings.Split(pages[i].Text, "\n")); a != "" {
			return a
		}
	}
	if len(pages) == 0 || slices.Contains(garbled, 1) {
		return ""
	}
	return aboveIntroduction(lines, title)
}

// underHeading finds an abstract heading among a page's lines and returns
// the text under it.
func underHeading(lines []string) string {
	for i, l := range lines {
		if introHeading.MatchString(l) {
			return "" // the introduction came first: no heading above it
		}
		var first string
		columns := false
		switch {
		case columnsHead.MatchString(l):
			columns = true
		case capsHead.MatchString(l):
			first = capsHead.FindStringSubmatch(l)[1]
		case abstractHead.MatchString(l):
			first = abstractHead.FindStringSubmatch(l)[1]
			if first != "" && !startsSentence(first) {
				continue // "Abstract: see…" is unlikely; "Summary-based…" is a title
			}
		default:
			continue
		}
		rest := lines[i+1:]
		if columns {
			// the details column comes first in reading order: its short
			// lines (history, keywords) stand before the abstract's
			for len(rest) > 0 && len([]rune(strings.TrimSpace(rest[0]))) < 50 {
				rest = rest[1:]
			}
		}
		body := []string{}
		if first != "" {
			body = append(body, first)
		}
		for _, r := range rest {
			if abstractEnd.MatchString(r) || firstHeading.MatchString(r) && len(body) > 0 {
				break
			}
			body = append(body, r)
		}
		if a := abstractText(body); a != "" {
			return a
		}
	}
	return ""
}

// aboveIntroduction returns the block of prose right above page 1's
// introduction heading, set in one type and below the title: the abstract
// of a paper that prints it without a heading.
func aboveIntroduction(lines []pdf.Line, title int) string {
	intro := -1
	for i, l := range lines {
		if i > title && (introHeading.MatchString(l.Text) || firstHeading.MatchString(l.Text) && i > 0) {
			intro = i
			break
		}
	}
	if intro <= title+1 {
		return ""
	}
	size := lines[intro-1].Size
	start := intro
	for j := intro - 1; j > title; j-- {
		l := lines[j]
		if math.Abs(l.Size-size) > 0.3 || abstractEnd.MatchString(l.Text) || strings.Contains(l.Text, "@") {
			break
		}
		start = j
	}
	var body []string
	for _, l := range lines[start:intro] {
		body = append(body, l.Text)
	}
	a := abstractText(body)
	if len(a) < minAbstract || !prose(a) || !sentenceEnd.MatchString(a) {
		return ""
	}
	return a
}

// abstractText joins an abstract's lines (a word broken at a line's end
// joined again) and cuts what follows its last sentence when the lines ran
// past its end; "" when too little is left to be an abstract.
func abstractText(body []string) string {
	s := lineHyphen.ReplaceAllStringFunc(strings.Join(body, "\n"), func(m string) string { return strings.Replace(m, "\n", "", 1) })
	s = cleanSpace(s)
	s = endMark.ReplaceAllString(s, "$1") // "…to train.1": a footnote's mark
	if len(s) > maxAbstract {
		s = s[:maxAbstract]
		if i := strings.LastIndex(s, ". "); i > 0 {
			s = s[:i+1]
		}
	}
	if !sentenceEnd.MatchString(s) {
		// a line that does not belong (a running head, a note) ends it:
		// keep the abstract up to its last full sentence
		if i := strings.LastIndex(s, ". "); i >= len(s)*3/5 {
			s = s[:i+1]
		}
	}
	if len(s) < 60 || !prose(s) {
		return ""
	}
	return s
}

// startsSentence reports whether s begins as a sentence does.
func startsSentence(s string) bool {
	r := []rune(strings.TrimSpace(s))
	return len(r) > 0 && (unicode.IsUpper(r[0]) || unicode.IsDigit(r[0]))
}

// prose reports whether s reads as running text rather than a list of
// names or a garbled layer: most of its words are lower-case words.
func prose(s string) bool {
	words := strings.Fields(s)
	if len(words) < 10 {
		return false
	}
	lower := 0
	for _, w := range words {
		if r := []rune(strings.Trim(w, `("'“‘`)); len(r) > 0 && unicode.IsLower(r[0]) {
			lower++
		}
	}
	share, _ := wordShare(s)
	return float64(lower) >= 0.5*float64(len(words)) && share >= minWordShare
}
