package agent

// Body text of a page: what the agent may quote. A page's text comes from
// the index line by line, running heads, figure labels, code, tables and
// reference lists included. Lines are sorted into body lines and the rest;
// runs of body lines are cut into sentences, and only the sentences that
// are whole (they start and end inside the run) and read as prose are
// kept. What is unsure is dropped: an answer may miss a sentence, but it
// never quotes half of one or a bibliography entry.

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/text"
)

// sentence is one whole sentence of body text.
type sentence struct {
	text       string // as quoted: its lines joined, hyphenation undone
	block      int    // the run of body lines it is in
	seq        int    // its place in the run, counting the sentences left out
	start, end int    // byte span in the page text
}

// follows reports whether sentence b comes right after sentence a in the
// text, with nothing left out between them.
func follows(a, b sentence) bool { return a.block == b.block && b.seq == a.seq+1 }

// line is one line of a page with where it starts.
type line struct {
	text string
	at   int // byte offset in the page text
}

var (
	// A reference list starts under its heading.
	refHeading = regexp.MustCompile(`^(?:[0-9]+\.?\s*|[IVX]+\.\s*)?(?:References|REFERENCES|Bibliography|BIBLIOGRAPHY|Literature Cited|Works Cited|References and Notes)\s*$`)
	// What may follow a reference list on its page.
	afterRefs = regexp.MustCompile(`^(?:Appendix|APPENDIX|Appendices|Supplementary)\b|^[A-H](?:\.[0-9]+)*\s+\p{Lu}\p{Ll}+(?:\s+\p{L}+){0,8}$`)
	// Lines that open a bibliography entry: "[12] ", "12. LAMPORT",
	// "Lamport L (1998).", "LAMPORT, L.", "Lamport, L.".
	entryStart = regexp.MustCompile(`^\[[0-9]{1,3}\]\s|^[0-9]{1,3}\.\s+\p{Lu}{2,}|^\p{Lu}[\p{L}'’\-]+ \p{Lu}{1,3}\.?(?:,| \(|\s*\([0-9]{4})|^\p{Lu}{2,}[\p{Lu}'’\-]*,\s+\p{Lu}\.|^\p{Lu}[\p{L}'’\-]+,\s+(?:\p{Lu}\.\s?){1,3}[,(]`)
	// Marks of a bibliography entry inside a line or a sentence.
	refCue = regexp.MustCompile(`\([0-9]{4}[a-z]?\)\.|\bdoi\b|doi:|\bpp\.|In Proceedings|\bProc\. |arXiv[: ][0-9]|\bURL\b|https?://|\b[Vv]ol\. [0-9]|\b[0-9]+\([0-9]+\)[,:]|\b\p{Lu}\. \p{Lu}\. |et al\.,? \(?[0-9]{4}|[0-9]+[–-][0-9]+, (?:19|20)[0-9]{2}\b|, (?:19|20)[0-9]{2}\.$`)
	// Marks of a running head or foot.
	headCue = regexp.MustCompile(`arXiv:[0-9]|©|\bCopyright\b|\bJournal of\b|\bProceedings\b|\bVol\.|\bVolume\b|\bdoi\b|https?://|\bPreprint\b|\bUnder review\b|\bPublished as\b|\bConference\b|\bWorkshop\b|\bSymposium\b`)
	// A numbered section heading: "3.2 Leader election", "IV. RESULTS".
	numberedHeading = regexp.MustCompile(`^(?:[0-9]+(?:\.[0-9]+)*\.?|[IVX]+\.)\s+\p{Lu}`)
	// Table-of-contents lines: dot leaders before a page number.
	dotLeader = regexp.MustCompile(`(?:\.\s?){4,}\s*[0-9ivx]*\s*$`)
	// Figure and table captions are not body text.
	caption = regexp.MustCompile(`^(?:Figure|Fig\.|FIGURE|Table|TABLE|Tab\.|Algorithm|Listing)\s*[A-Z]?[0-9]+[.:]`)
	// Code in a page: R, shell and Python prompts, and continuations.
	codePrompt = regexp.MustCompile(`^(?:R>|>|\$|#>|>>>|\+|In \[[0-9]+\]:)\s`)
	email      = regexp.MustCompile(`\S+@\S+\.\S+`)
	// A footnote opens with its mark: "∗Equal contribution", "2The only…".
	footnote = regexp.MustCompile(`^(?:[∗*†‡§¶]\s?\p{Lu}|[0-9]{1,2}\p{Lu}\p{Ll})`)
)

// headings is what a heading line alone says: a body run starts after it.
var headings = map[string]bool{"abstract": true, "introduction": true, "conclusion": true, "conclusions": true,
	"discussion": true, "summary": true, "related work": true, "background": true, "acknowledgments": true,
	"acknowledgements": true, "results": true, "evaluation": true, "motivation": true, "overview": true}

// bodySentences returns the whole sentences of body text of a page, in
// reading order. title is the paper's title, to know it in a running head.
func bodySentences(page, title string) []sentence {
	lines := splitLines(page)
	kinds, width := classify(lines, title)
	return runs(lines, kinds, width)
}

// noteSentences returns the whole sentences of a text file of notes
// (Markdown or plain text), in reading order: its paragraphs and list
// items, not its headings, code, tables, quotations or markup.
func noteSentences(text string) []sentence {
	lines := splitLines(text)
	kinds := make([]lineKind, len(lines))
	fenced := false
	for i, l := range lines {
		t := strings.TrimSpace(l.text)
		switch {
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fenced = !fenced
			kinds[i] = other
		case fenced, strings.HasPrefix(t, "|"), strings.HasPrefix(t, ">"), strings.HasPrefix(t, "<"):
			kinds[i] = other
		case t == "", strings.HasPrefix(t, "#"), strings.Trim(t, "-=*_ ") == "":
			kinds[i] = heading // a paragraph starts after it
		case listItem.MatchString(t):
			kinds[i] = bullet
		default:
			kinds[i] = body
		}
	}
	return runs(lines, kinds, 0)
}

// listItem opens an item of a Markdown list.
var listItem = regexp.MustCompile(`^(?:[-*+]|[0-9]{1,3}[.)])\s+\S`)

// runs cuts the runs of body lines into sentences. width is how long a
// full line is, to tell whether a page's first line starts a paragraph.
func runs(lines []line, kinds []lineKind, width int) []sentence {
	var out []sentence
	block := 0
	for i := 0; i < len(lines); {
		if kinds[i] != body && kinds[i] != bullet {
			i++
			continue
		}
		j := i + 1
		for j < len(lines) && kinds[j] == body {
			j++
		}
		clean := kinds[i] == bullet || cleanStart(lines, kinds, i, width)
		out = append(out, sentencesOf(lines[i:j], clean, block)...)
		block++
		i = j
	}
	return out
}

// lineKind sorts a page's lines.
type lineKind int

const (
	body      lineKind = iota
	bullet             // a body line that opens a list item
	heading            // a heading: a body run starts cleanly after it
	other              // running heads, figure labels, code, tables, references
	reference          // a line of a reference list
)

func splitLines(page string) []line {
	var out []line
	at := 0
	for _, l := range strings.SplitAfter(page, "\n") {
		t := strings.TrimRight(l, "\r\n")
		out = append(out, line{text: t, at: at})
		at += len(l)
	}
	return out
}

// classify gives each line of a page its kind, and says how long a full
// line of the page is.
func classify(lines []line, title string) ([]lineKind, int) {
	kinds := make([]lineKind, len(lines))
	width := typicalWidth(lines)
	for i, l := range lines {
		kinds[i] = lineKindOf(strings.TrimSpace(l.text), width)
	}
	markReferences(lines, kinds)
	// Footnotes fill the foot of a page from the first one down.
	for i := len(lines) / 2; i < len(lines); i++ {
		if footnote.MatchString(strings.TrimSpace(lines[i].text)) {
			for j := i; j < len(lines); j++ {
				if kinds[j] != reference {
					kinds[j] = other
				}
			}
			break
		}
	}
	// A caption runs from "Figure 3:" to the line that ends it, wherever
	// the extractor put it in the flow of the text.
	for i := 0; i < len(lines); i++ {
		if kinds[i] == reference || !caption.MatchString(strings.TrimSpace(lines[i].text)) {
			continue
		}
		for j := i; j < min(i+8, len(lines)) && kinds[j] != heading; j++ {
			kinds[j] = other
			i = j
			if endsSentence(strings.TrimSpace(lines[j].text)) {
				break
			}
		}
	}
	// Running heads and feet: the first and last few lines, when they look
	// like one.
	for i := 0; i < min(3, len(lines)) && kinds[i] != reference; i++ {
		if !runningHead(strings.TrimSpace(lines[i].text), title, width) {
			break
		}
		kinds[i] = other
	}
	for i := len(lines) - 1; i >= max(0, len(lines)-3) && kinds[i] != reference; i-- {
		if !runningHead(strings.TrimSpace(lines[i].text), title, width) {
			break
		}
		kinds[i] = other
	}
	// A full line is measured again on the body lines alone, now that they
	// are known: references and labels are longer or shorter.
	var bodyLines []line
	for i, l := range lines {
		if kinds[i] == body {
			bodyLines = append(bodyLines, l)
		}
	}
	if len(bodyLines) > 0 {
		width = typicalWidth(bodyLines)
	}
	return kinds, width
}

// typicalWidth is the median length of the page's long lines: a full line
// of its body text.
func typicalWidth(lines []line) int {
	var ws []int
	for _, l := range lines {
		if len(strings.Fields(l.text)) >= 5 {
			ws = append(ws, utf8.RuneCountInString(l.text))
		}
	}
	if len(ws) == 0 {
		return 60
	}
	slices.Sort(ws)
	return ws[len(ws)/2]
}

func lineKindOf(t string, width int) lineKind {
	words := strings.Fields(t)
	switch {
	case len(words) == 0:
		return other
	case headings[strings.ToLower(strings.TrimRight(t, ".:"))], numberedHeading.MatchString(t) && !endsSentence(t) && len(words) <= 12:
		return heading
	case codePrompt.MatchString(t), dotLeader.MatchString(t), !prose(words):
		return other
	case strings.HasPrefix(t, "• "), strings.HasPrefix(t, "◦ "), strings.HasPrefix(t, "▪ "), strings.HasPrefix(t, "– "):
		return bullet
	case !endsSentence(t) && (len(words) < 3 || utf8.RuneCountInString(t) < width*6/10):
		// A short line that ends no sentence: a title, a label, a name.
		return other
	}
	return body
}

// prose reports whether a line's words are mostly words: not numbers,
// symbols or formulas.
func prose(words []string) bool {
	wordish, symbols, runes := 0, 0, 0
	for _, w := range words {
		letters := 0
		for _, r := range w {
			runes++
			switch {
			case unicode.IsLetter(r):
				letters++
			case strings.ContainsRune("=<>{}_$\\^|~#+*/", r):
				symbols++
			}
		}
		if letters >= 2 && letters*10 >= utf8.RuneCountInString(w)*6 {
			wordish++
		}
	}
	return wordish*2 >= len(words) && symbols*100 <= runes*6
}

// endsSentence reports whether a line ends with the end of a sentence:
// . ! ? or :, maybe inside closing quotes or brackets, maybe before a
// footnote number ("stored.3", not "Section 5.3").
func endsSentence(t string) bool {
	t = strings.TrimRight(t, " ")
	if k := len(t) - footnoteMark(t); k < len(t) {
		t = t[:k]
	}
	t = strings.TrimRightFunc(t, func(r rune) bool { return strings.ContainsRune(`)]"”’'`, r) })
	return strings.HasSuffix(t, ".") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, ":")
}

// footnoteMark returns the length of a footnote number at the end of t: one
// or two digits right after a stop that follows a word.
func footnoteMark(t string) int {
	n := 0
	for n < 2 && n < len(t) && t[len(t)-1-n] >= '0' && t[len(t)-1-n] <= '9' {
		n++
	}
	k := len(t) - n
	if n == 0 || k < 2 || !strings.ContainsRune(".!?", rune(t[k-1])) {
		return 0
	}
	prev, _ := utf8.DecodeLastRuneInString(t[:k-1])
	if !unicode.IsLetter(prev) && !strings.ContainsRune(`)"”’`, prev) {
		return 0
	}
	return n
}

// markReferences marks a page's reference list: the lines under its
// heading, up to an appendix; or, on a page with no heading, from the first
// of several entries on; or the whole page, when nearly every line carries
// the marks of an entry.
func markReferences(lines []line, kinds []lineKind) {
	from := -1
	for i, l := range lines {
		if refHeading.MatchString(strings.TrimSpace(l.text)) {
			from = i
		}
	}
	if from < 0 {
		entries, cued, n := 0, 0, 0
		first := -1
		for i, l := range lines {
			t := strings.TrimSpace(l.text)
			if t == "" {
				continue
			}
			n++
			if entryStart.MatchString(t) {
				entries++
				if first < 0 {
					first = i
				}
			}
			if refCue.MatchString(t) || entryStart.MatchString(t) {
				cued++
			}
		}
		switch {
		case entries >= 3 && cued*10 >= n*4:
			from = 0
		case entries >= 3:
			from = first
		default:
			return
		}
	}
	for i := from; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i].text)
		if i > from && afterRefs.MatchString(t) && !entryStart.MatchString(t) {
			return
		}
		kinds[i] = reference
	}
}

// runningHead reports whether a first or last line of a page looks like a
// running head or foot: a page number, the paper's title, a journal line.
func runningHead(t, title string, width int) bool {
	if t == "" {
		return true
	}
	if endsSentence(t) && !headCue.MatchString(t) {
		return false
	}
	words := strings.Fields(t)
	first, last := words[0], words[len(words)-1]
	switch {
	case isNumber(t):
		return true
	case len(words) <= 14 && (isNumber(first) || isNumber(last)):
		return true
	case headCue.MatchString(t):
		return true
	case len(title) >= 10 && strings.Contains(strings.ToLower(t), strings.ToLower(title)):
		return true
	}
	return utf8.RuneCountInString(t) < width*6/10
}

func isNumber(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// cleanStart reports whether a run of body lines starting at line i starts
// a sentence: the body line before it ended one, or a heading stands
// between, or it opens the page with a full line in capitals.
func cleanStart(lines []line, kinds []lineKind, i, width int) bool {
	first := strings.TrimSpace(lines[i].text)
	r, _ := utf8.DecodeRuneInString(first)
	if !unicode.IsUpper(r) && !strings.ContainsRune(`"“(‘'`, r) {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		switch kinds[j] {
		case heading:
			return true
		case body, bullet:
			return endsSentence(strings.TrimSpace(lines[j].text))
		case reference:
			return false
		}
	}
	// The page's first body line: the previous page may end mid-sentence.
	// Only a full line is taken for the start of a paragraph.
	return utf8.RuneCountInString(first) >= width*3/4
}

// sentencesOf cuts a run of body lines into sentences and keeps the whole
// ones that read as prose.
func sentencesOf(run []line, cleanFirst bool, block int) []sentence {
	text, pos := joinLines(run)
	spans := splitSentences(text)
	var out []sentence
	for k, sp := range spans {
		s := strings.TrimSpace(text[sp[0]:sp[1]])
		if k == 0 && !cleanFirst {
			continue
		}
		if k == len(spans)-1 && !endsSentence(s) {
			continue // runs on past the run: not whole
		}
		s = trimMarker(s)
		if !bodyText(s) {
			continue
		}
		lead := len(text[sp[0]:sp[1]]) - len(strings.TrimLeft(text[sp[0]:sp[1]], " "))
		out = append(out, sentence{text: s, block: block, seq: k, start: pos[sp[0]+lead], end: pos[max(sp[1]-1, sp[0])] + 1})
	}
	return out
}

// joinLines joins a run's lines into one text, undoing hyphenation at line
// ends, and maps each byte of it back to the page.
func joinLines(run []line) (string, []int) {
	var b strings.Builder
	var pos []int
	for i, l := range run {
		t, at := l.text, l.at
		if i > 0 {
			prev := run[i-1].text
			trimmed := strings.TrimLeft(t, " \t")
			next, _ := utf8.DecodeRuneInString(trimmed)
			before, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(prev, "-"))
			switch {
			case strings.HasSuffix(prev, "-") && hyphenated(before, next):
				// "decom-" + "poses": drop the hyphen written out above.
				s := b.String()
				b.Reset()
				b.WriteString(s[:len(s)-1])
				pos = pos[:len(pos)-1]
				t, at = trimmed, at+len(t)-len(trimmed)
			case strings.HasSuffix(prev, "-"):
				t, at = trimmed, at+len(t)-len(trimmed)
			default:
				b.WriteByte(' ')
				pos = append(pos, l.at-1)
			}
		}
		b.WriteString(t)
		for k := range len(t) {
			pos = append(pos, at+k)
		}
	}
	return b.String(), pos
}

// hyphenated reports whether a hyphen between two letters at a line end
// splits one word: a letter before it, a lower-case letter after.
func hyphenated(before, after rune) bool { return unicode.IsLetter(before) && unicode.IsLower(after) }

// abbreviations end with a full stop that ends no sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "al": true, "fig": true, "figs": true, "eq": true,
	"eqs": true, "sec": true, "secs": true, "cf": true, "vs": true, "etc": true, "dr": true, "mr": true, "mrs": true,
	"ms": true, "prof": true, "no": true, "nos": true, "pp": true, "vol": true, "resp": true, "approx": true,
	"inc": true, "ltd": true, "jr": true, "st": true, "ch": true, "ref": true, "refs": true, "tab": true,
	"def": true, "thm": true, "lem": true, "prop": true, "viz": true, "ca": true, "sect": true, "app": true}

// splitSentences returns the byte spans of the sentences of a text: a
// sentence ends at . ! or ? (with closing quotes, brackets and a footnote
// number) before a space and a capital, a digit or an opening quote, unless
// the word before the stop is an abbreviation or an initial.
func splitSentences(text string) [][2]int {
	var spans [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(text) && strings.ContainsRune(`)]"'`, rune(text[j])) {
			j++
		}
		for _, q := range []string{"”", "’"} {
			if strings.HasPrefix(text[j:], q) {
				j += len(q)
			}
		}
		end := j
		for j < len(text) && text[j] >= '0' && text[j] <= '9' && j-end < 2 {
			j++ // a footnote mark glued to the stop
		}
		if j > end && footnoteMark(text[:j]) == 0 {
			continue // a number: "Section 5.3"
		}
		if j >= len(text) || text[j] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(strings.TrimLeft(text[j:], " "))
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"“(‘[`, next) {
			continue
		}
		if c == '.' && abbreviated(text[start:i]) {
			continue
		}
		spans = append(spans, [2]int{start, end})
		start = j
	}
	if start < len(text) {
		spans = append(spans, [2]int{start, len(text)})
	}
	return spans
}

// abbreviated reports whether the text before a full stop ends with an
// abbreviation or an initial.
func abbreviated(before string) bool {
	k := strings.LastIndexAny(before, " (")
	w := before[k+1:]
	if utf8.RuneCountInString(w) == 1 && unicode.IsUpper([]rune(w)[0]) {
		return true // an initial: "J. Smith"
	}
	return abbreviations[strings.ToLower(w)]
}

// stopThenLower is a full stop after a word, then a word in lower case.
var stopThenLower = regexp.MustCompile(`(\p{L}+)\. \p{Ll}`)

// joined reports whether a sentence holds a full stop followed by a word in
// lower case, not after an abbreviation: two pieces of text the extractor
// put side by side ("…is discussed. forcing the other…").
func joined(s string) bool {
	for _, m := range stopThenLower.FindAllStringSubmatch(s, -1) {
		if !abbreviations[strings.ToLower(m[1])] && utf8.RuneCountInString(m[1]) > 1 {
			return true
		}
	}
	return false
}

// trimMarker drops a list bullet before a sentence.
func trimMarker(s string) string {
	for _, b := range []string{"• ", "◦ ", "▪ ", "– "} {
		s = strings.TrimPrefix(s, b)
	}
	return listMarker.ReplaceAllString(s, "")
}

// listMarker is the marker of a Markdown list item.
var listMarker = regexp.MustCompile(`^(?:[-*+]|[0-9]{1,3}[.)])\s+`)

// bodyText reports whether a sentence reads as prose of the body: long
// enough, starting with a capital and ending with a stop, mostly words with
// some small ones among them, and no caption, bibliography entry, address
// or code.
func bodyText(s string) bool {
	words := strings.Fields(s)
	if len(words) < 6 || len(s) > 1200 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(s, "*_`")) // Markdown emphasis
	if !unicode.IsUpper(r) && !strings.ContainsRune(`"“(‘`, r) {
		return false
	}
	if !endsSentence(s) || strings.HasSuffix(strings.TrimRight(s, `)]"”’'`), ":") {
		return false
	}
	if caption.MatchString(s) || email.MatchString(s) || !prose(words) || len(refCue.FindAllString(s, 2)) >= 2 || joined(s) {
		return false
	}
	small, caps := 0, 0
	for _, w := range words {
		w = strings.Trim(w, `.,;:()[]"“”‘’'`)
		if text.FunctionWord(w) {
			small++
		}
		if len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w {
			caps++
		}
	}
	return small > 0 && caps*2 < len(words)
}
