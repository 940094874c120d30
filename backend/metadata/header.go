package metadata

import (
	"html"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/text"
)

// The page-1 header: what a paper's first page says about its title,
// authors and year, read from the lines PDFium gives with their font sizes.
// The rules are general (largest type, the lines under it, the stamps and
// venue lines papers carry); none names a paper.

// maxHeadLines bounds the page-1 lines looked at for the title: a title
// set in a two-column layout may come after the first column in reading
// order, but never after a page's worth of lines.
const maxHeadLines = 150

// titleLines finds the title on page 1: the first run of lines set in the
// largest type among the heading-like lines. It returns the title and the
// index of its last line (-1 when there is none).
func titleLines(lines []pdf.Line) (string, int) {
	if len(lines) > maxHeadLines {
		lines = lines[:maxHeadLines]
	}
	best := 0.0
	for _, l := range lines {
		if titleLike(l) && l.Size > best {
			best = l.Size
		}
	}
	if best == 0 {
		return "", -1
	}
	// A title set in the body's type (a plain document) is its first
	// line: the lines under it are the authors, not its continuation.
	wrap := 4
	if best <= bodySize(lines)+0.6 {
		wrap = 1
	}
	var parts []string
	last := -1
	for i, l := range lines {
		if l.Size < best-0.6 || !titleLike(l) {
			continue
		}
		// a title's leading token set apart ("P5" above ": A Protocol
		// for …") has too few letters to look like a heading on its own
		if leadingPunct.MatchString(l.Text) && i > 0 && lines[i-1].Size >= best-0.6 && len([]rune(strings.TrimSpace(lines[i-1].Text))) <= 20 &&
			strings.IndexFunc(lines[i-1].Text, unicode.IsLetter) >= 0 {
			parts = append(parts, strings.TrimSpace(lines[i-1].Text))
		}
		parts = append(parts, strings.TrimSpace(l.Text))
		last = i
		// take the following wrapped lines of the same size, then stop
		for j := i + 1; j < len(lines) && len(parts) < wrap; j++ {
			n := lines[j]
			if n.Size < best-0.6 || n.Size > best+0.6 || !titleLike(n) {
				break
			}
			parts = append(parts, strings.TrimSpace(n.Text))
			last = j
		}
		// a title that ends in a colon goes on in its subtitle, often set
		// in smaller type ("The Dining Cryptographers Problem:" /
		// "Unconditional Sender and Recipient Untraceability")
		if strings.HasSuffix(strings.TrimRight(parts[len(parts)-1], " "+footnoteMarks), ":") {
			sub := 0.0
			for j := last + 1; j < len(lines) && j <= last+3 && titleLike(lines[j]); j++ {
				if sub == 0 {
					sub = lines[j].Size
				}
				if math.Abs(lines[j].Size-sub) > 0.6 || lines[j].Size < bodySize(lines)-0.6 {
					break
				}
				parts = append(parts, strings.TrimSpace(lines[j].Text))
				last = j
			}
		}
		break
	}
	t := cleanTitle(strings.Join(parts, "\n"))
	if len(t) > 300 || !headingLike(t) {
		return "", -1
	}
	return t, last
}

// bodySize is the font size most of the page's text is set in.
func bodySize(lines []pdf.Line) float64 {
	chars := map[float64]int{}
	best, bestN := 0.0, 0
	for _, l := range lines {
		chars[l.Size] += len(l.Text)
		if n := chars[l.Size]; n > bestN {
			best, bestN = l.Size, n
		}
	}
	return best
}

// titleLike is a line that may be (part of) a title: heading-like text in
// readable words, set large enough to be read.
func titleLike(l pdf.Line) bool {
	return l.Size >= 4 && headingLike(l.Text) && !garbageText(l.Text) && !masthead(l.Text)
}

// masthead is a journal's or a series' initials set large above the
// title ("JSS", "LNCS"): one word of at most five capitals.
func masthead(s string) bool {
	s = strings.TrimSpace(s)
	return !strings.ContainsRune(s, ' ') && len([]rune(s)) <= 5 && allUpper(s)
}

// footnoteMarks are the symbols set after a title or a name to point at a
// footnote.
const footnoteMarks = "∗*†‡§¶✩⋆★☆#♯♭⋄◇♠♣♥♦♮"

var (
	leadingPunct = regexp.MustCompile(`^\s*[:–—]`)
	spacedColon  = regexp.MustCompile(`([\p{L}\d])\s+:`)
	// footnoteDigit is a footnote's number run into a title's last word
	// ("… Algebra1"); a word of at least four small letters before it,
	// so that "ResNet50" or "GPT-4" keep theirs.
	footnoteDigit = regexp.MustCompile(`(\p{Ll}{4})[0-9¹²³⁴⁵⁶⁷⁸⁹]{1,2}$`)
	markupTag     = regexp.MustCompile(`<[^<>]{0,200}>`)
	trailingMark  = regexp.MustCompile(`[\s` + footnoteMarks + `,]+$`)
	lineHyphen    = regexp.MustCompile(`(\p{L})-\n(\p{Ll})`)
)

// cleanTitle joins a title's lines, drops markup, entities and the
// footnote marks after it, and sets an all-capitals title in title case.
func cleanTitle(s string) string {
	s = stripMarkup(s)
	// a word broken across lines ("multi-\nplexing") is joined; a
	// compound broken at its hyphen ("crash-\nrecovery") keeps it.
	s = lineHyphen.ReplaceAllStringFunc(s, func(m string) string { return strings.Replace(m, "\n", "", 1) })
	s = cleanSpace(s)
	s = spacedColon.ReplaceAllString(s, "$1:")
	s = trailingMark.ReplaceAllString(s, "")
	s = footnoteDigit.ReplaceAllString(s, "$1")
	if allCaps(s) {
		s = titleCase(s)
	}
	return s
}

// stripMarkup removes XML/HTML tags and decodes entities, as some
// producers leave them in Info and XMP titles.
func stripMarkup(s string) string {
	if strings.ContainsAny(s, "<&") {
		s = markupTag.ReplaceAllString(s, " ")
		s = html.UnescapeString(s)
	}
	return cleanSpace(s)
}

func allCaps(s string) bool {
	letters, upper := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return letters >= 6 && upper == letters
}

// titleCase sets an all-capitals title in title case; words with digits
// (16X16) and short acronyms stay as they are.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		lower := strings.ToLower(w)
		switch {
		case strings.IndexFunc(w, unicode.IsDigit) >= 0:
			words[i] = lower
		case i > 0 && text.MinorTitleWord(strings.Trim(lower, ":,.;")):
			words[i] = lower
		default:
			parts := strings.Split(lower, "-")
			for j, p := range parts {
				r := []rune(p)
				if len(r) > 0 {
					r[0] = unicode.ToUpper(r[0])
				}
				parts[j] = string(r)
			}
			words[i] = strings.Join(parts, "-")
		}
	}
	return strings.Join(words, " ")
}

// junkInfoTitle matches what producers and templates write in a PDF's
// Title field instead of the paper's title.
var junkInfoTitle = regexp.MustCompile(`(?i)(^untitled|^microsoft (word|powerpoint)|^title$|^paper title|use style|^instructions? for|^template|^author guidelines|^manuscript$|^(main|paper|article|document|draft|thesis|report|slides?)\s*\d*$|^proceedings\b|^lecture notes\b|^(acm|ieee|springer|elsevier|llncs)\b.*\b(template|format|style|proceedings)|^\s*(abstract|introduction|contents|references)\s*$|^[\w-]+\.(pdf|docx?|dvi|tex|ps|eps|rtf|indd|qxd|dot|odt)$|^[\w.-]*_[\w.-]*$|^doi:|^arxiv:|^\d+$)`)

// infoTitleFor returns the PDF's Info/XMP title when page 1 shows it in the
// title's large type (head is the title read from page 1) or in other type
// larger than the body's near the top, cleaned of markup; "" otherwise. A PDF without text on page 1 (a scan) cannot show
// it; its Info title is kept when it does not look like a template's or a
// file's name.
func infoTitleFor(info, head string, lines []pdf.Line) string {
	t := stripMarkup(info)
	t = trailingMark.ReplaceAllString(t, "")
	t = footnoteDigit.ReplaceAllString(t, "$1")
	if !saneTitle(t) || junkInfoTitle.MatchString(t) {
		return ""
	}
	if len(lines) == 0 {
		return t
	}
	if head != "" && sameWords(t, head) {
		return t
	}
	// the title may be set smaller than something else on page 1 (a
	// journal's masthead): the Info title counts when a run of lines near
	// the top, in type larger than the body's, reads as it
	body := bodySize(lines)
	top := lines[:min(len(lines), 40)]
	for i := 0; i < len(top); i++ {
		if top[i].Size <= body+0.5 || !titleLike(top[i]) {
			continue
		}
		run := []string{top[i].Text}
		j := i + 1
		for ; j < len(top) && len(run) < 4 && math.Abs(top[j].Size-top[i].Size) <= 0.6 && titleLike(top[j]); j++ {
			run = append(run, top[j].Text)
		}
		if sameWords(t, cleanTitle(strings.Join(run, "\n"))) {
			return t
		}
		i = j - 1
	}
	return ""
}

// sameWords reports whether two titles read as the same words: nearly all
// the words of each are in the other (case, accents and punctuation
// folded), so that a subtitle missing from one or a broken line does not
// count, but a section heading or a journal's name does.
func sameWords(a, b string) bool {
	wa, wb := foldWords(a), foldWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	return share(wa, wb) >= 0.85 && share(wb, wa) >= 0.6
}

// share is the fraction of the words of a that are in b.
func share(a, b []string) float64 {
	in := map[string]bool{}
	for _, w := range b {
		in[w] = true
	}
	n := 0
	for _, w := range a {
		if in[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// foldWords folds s (text.Fold: lower case, no accents, ligatures and
// letters such as ß and ı spelled out) and splits it at anything that is
// not a letter or digit.
func foldWords(s string) []string {
	return strings.FieldsFunc(text.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// --- authors

// headerStop ends the header: the abstract or the first section begins.
var headerStop = regexp.MustCompile(`(?i)^\s*((\d+(\.\d+)*\.?|[IVX]+\.)\s+)?(abstract|introduction|summary|keywords|index terms|contents|article info|a r t i c l e)\b`)

// affiliation matches the words of an affiliation, an address or a note,
// which share the header's lines with the authors' names.
var affiliation = regexp.MustCompile(`(?i)(univers|institut|department|dept\b|laborator|\blabs?\b|school|college|research|\binc\b|corp\b|corporation|\bcenter\b|centre|foundation|company|technolog|academy|faculty|hospital|\bltd\b|gmbh|\bteam\b|\bbrain\b|google|microsoft|facebook|openai|deepmind|\bibm\b|yahoo|\bamazon\b|nvidia|\bmeta ai\b|street|\broad\b|avenue|\bbox\b|\busa\b|u\.s\.a|germany|france|china|japan|spain|italy|netherlands|england|\buk\b|canada|switzerland|austria|norway|israel|california|massachusetts|connecticut|new york|\bcity\b|draft|redistribution|contribution|correspond|equal|preprint|submitted|version|published|conference|journal|proceedings|workshop|symposium|\bcopyright\b|©|\bemail\b|e-mail|\bwww\b|http|@|\bdate\b|\bpage\b)`)

var (
	monthName = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`
	dateLine  = regexp.MustCompile(`(?i)\b` + monthName + `\s+\d{0,2}(?:st|nd|rd|th)?,?\s*(?:19|20)\d\d\b|\b\d{1,2}\s+` + monthName + `,?\s+(?:19|20)\d\d\b`)
	// marksAt are footnote marks and affiliation numbers set after a name
	// ("Vaswani∗", "Peng1∗", "Alcaide2,3,4∗"): they separate names.
	marksAt = regexp.MustCompile(`(\p{L}\.?)[` + footnoteMarks + `\d]+(?:,\d+)*[` + footnoteMarks + `]*`)
	// strayAccent is a spacing accent PDFium sets apart from its letter.
	strayAccent = regexp.MustCompile(`\s[¨´` + "`" + `ˆ˜¸˘˙˚]\s?|[¨´` + "`" + `ˆ˜¸˘˙˚]`)
	nameSep     = regexp.MustCompile(`(?i)\s*(?:,|;|\band\b|\s&\s|·|•|\s{2,})\s*`) // not the & of "Texas A&M"
	// inParens is an affiliation or an address set in parentheses (or
	// angle or square brackets) after a name: "Maria Rossi (Politecnico di
	// Milano)", "Ann Roe <ann@roe.org>".
	inParens = regexp.MustCompile(`\([^()]*\)|<[^<>]*>|\[[^\[\]]*\]`)
	// affLetter is an affiliation's letter set after a name ("Martín a").
	affLetter = regexp.MustCompile(`\s+\p{Ll}$`)
	initial   = regexp.MustCompile(`^(\p{Lu}\.)+(-\p{Lu}\.)?$|^\p{Lu}$`)
)

var particles = map[string]bool{"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true,
	"di": true, "da": true, "dos": true, "du": true, "la": true, "le": true, "ter": true, "bin": true, "al": true, "las": true}

// headAuthors reads the authors' names from the lines under the title (from
// index from): up to the abstract or the first section, without emails,
// affiliations, dates and footnote marks.
func headAuthors(lines []pdf.Line, from int) []string {
	if from < 0 {
		return nil
	}
	var out []string
	for i := from; i < len(lines) && i < from+25; i++ {
		text := strings.TrimSpace(lines[i].Text)
		if headerStop.MatchString(text) || len(text) > 160 {
			break
		}
		// "by" (a thesis's, a report's) puts the author after it: what
		// came before is the degree's or the series' wording
		if len(out) > 0 && runningText(text) {
			break // the abstract's text, with no heading before it
		}
		if m := byLine.FindStringSubmatch(text); m != nil && (m[1] == "" || len(m[1]) <= 80 && unicode.IsUpper([]rune(m[1])[0])) {
			out, text = nil, m[1]
		}
		if dateLine.MatchString(text) {
			continue // "Received June 13, 1984; revised …", a date under the names
		}
		text = strayAccent.ReplaceAllString(dotlessAccent.Replace(text), "")
		text = grade.ReplaceAllString(text, ",")
		text = inParens.ReplaceAllString(text, ",")
		text = marksAt.ReplaceAllString(text, "$1,")
		text = looseMarks(text)
		// a line is read for names when it begins with one: an
		// affiliation's line ("Yale University, New Haven") is not
		var names []string
		for _, piece := range nameSep.Split(text, -1) {
			piece = affLetter.ReplaceAllString(strings.Trim(piece, " .,;:&()[]{}"+footnoteMarks), "")
			if piece == "" {
				continue
			}
			if affiliation.MatchString(piece) || dateLine.MatchString(piece) || orgWords(piece) {
				if len(names) == 0 {
					break
				}
				continue
			}
			got := namesIn(piece)
			if len(got) == 0 && len(names) == 0 {
				break
			}
			names = append(names, got...)
		}
		out = append(out, names...)
		if len(out) >= 200 {
			break
		}
	}
	return out
}

var (
	// byLine is a "by" line: "by", "by Amara N. Okafor",
	// and a label before the names: "Author(s): Howard B. Lindqvist".
	byLine = regexp.MustCompile(`(?i)^(?:by\b|authors?(?:\(s\))?\s*:)\s*(.*)$`)
	// grade is an IEEE membership grade set after a name: "Li Wei,
	// Member, IEEE", "Senior Member, IEEE", "Fellow, IEEE".
	grade = regexp.MustCompile(`(?i),?\s*\b(?:(?:life|senior|student|graduate student)\s+)?(?:member|fellow)\s*,\s*ieee\b,?`)
)

// runningText is a line of running text: eight words or more, most of them in
// small letters (an affiliation's or a list of names' words are
// capitalised).
func runningText(text string) bool {
	words := strings.Fields(text)
	small := 0
	for _, w := range words {
		if r := []rune(w); unicode.IsLower(r[0]) {
			small++
		}
	}
	return len(words) >= 8 && small*2 > len(words)
}

// looseMarks turns the marks set apart from the names they follow ("Rui
// Zhang * 1 Omar Haddad * 1 Sofia Lindqvist 2") into separators: a word
// made only of footnote marks and digits is none of a name's.
func looseMarks(text string) string {
	words := strings.Fields(text)
	for i, w := range words {
		if strings.Trim(w, footnoteMarks+"0123456789,") == "" {
			words[i] = ","
		}
	}
	return strings.Join(words, " ")
}

// orgWords reports a piece of a header line that holds a word no
// person's name has (notNameWord): an organisation's, a heading's, an
// address's. Its words are not read as names, not even the first two.
func orgWords(piece string) bool {
	for _, w := range strings.Fields(piece) {
		if notNameWord[strings.ToLower(strings.Trim(w, ".,;:"))] {
			return true
		}
	}
	return false
}

// namesIn returns the names in a piece of an author line: one name, or,
// in a line that lists names with only spaces between them ("Kaiming He
// Xiangyu Zhang …"), names of two words each (a middle initial or a
// particle joins the name it stands in).
func namesIn(piece string) []string {
	if allCaps(piece) {
		piece = nameCase(piece)
	}
	words := strings.Fields(piece)
	if len(words) < 2 {
		return nil
	}
	for _, w := range words {
		if !nameWord(w) {
			return nil
		}
	}
	if len(words) <= 3 {
		return []string{strings.Join(words, " ")}
	}
	// a longer run: cut after each word that ends a name (not an
	// initial, not a particle, and not the first word of a name)
	var out []string
	var cur []string
	given := 0
	for _, w := range words {
		cur = append(cur, w)
		switch {
		case initial.MatchString(w) || particles[strings.ToLower(w)]:
		case given == 0:
			given = 1
		default:
			out = append(out, strings.Join(cur, " "))
			cur, given = nil, 0
		}
	}
	if len(cur) > 0 && len(out) > 0 {
		out[len(out)-1] += " " + strings.Join(cur, " ")
	}
	return out
}

// dotlessAccent puts the accent PDFium sets apart after a dotless i back on
// it ("Martı´n" → "Martín").
var dotlessAccent = strings.NewReplacer("ı´", "í", "ı`", "ì", "ı¨", "ï", "ıˆ", "î", "ı ´", "í")

// nameCase sets a name printed in capitals ("MICHAEL J. FISCHER") in
// the usual case.
func nameCase(s string) string {
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		if particles[w] && i > 0 {
			continue
		}
		r := []rune(w)
		for j := range r {
			if j == 0 || r[j-1] == '-' || r[j-1] == '.' || r[j-1] == '\'' {
				r[j] = unicode.ToUpper(r[j])
			}
		}
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// nameWord is a word a person's name is made of: capitalised letters (with
// apostrophes and hyphens), an initial, or a particle.
func nameWord(w string) bool {
	if particles[strings.ToLower(w)] && w == strings.ToLower(w) {
		return true
	}
	if initial.MatchString(w) {
		return true
	}
	r := []rune(w)
	if len(r) < 2 || !unicode.IsUpper(r[0]) || allUpper(w) {
		return false // not a name, or an acronym ("UC", "ASA")
	}
	for _, c := range r {
		if !unicode.IsLetter(c) && c != '\'' && c != '’' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func allUpper(w string) bool {
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// infoAuthors splits an Info/XMP author field into names: "A; B; C",
// "A, B and C", "Family, Given" kept whole; affiliations dropped.
func infoAuthors(s string) []string {
	s = strayAccent.ReplaceAllString(dotlessAccent.Replace(stripMarkup(s)), "")
	var pieces []string
	if strings.Contains(s, ";") {
		for _, p := range strings.Split(s, ";") {
			if fam, _, ok := strings.Cut(p, ","); ok && strings.Count(p, ",") == 1 && !affiliation.MatchString(p) && len(strings.Fields(fam)) == 1 {
				pieces = append(pieces, p) // "Turing, Alan"
				continue
			}
			pieces = append(pieces, nameSep.Split(p, -1)...)
		}
	} else {
		pieces = nameSep.Split(s, -1)
	}
	var out []string
	for _, p := range pieces {
		if p = strings.TrimSpace(p); p != "" && !affiliation.MatchString(p) {
			out = append(out, p)
		}
	}
	return out
}

// verifiedAuthors keeps Info/XMP authors when they look like names and page
// 1 (when it has text) carries their family names: an Info author is often
// an account name ("Ken", "jsmith") or a typist's.
func verifiedAuthors(authors []string, pageText string) []string {
	if len(authors) == 0 {
		return nil
	}
	page := " " + strings.Join(foldWords(pageText), " ") + " "
	for _, a := range authors {
		words := foldWords(a)
		if len(words) < 2 {
			return nil
		}
		if strings.TrimSpace(page) != "" && !strings.Contains(page, " "+words[len(words)-1]+" ") {
			return nil
		}
	}
	return authors
}

// --- year

var (
	// arXiv's stamp: "arXiv:1910.02054v3 [cs.LG] 13 May 2020".
	stampYear = regexp.MustCompile(`(?i)arxiv:\s*\S+\s+(?:\[[^\]]{1,20}\]\s+)?\d{1,2}\s+` + monthName + `\s+((?:19|20)\d\d)`)
	// a journal's volume line: "Vol. 32, No. 2, April 1985",
	// "Volume 8 / Number 9 / September, 1965", "Sciences 75 (2009) 178–189",
	// "Vol. 32, No. 2 (Apr., 1985)".
	volumeYear = regexp.MustCompile(`(?i)\b(?:vol(?:ume)?\.?|no\.|number|lncs|lnai|lnbip|ccis|lipics)\s*\d+\b(?:[^.;]|\b[A-Z][a-z]{2}\.){0,40}?\b((?:19|20)\d\d)\b`)
	// a journal's masthead: "May 2011, Volume 40, Issue 8"
	issueYear = regexp.MustCompile(`(?i)\b((?:19|20)\d\d),\s*volume\s+\d+,\s*(?:issue|number|no\.)\s*\d+`)
	// a journal's short citation line: "Sensors 2021, 21, 4412", "Appl.
	// Sci. 2020, 10(3), 1234", "PVLDB, 14(3): 345-357, 2020"
	shortCiteYear = regexp.MustCompile(`\b\p{Lu}[\p{L}.]+(?:\s+\p{Lu}[\p{L}.]*){0,4}\s+((?:19|20)\d\d),\s*\d+(?:\s*\(\d+\))?,\s*\d+|\b\p{Lu}[\p{L}.]+,?\s+\d+\s*\(\d+\)\s*:\s*\d+\s*[-–]\s*\d+,\s*((?:19|20)\d\d)\b`)
	// how the paper asks to be cited: "Citation: Brandt K, Olsen T
	// (2014). … Journal of Statistical Software, 57(3)"
	citationYear = regexp.MustCompile(`(?i)\b(?:citation|cite (?:this|as)|to cite)\b:?\s*[^()]{0,200}?\(((?:19|20)\d\d)[a-z]?\)`)
	journalYear  = regexp.MustCompile(`(?i)\b(?:journal|transactions|review|letters)\b[^\n]{0,80}?\((?:19|20)\d\d\)|\b(?:journal|transactions)\s+[^\n]{0,80}?\s\d+\s+\(((?:19|20)\d\d)\)`)
	// where the paper appeared: "Published in ACM Transactions …, November,
	// 1984", "Published as a conference paper at ICLR 2021", and a version
	// of a published paper: "modified version of Zeileis (2004), published
	// in …", "published as Zeileis and Grothendieck (2005) in …".
	publishedYear = regexp.MustCompile(`(?i)\b(?:published|appear(?:s|ed)?|accepted|to appear)\s+(?:as|in|at)\b[^()]{0,120}?\(?((?:19|20)\d\d)\b`)
	versionOf     = regexp.MustCompile(`(?i)\bversion\s+of\s+[\p{L}][^()]{0,80}?\(((?:19|20)\d\d)\)`)
	earlier       = regexp.MustCompile(`(?i)(preliminary|earlier|previous|originally|extended|shorter|conference)\s+(version|presented)`)
	// a report's series line: "Technical Report CSL-TR-87-331, March 1987".
	reportYear = regexp.MustCompile(`(?i)\b(?:technical|tech\.|research|internal)\s+(?:report|rep\.|memo(?:randum)?|note)\b[^\n]{0,60}?\b((?:19|20)\d\d)\b`)
	// "© 2019 ACM", "Copyright 1985", and the holder before the year:
	// "© Springer Nature Switzerland AG 2020", "© The Author(s) 2021"
	copyrightAny = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(?:[\p{L}&.,()'’\- ]{0,60}?\s)?((?:19|20)\d\d)\b`)
	venueYear    = regexp.MustCompile(`(?i)\b(?:[A-Z]{3,}\s*['’]\s*(\d\d)\b|(?:proceedings|conference|symposium|workshop)[^\n]{0,100}?\b((?:19|20)\d\d)\b)`)
	nameYear     = regexp.MustCompile(`(?:^|[^\d])((?:19|20)\d\d)(?:[^\d]|$)`)
)

// draftDate marks a date line that dates a copy of the paper rather than
// the paper: "(Draft of October 7, 2013)", "Preprint, revised May 2019".
var draftDate = regexp.MustCompile(`(?i)\b(draft|preprint|pre-print|revised|revision|working paper|submitted|under review|manuscript|unpublished|compiled|printed)\b`)

// copyStamp marks a date that dates the copy at hand, never the paper: a
// build's ("Compiled on", "Last updated", a package's version), a scan's
// or a download's. Such a date is passed over; a paper that prints no
// other year has it estimated as one with only a creation date is
// (estimateYear).
var copyStamp = regexp.MustCompile(`(?i)\b(compiled|last (?:updated|modified|changed|revised)|generated|built|typeset|downloaded|retrieved|accessed|digiti[sz]ed|scanned|package version|version\s+[\d.-]+\s+(?:of|as of|from))\b`)

// marginVenue is a running head's or foot's venue line: "Published as a
// conference paper at ICLR 2021", "Accepted at the 40th International
// Conference on Machine Learning (ICML 2023)", "35th Conference on Neural
// Information Processing Systems (NeurIPS 2021), Sydney, Australia".
var marginVenue = regexp.MustCompile(`(?i)^(?:(?:published|accepted|appear(?:s|ed|ing)?|to appear)\b[^\n]{0,120}?\b|\d+(?:st|nd|rd|th)\s+(?:annual\s+)?(?:international\s+)?(?:conference|symposium|workshop)\b[^\n]{0,120}?\(\s*[\p{L}-]+\s*)((?:19|20)\d\d)\b`)

// margins returns the year of a venue line among page 1's first and last
// lines (its running head and foot), 0 when none is.
func margins(lines []pdf.Line) int {
	for i, ln := range lines {
		if i >= 3 && i < len(lines)-4 {
			continue
		}
		if len(ln.Text) > 200 || earlier.MatchString(ln.Text) {
			continue
		}
		if m := marginVenue.FindStringSubmatch(strings.TrimSpace(ln.Text)); m != nil {
			if y := yearOf(m[1]); y != 0 {
				return y
			}
		}
	}
	return 0
}

// headYear returns the year page 1 gives for the paper: the arXiv stamp's
// date, a journal's volume line, where it was published, its copyright
// line, a date line in the header, a conference line; 0 when none. dated
// is set when the year is a draft's date line ("Draft of October 7,
// 2013"): the date of this copy, which the year the paper appeared may
// differ from. A plain date under the title (a report's, a memo's) is the
// paper's.
func headYear(text string, lines []pdf.Line, from int) (year int, dated bool) {
	flat := cleanSpace(text)
	// where a preprint says it appeared, in its running head or foot
	// ("Published as a conference paper at ICLR 2021", "35th Conference
	// on Neural Information Processing Systems (NeurIPS 2021)"), wins over
	// the arXiv stamp, which dates the version posted last
	if y := margins(lines); y != 0 {
		return y, false
	}
	if y := firstYear(stampYear, flat); y != 0 {
		return y, false
	}
	for _, re := range []*regexp.Regexp{volumeYear, issueYear, journalYear, citationYear, shortCiteYear} {
		if y := firstYear(re, flat); y != 0 {
			return y, false
		}
	}
	for _, re := range []*regexp.Regexp{versionOf, publishedYear} {
		for _, m := range re.FindAllStringSubmatchIndex(flat, -1) {
			// "a preliminary version of this paper appears in …" is not
			// this paper's year
			if earlier.MatchString(flat[max(0, m[0]-40):m[1]]) && re == publishedYear {
				continue
			}
			if y := yearOf(flat[m[2]:m[3]]); y != 0 {
				return y, false
			}
		}
	}
	if y := firstYear(copyrightAny, flat); y != 0 {
		return y, false
	}
	// a report's series line in the header (above the abstract)
	for i, l := range lines {
		if i >= from+25 || i >= from && headerStop.MatchString(l.Text) {
			break
		}
		if y := firstYear(reportYear, l.Text); y != 0 {
			return y, false
		}
	}
	// a date under the title: "March 25, 2011", "(Draft of October 7, 2013)"
	if from >= 0 {
		for i := from; i < len(lines) && i < from+25; i++ {
			if headerStop.MatchString(lines[i].Text) {
				break
			}
			if copyStamp.MatchString(lines[i].Text) {
				continue // a date of this copy, not of the paper
			}
			if m := dateLine.FindString(lines[i].Text); m != "" {
				if y := lastYear(m); y != 0 {
					return y, draftDate.MatchString(lines[i].Text)
				}
			}
		}
	}
	if m := venueYear.FindStringSubmatch(flat); m != nil {
		if m[1] != "" {
			yy, _ := strconv.Atoi(m[1])
			if yy > time.Now().Year()%100+1 {
				return 1900 + yy, false
			}
			return 2000 + yy, false
		}
		return yearOf(m[2]), false
	}
	for _, m := range dateLine.FindAllStringIndex(flat, -1) {
		before := flat[max(0, m[0]-60):m[1]]
		if copyStamp.MatchString(before) {
			continue
		}
		return lastYear(flat[m[0]:m[1]]), draftDate.MatchString(before)
	}
	return 0, false
}

// citedYear is the latest year page 1 cites in author-year style
// ("Zeileis (2004)", "(Hansen 1992a; Andrews 1993)"), 0 when none.
func citedYear(text string) int {
	best := 0
	for _, m := range authorYear.FindAllStringSubmatch(text, -1) {
		for _, g := range m[1:] {
			if y := yearOf(g); y > best {
				best = y
			}
		}
	}
	return best
}

// authorYear is an author-year citation in running text.
var authorYear = regexp.MustCompile(`\p{Lu}\p{Ll}+(?:\s+et al\.)?,?\s+\(((?:19|20)\d\d)[a-z]?[),;]|\p{Lu}\p{Ll}+(?:\s+et al\.)?,?\s+((?:19|20)\d\d)[a-z]?[);,]`)

// estimateYear is the year of a paper that prints none: the PDF's creation
// year, unless page 1 cites work more than three years older than it at the
// latest (a PDF made again long after the paper, as a package vignette or
// a reprint is); then the latest cited year, a lower bound that a paper
// rarely passes by much.
func estimateYear(created, cited int) int {
	if cited != 0 && (created == 0 || created > cited+3) {
		return cited
	}
	return created
}

// fileYear is a year in a PDF's file or folder name ("1985-Flajolet-…",
// "smith2019deep"), 0 when it holds none or several.
func fileYear(names ...string) int {
	for _, n := range names {
		base := strings.TrimSuffix(path.Base(n), path.Ext(n))
		ms := nameYear.FindAllStringSubmatch(base, -1)
		if len(ms) == 1 {
			if y := yearOf(ms[0][1]); y != 0 {
				return y
			}
		}
	}
	return 0
}

func firstYear(re *regexp.Regexp, s string) int {
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		for _, g := range m[1:] {
			if y := yearOf(g); y != 0 {
				return y
			}
		}
		if y := lastYear(m[0]); y != 0 {
			return y
		}
	}
	return 0
}

var anyYear = regexp.MustCompile(`(?:19|20)\d\d`)

func lastYear(s string) int {
	ms := anyYear.FindAllString(s, -1)
	if len(ms) == 0 {
		return 0
	}
	return yearOf(ms[len(ms)-1])
}

// yearOf parses a plausible publication year.
func yearOf(s string) int {
	y, err := strconv.Atoi(s)
	if err != nil || y < 1900 || y > time.Now().Year()+1 {
		return 0
	}
	return y
}

// sameFamily reports whether two names end in the same family name (case
// and accents folded).
func sameFamily(a, b string) bool {
	wa, wb := foldWords(a), foldWords(b)
	return len(wa) > 0 && len(wb) > 0 && wa[len(wa)-1] == wb[len(wb)-1]
}
