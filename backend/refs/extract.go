package refs

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Reference lists in PDF text. PDFium gives the text of each page in
// reading order, columns mostly apart; nothing says where an entry starts
// but the entries themselves: a "[12]" label, a "12." that follows "11.",
// or, in author-year lists, a line that starts with a name after a line
// that ended a sentence.

// entryText is one entry of a reference list as printed: its label, when
// it has one, and its lines.
type entryText struct {
	label string
	lines []string
}

// listLine is a line of the reference list and the page it is on.
type listLine struct {
	text string
	page int // 1-based
}

// extractEntries finds the reference list in a paper's pages and splits it
// into entries. note says why nothing was found.
func extractEntries(pages []string) (entries []entryText, firstPage int, note string) {
	lines := referenceLines(pages)
	if len(lines) == 0 {
		return nil, 0, "no reference list found in the text"
	}
	entries = splitEntries(lines)
	if len(entries) == 0 {
		return nil, 0, "no entries found in the reference list"
	}
	return entries, lines[0].page, ""
}

var (
	pageNumber = regexp.MustCompile(`^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s+of\s+\d+)?$`)
	digits     = regexp.MustCompile(`\d+`)
)

// furnitureKey is a line with its digits dropped, so that running heads
// and feet that carry a page number compare equal across pages.
func furnitureKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(digits.ReplaceAllString(s, ""))), " ")
}

// pageLines splits pages into lines without their running heads, feet and
// page numbers: lines within the first or last three of a page whose text
// (digits aside) recurs at the edge of at least three pages.
func pageLines(pages []string) [][]string {
	split := make([][]string, len(pages))
	count := map[string]int{}
	for i, p := range pages {
		var ls []string
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				ls = append(ls, l)
			}
		}
		split[i] = ls
		seen := map[string]bool{}
		for j, l := range ls {
			if j >= 3 && j < len(ls)-3 {
				continue
			}
			if k := furnitureKey(l); k != "" && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	for i, ls := range split {
		var keep []string
		for j, l := range ls {
			edge := j < 3 || j >= len(ls)-3
			if edge {
				low := strings.ToLower(l)
				if (j < 2 || j >= len(ls)-2) && pageNumber.MatchString(low) {
					if n, err := strconv.Atoi(low); err != nil || n < 1900 {
						continue
					}
				}
				if k := furnitureKey(l); k != "" && count[k] >= 3 && len(k) > 3 {
					continue
				}
			}
			keep = append(keep, l)
		}
		split[i] = keep
	}
	return split
}

var (
	headingNumber = regexp.MustCompile(`^(?:\d{1,2}|[IVX]{1,5}|[A-H])\.?\s+`)
	refHeadings   = map[string]bool{
		"references": true, "reference": true, "bibliography": true, "literaturecited": true,
		"referencesandnotes": true, "citedliterature": true, "workscited": true, "literatur": true,
		"referencescited": true, "bibliographyandreferences": true,
	}
	endHeadings = map[string]bool{
		"appendix": true, "appendices": true, "supplementarymaterial": true, "supplementarymaterials": true,
		"supplementaryinformation": true, "acknowledgments": true, "acknowledgements": true,
		"acknowledgment": true, "acknowledgement": true, "abouttheauthors": true, "authorbiographies": true,
		"biographies": true, "index": true,
	}
	appendixHeading = regexp.MustCompile(`^(?:(?i:appendix)\s+)?[A-H](?:\.\d+)*\.?:?\s+\p{Lu}`)
)

// headingKey is a line reduced to letters for comparing with headings:
// "8 References", "R EFERENCES", "References:" are all "references".
func headingKey(line string) string {
	s := headingNumber.ReplaceAllString(strings.TrimSpace(line), "")
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if len(s) > 40 {
		return ""
	}
	return b.String()
}

var ()

// refDensity is the share of the n lines from i (fewer at the end) that
// look like parts of references; like[k] says whether line k does.
func refDensity(like []bool, i, n int) float64 {
	end := min(i+n, len(like))
	if end <= i {
		return 0
	}
	hits := 0
	for _, l := range like[i:end] {
		if l {
			hits++
		}
	}
	return float64(hits) / float64(end-i)
}

// refLike reports whether a line looks like part of a reference: a year, a
// label, the words venues are written with, or a list of names.
func refLike(l string) bool {
	if hasYear(l) {
		return true
	}
	low := strings.ToLower(l)
	for _, w := range venueWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	if strings.HasPrefix(l, "[") || dotLabel.MatchString(l) {
		return true
	}
	return strings.Count(l, ", ") >= 2 && looksLikeAuthors(l)
}

var venueWords = []string{"et al", "pp.", "proc.", "proceedings", "vol.", "journal", "arxiv", "doi", "conference",
	"symposium", "trans.", "press", "university", "workshop", "in:"}

// hasYear reports whether s holds a year from 1900 to 2099 standing apart
// from other digits.
func hasYear(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') && isDigit(s[i+2]) && isDigit(s[i+3]) &&
			(i == 0 || !isDigit(s[i-1])) && (i+4 == len(s) || !isDigit(s[i+4])) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// proseShare is the share of the next lines (up to n) that are running
// prose: long, mostly lower-case words, no year. Reference lines are full
// of names, capitalised venues and years.
func proseShare(lines []string, n int) float64 {
	if len(lines) == 0 {
		return 0
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	prose := 0
	for _, l := range lines {
		words := strings.Fields(l)
		if len(words) < 8 || hasYear(l) {
			continue
		}
		lower := 0
		for _, w := range words {
			if r := []rune(w); unicode.IsLower(r[0]) {
				lower++
			}
		}
		if lower*4 >= len(words)*3 {
			prose++
		}
	}
	return float64(prose) / float64(len(lines))
}

// Where the references stop and figures, tables or an appendix without a
// heading begin: a window of lines almost none of which look like parts of
// references.
const (
	tailWindow  = 10
	tailDensity = 0.15
)

// referenceLines returns the lines of the reference list: from the last
// "References"-like heading that reference-like lines follow, to the first
// appendix, acknowledgements or similar heading that no references follow.
// Without a heading it falls back to the last run that starts with "[1]".
func referenceLines(pages []string) []listLine {
	var all []listLine
	for i, ls := range pageLines(pages) {
		for _, l := range ls {
			all = append(all, listLine{l, i + 1})
		}
	}
	texts := make([]string, len(all))
	like := make([]bool, len(all))
	for i, l := range all {
		texts[i] = l.text
		like[i] = refLike(l.text)
	}
	start := -1
	for i := len(all) - 1; i >= 0; i-- {
		if refHeadings[headingKey(all[i].text)] && refDensity(like, i+1, 20) >= 0.3 {
			start = i + 1
			break
		}
	}
	if start < 0 {
		for i := len(all) - 1; i >= 0; i-- {
			if strings.HasPrefix(all[i].text, "[1]") && refDensity(like, i, 20) >= 0.4 {
				start = i
				break
			}
		}
	}
	if start < 0 {
		return nil
	}
	end := len(all)
	for i := start + 1; i < len(all); i++ {
		stop, sure := endOfList(all[i].text)
		limit := 0.2
		if sure || all[i].page != all[i-1].page { // an appendix starts on a new page
			limit = 0.35
		}
		if stop && (refDensity(like, i+1, 25) < limit || proseShare(texts[i+1:], 10) >= 0.5) {
			end = i
			break
		}
		if len(all)-i >= tailWindow && !like[i] && refDensity(like, i, tailWindow) < tailDensity {
			end = i
			break
		}
	}
	return all[start:end]
}

// endOfList reports whether line is a heading that may close a reference
// list: an appendix ("A Proofs", "Appendix B. Data"), acknowledgements, or
// author biographies; sure when it can hardly be anything else (a known
// heading, or an appendix heading in Title Case, which a wrapped title line
// inside an entry, "A corpus and evaluation framework", is not).
func endOfList(line string) (end, sure bool) {
	if endHeadings[headingKey(line)] {
		return true, true
	}
	if !appendixHeading.MatchString(line) || strings.HasSuffix(line, ".") || strings.HasSuffix(line, ",") {
		return false, false
	}
	words := strings.Fields(line)
	if len(words) > 9 {
		return false, false
	}
	if len(words[0]) == 2 && words[0][1] == '.' {
		return true, true // "A. Technical details for hurdle models"
	}
	for _, w := range words[1:] {
		r := []rune(strings.Trim(w, `"“”'(),:`))
		if len(r) > 3 && !unicode.IsUpper(r[0]) && !unicode.IsDigit(r[0]) {
			return true, false
		}
	}
	return true, true
}

var (
	bracketLabel = regexp.MustCompile(`^\[(\d{1,4}|[\p{L}][\p{L}+\-.]{0,15}\d{2,4}[a-z]?)\]\s*`)
	dotLabel     = regexp.MustCompile(`^(\d{1,4})\.\s+\S`)
	plainLabel   = regexp.MustCompile(`^(\d{1,4})\s+[\p{Lu}“"]`)
)

// splitEntries splits a reference list into entries, in the style the list
// is numbered in.
func splitEntries(lines []listLine) []entryText {
	brackets := 0
	for _, l := range lines {
		if bracketLabel.MatchString(l.text) {
			brackets++
		}
	}
	if brackets >= 3 {
		return splitAt(lines, func(i int) (string, bool) {
			m := bracketLabel.FindStringSubmatch(lines[i].text)
			if m == nil {
				return "", false
			}
			return m[1], true
		})
	}
	for _, re := range []*regexp.Regexp{dotLabel, plainLabel} {
		if es, n := splitNumbered(lines, re); n >= 3 {
			return es
		}
	}
	return splitAuthorYear(lines)
}

// splitAt starts an entry at each line where isStart says so; lines before
// the first start are dropped.
func splitAt(lines []listLine, isStart func(i int) (string, bool)) []entryText {
	var out []entryText
	for i, l := range lines {
		if label, ok := isStart(i); ok {
			text := l.text
			if label != "" {
				text = strings.TrimSpace(stripLabel(text))
			}
			out = append(out, entryText{label: label})
			if text != "" {
				out[len(out)-1].lines = append(out[len(out)-1].lines, text)
			}
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].lines = append(out[len(out)-1].lines, l.text)
		}
	}
	return out
}

var numberLabel = regexp.MustCompile(`^\d{1,4}\.?\s+`)

func stripLabel(s string) string {
	if m := bracketLabel.FindStringIndex(s); m != nil {
		return s[m[1]:]
	}
	if m := numberLabel.FindStringIndex(s); m != nil {
		return s[m[1]:]
	}
	return s
}

// splitNumbered splits at lines starting "n." (or "n ") where n follows the
// previous label (one missed label is allowed for OCR slips), and returns
// how many labelled entries it found.
func splitNumbered(lines []listLine, re *regexp.Regexp) ([]entryText, int) {
	next := 0
	n := 0
	es := splitAt(lines, func(i int) (string, bool) {
		m := re.FindStringSubmatch(lines[i].text)
		if m == nil {
			return "", false
		}
		k, _ := strconv.Atoi(m[1])
		if (next == 0 && k <= 2) || (next > 0 && (k == next || k == next+1)) {
			next = k + 1
			n++
			return m[1], true
		}
		return "", false
	})
	return es, n
}

var (
	// Line starts that begin an author list in author-year styles.
	authorStarts = []*regexp.Regexp{
		// "Abid, A., Farooqi, M." / "Van Renesse, R." / "ATTIYA, A."
		regexp.MustCompile(`^(?:(?:van|von|de|der|den|del|da|di|la|le)\s+)*\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+(?:\s+\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+)?,\s+(?:\p{Lu}\.|\p{Lu}[\p{L}\-]+\s*(?:\p{Lu}\.|,|and\b))`),
		// "Andrews DWK (1991)." / "Zeileis A, Hothorn T (2002)."
		regexp.MustCompile(`^\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+(?:[\s\-]\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+)*\s+(?:\p{Lu}{1,4}|(?:\p{Lu}\.\s?){1,4})(?:,|\s*\(|\s+and\s|\s*$)`),
		// "M. Abadi, A. Chu" / "T.D. Chandra and S. Toueg."
		regexp.MustCompile(`^(?:\p{Lu}\.\s?(?:-\p{Lu}\.\s?)?){1,3}\s*\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+`),
		// "Alon Albalak, Yi-Lin Tuan," / "Jimmy Lei Ba, Jamie" / "Iz Beltagy, Matthew E. Peters, and"
		regexp.MustCompile(`^\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+(?:\s+\p{Lu}\.?)?(?:\s+\p{Lu}[\p{L}'’\-¨´\x60ˇ^~]+){1,2}(?:,\s|\s+and\s|\.\s+(?:19|20)\d\d)`),
		// "R Development Core Team (2008)." — an organisation with its year.
		regexp.MustCompile(`^\p{Lu}[^.()]{0,60}\((?:19|20)\d\d[a-z]?\)`),
	}
	endsSentence = regexp.MustCompile(`(?:[.?!”")]|\d{4}[a-z]?\)?\.?)$`)
	urlEnd       = regexp.MustCompile(`(?:https?://|doi:|www\.)\S*$`)
	nonAuthors   = regexp.MustCompile(`^(?i:in|url|available|accessed|retrieved|online|proceedings|proc|journal|technical|tech|vol|pages|pp|springer|ieee|acm|association|press|university|department|dept|isbn|issn|doi|arxiv|preprint)\b`)
)

// splitAuthorYear splits an unnumbered list: an entry starts at a line that
// begins with a name, after a line that ended a sentence or a link.
func splitAuthorYear(lines []listLine) []entryText {
	return splitAt(lines, func(i int) (string, bool) {
		if i == 0 {
			return "", true
		}
		prev := lines[i-1].text
		if !endsSentence.MatchString(prev) && !urlEnd.MatchString(prev) {
			return "", false
		}
		l := lines[i].text
		if nonAuthors.MatchString(l) {
			return "", false
		}
		for _, re := range authorStarts {
			if re.MatchString(l) {
				return "", true
			}
		}
		return "", false
	})
}
