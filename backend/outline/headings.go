package outline

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
)

// candidate is a short line that may be a heading.
type candidate struct {
	Section
	num    []int // its numbering: "3.2" is [3 2]; nil when unnumbered
	letter bool  // numbered with letters ("A.1"): an appendix
	roman  bool  // numbered with roman numerals ("IV.")
	named  bool  // one of the usual section names
	emph   bool  // larger or bolder than the page's body
	large  bool  // larger than the page's body
	line   int   // index in the page's Short lines
}

// Detect finds the headings on pages from their short lines and sizes.
func Detect(pages []pdf.Page) []Section {
	running := runningLines(pages)
	var cands []candidate
	afterRefs, lastRoman := false, 0
	for _, pg := range pages {
		from := 0
		for i, l := range pg.Short {
			c, ok := classify(l, pg.BodySize, afterRefs, lastRoman)
			if !ok || running[runningKey(l.Text)] {
				continue
			}
			c.line = i
			c.Page = pg.Number
			if c.roman {
				lastRoman = c.num[0]
			}
			if c.large && c.num != nil {
				c.Title = joinNext(c.Title, pg.Short, i, pg.BodySize)
			}
			off, ok := locate(pg.Text, l.Text, from)
			if !ok {
				continue
			}
			c.Offset = off
			from = off + 1
			cands = append(cands, c)
			if c.named && isReferences(c.Title) {
				afterRefs = true
			}
		}
	}
	cands = numberedChain(cands)
	numbered := 0
	for _, c := range cands {
		if c.num != nil {
			numbered++
		}
	}
	var out []Section
	seen := map[string]bool{}
	firstNamed := -1
	for i, c := range cands {
		if c.named && firstNamed < 0 {
			firstNamed = i
		}
	}
	for i, c := range cands {
		switch {
		case c.num != nil || c.named:
		case numbered >= 3:
			continue // a numbered paper: its other emphasised lines are not sections
		case firstNamed < 0 || i < firstNamed && c.Page == cands[firstNamed].Page || c.Page < cands[firstNamed].Page:
			continue // the title block before the first named heading
		case !c.emph:
			continue
		}
		key := strings.ToLower(c.Title)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c.Section)
	}
	return out
}

// classify tells whether a short line looks like a heading, and how.
// afterRefs says the references have begun (numbered lines in the body
// font are entries there), lastRoman is the last roman-numbered heading's
// number (letters number its subsections, IEEE style).
func classify(l pdf.Line, body float64, afterRefs bool, lastRoman int) (candidate, bool) {
	text := strings.TrimSpace(l.Text)
	c := candidate{Section: Section{Title: text, Level: 1}}
	if text == "" || len([]rune(text)) > maxTitle || caption.MatchString(text) || mayBeTOC(text) && tocLine.MatchString(text) {
		return c, false
	}
	c.large = body > 0 && l.Size >= body*1.08
	c.emph = c.large || l.Bold && (body == 0 || l.Size >= body*0.97)
	num, title, kind := splitNumber(text, afterRefs)
	letter := kind == byLetter
	c.roman = kind == byRoman
	if num != nil {
		prefix := strings.TrimSpace(strings.TrimSuffix(text, title))
		if c.emph || allCaps(runIn(title)) {
			title = runIn(title)
		}
		c.Title = prefix + " " + title
		if letter && lastRoman > 0 && !afterRefs && len(num) == 1 {
			// "IV. ANALYSIS", then "A. Definitions" within it
			num, letter = []int{lastRoman, num[0]}, false
		}
	}
	if title == "" || !plausibleTitle(title) {
		return c, false
	}
	c.named = usualName(title)
	if num != nil {
		c.num, c.letter = num, letter
		c.Level = len(num)
		if !c.emph && (letter || afterRefs) {
			// appendix headings are set apart; "A Study of …" or "3. Gray,
			// J.N." in the references are entries
			return c, false
		}
		if !c.emph && !(c.named || shortTitle(title)) {
			return c, false
		}
		return c, true
	}
	if c.named {
		// "Introduction" alone on its line; "Results:" opens a list
		return c, !strings.HasSuffix(title, ":") || quote.Fold(title) == "abstract"
	}
	words := strings.Fields(title)
	if !c.emph || len(words) > 10 || strings.HasSuffix(title, ".") || strings.HasSuffix(title, ",") || strings.HasSuffix(title, ":") ||
		openEnd[strings.ToLower(words[len(words)-1])] {
		return c, false
	}
	return c, true
}

// openEnd are the words a line of prose breaks after and a heading does
// not end with.
var openEnd = map[string]bool{"a": true, "an": true, "the": true, "of": true, "at": true, "to": true, "in": true, "for": true,
	"with": true, "by": true, "on": true, "and": true, "or": true, "as": true, "that": true, "is": true, "was": true, "from": true}

// maxTitle is the longest heading line.
const maxTitle = 100

var (
	// caption starts a figure or table caption, or an equation's label.
	caption = regexp.MustCompile(`(?i)^(fig(ure)?|table|tab|algorithm|listing|eq(uation)?|lemma|theorem|definition|corollary|proof|example|remark|proposition|case|step|phase)\.?\s*[0-9IVX]+\b`)
	// tocLine is a table of contents' line: dot leaders, or a title ending
	// in its page number.
	tocLine = regexp.MustCompile(`(\.\s?){4,}|[A-Za-z)]\s+[0-9]{1,3}$`)
	// numberPrefix is a heading's numbering: "3", "3.2", "3.2.1.", "IV.",
	// "A.", "A.1".
	numberPrefix = regexp.MustCompile(`^(?:([0-9]{1,2}(?:\.[0-9]{1,2}){0,3})\.?|([IVX]{1,5})\.|([A-H])(?:\.([0-9]{1,2}(?:\.[0-9]{1,2}){0,2}))?(\.?))\s+(\S.*)$`)
)

// mayBeTOC reports whether tocLine can match s: it needs four dots, or a
// digit at the end.
func mayBeTOC(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' || strings.Count(s, ".") >= 4
}

// splitNumber splits a heading's numbering from its title. A bare letter
// ("A Protocol for …") counts as numbering only with a dot or after the
// references, where appendices are.
func splitNumber(text string, afterRefs bool) ([]int, string, numbering) {
	m := numberPrefix.FindStringSubmatch(text)
	if m == nil {
		return nil, text, byDigits
	}
	title := strings.TrimSpace(m[6])
	switch {
	case m[1] != "":
		var num []int
		for _, p := range strings.Split(m[1], ".") {
			n, _ := strconv.Atoi(p)
			num = append(num, n)
		}
		if num[0] == 0 || num[0] > 30 {
			return nil, text, byDigits
		}
		return num, title, byDigits
	case m[2] != "":
		n := roman(m[2])
		if n == 0 || n > 30 {
			return nil, text, byDigits
		}
		return []int{n}, title, byRoman
	default:
		if m[4] == "" && m[5] == "" && !afterRefs {
			return nil, text, byDigits
		}
		num := []int{int(m[3][0]-'A') + 1}
		if m[4] != "" {
			for _, p := range strings.Split(m[4], ".") {
				n, _ := strconv.Atoi(p)
				num = append(num, n)
			}
		}
		return num, title, byLetter
	}
}

// numbering is how a heading is numbered.
type numbering int

const (
	byDigits numbering = iota
	byRoman
	byLetter
)

func roman(s string) int {
	vals := map[byte]int{'I': 1, 'V': 5, 'X': 10}
	n := 0
	for i := 0; i < len(s); i++ {
		v := vals[s[i]]
		if i+1 < len(s) && vals[s[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	return n
}

// plausibleTitle: starts with a capital letter (or is a usual name), is
// mostly letters, and no sentence or formula.
func plausibleTitle(t string) bool {
	r := []rune(t)
	if len(r) < 2 {
		return false
	}
	return unicode.IsUpper(r[0]) && wordy(t)
}

// wordy: mostly letters, no formula, no clause left open.
func wordy(t string) bool {
	letters, other := 0, 0
	for _, c := range t {
		switch {
		case unicode.IsLetter(c):
			letters++
		case c == ' ' || c == '-' || c == '\'' || c == '’' || c == ':' || c == ',' || c == '&' || c == '?' || c == '(' || c == ')' || c == '/':
		default:
			other++
		}
	}
	if letters < 2 || other*4 > letters {
		return false
	}
	if strings.ContainsAny(t, "=<>[]{}|") || strings.HasSuffix(t, ",") || strings.HasSuffix(t, ";") {
		return false
	}
	return len(strings.Fields(t)) <= 14
}

// runIn cuts a run-in heading from the sentence that follows it on its
// line: "4.2 UPPER BOUNDS. Now we consider …".
func runIn(title string) string {
	if i := strings.Index(title, ". "); i > 0 {
		return title[:i]
	}
	return title
}

// allCaps reports whether t has letters and no lower-case one.
func allCaps(t string) bool {
	return strings.ToUpper(t) == t && strings.ToLower(t) != t
}

// shortTitle is a title that reads as a heading though set like the body:
// a few words, no sentence end.
func shortTitle(t string) bool {
	w := strings.Fields(t)
	return len(w) <= 6 && !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, ":")
}

// usualNames are the section names papers share.
var usualNames = map[string]bool{}

func init() {
	for _, n := range []string{"abstract", "introduction", "related work", "related works", "background", "preliminaries",
		"motivation", "overview", "method", "methods", "methodology", "approach", "model", "design", "implementation",
		"experiments", "experimental setup", "experimental results", "results", "evaluation", "discussion", "analysis",
		"limitations", "future work", "conclusion", "conclusions", "concluding remarks", "summary", "references",
		"bibliography", "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "appendix",
		"appendices", "supplementary material", "contents", "literature cited", "conclusions and future work",
		"conclusion and future work", "summary and conclusions", "related work and discussion", "notation",
		"problem statement", "setup", "data", "datasets", "proofs", "outline", "computational details"} {
		usualNames[quote.Fold(n)] = true
	}
}

// usualName reports whether t is one of the usual section names.
func usualName(t string) bool {
	t = strings.TrimSpace(strings.TrimRight(t, ".: "))
	if usualNames[quote.Fold(t)] {
		return true
	}
	lower := strings.ToLower(t)
	return strings.HasPrefix(lower, "appendix") && len(strings.Fields(t)) <= 8
}

func isReferences(t string) bool {
	f := quote.Fold(t)
	return f == "references" || f == "bibliography" || f == "literaturecited" || strings.HasPrefix(f, "appendix")
}

// joinNext joins a large heading with the line after it when that line
// continues it: set the same way, and not a heading itself.
func joinNext(title string, lines []pdf.Line, i int, body float64) string {
	if i+1 >= len(lines) {
		return title
	}
	l, next := lines[i], lines[i+1]
	if next.Size != l.Size || next.Bold != l.Bold || numberPrefix.MatchString(next.Text) || usualName(next.Text) {
		return title
	}
	joined := title + " " + strings.TrimSpace(next.Text)
	if len([]rune(joined)) > maxTitle || len(strings.Fields(next.Text)) > 6 || !wordy(joined) {
		return title
	}
	return joined
}

// runningLines are the lines repeated on many pages, their digits aside:
// running heads and feet ("Paper title 375"), not sections.
func runningLines(pages []pdf.Page) map[string]bool {
	count := map[string]int{}
	for _, pg := range pages {
		seen := map[string]bool{}
		for _, l := range pg.Short {
			k := runningKey(l.Text)
			if k != "" && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	out := map[string]bool{}
	for k, n := range count {
		if n >= 3 && n*5 >= len(pages) {
			out[k] = true
		}
	}
	return out
}

func runningKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, quote.Fold(s))
}

// numberedChain keeps, of the numbered candidates, the longest run whose
// numbers follow one another as sections do (3, 3.1, 3.2, 4, A, A.1); the
// others are list items, equations or a table of contents. Unnumbered
// candidates stay.
func numberedChain(cands []candidate) []candidate {
	var idx []int
	for i, c := range cands {
		if c.num != nil {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return cands
	}
	// best[k]: the best chain's score ending at idx[k]; prev[k] its previous.
	best := make([]int, len(idx))
	prev := make([]int, len(idx))
	for k, i := range idx {
		c := cands[i]
		best[k], prev[k] = weight(c)+startBonus(c), -1
		for j := 0; j < k; j++ {
			if follows(cands[idx[j]], c) && best[j]+weight(c) > best[k] {
				best[k], prev[k] = best[j]+weight(c), j
			}
		}
	}
	end := 0
	for k := range idx {
		if best[k] > best[end] {
			end = k
		}
	}
	keep := map[int]bool{}
	for k := end; k >= 0; k = prev[k] {
		keep[idx[k]] = true
	}
	var out []candidate
	for i, c := range cands {
		if c.num == nil || keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// weight favours emphasised headings in a chain over body-set lines.
func weight(c candidate) int {
	if c.emph {
		return 3
	}
	return 2
}

// startBonus favours a chain that starts at section 1.
func startBonus(c candidate) int {
	if !c.letter && len(c.num) == 1 && c.num[0] == 1 {
		return 1
	}
	return 0
}

// follows reports whether heading b may come right after heading a.
func follows(a, b candidate) bool {
	if b.letter && !a.letter {
		// the appendices after the numbered sections
		return b.num[0] == 1 && (len(b.num) == 1 || len(b.num) == 2 && b.num[1] <= 1)
	}
	if a.letter && !b.letter {
		return false
	}
	x, y := a.num, b.num
	switch {
	case len(y) == len(x)+1:
		// a child: 3 → 3.1
		return equal(x, y[:len(x)]) && y[len(y)-1] <= 2
	case len(y) <= len(x):
		// a sibling or an ancestor's sibling: 3.2 → 3.3, 3.2 → 4
		n := len(y) - 1
		return equal(x[:n], y[:n]) && y[n]-x[n] >= 1 && y[n]-x[n] <= 2
	}
	return false
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
