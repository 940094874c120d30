package claim

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/text"
)

// What a claim says is read as its content words (stop words out, each
// stemmed) and its numbers. A page is read the same way, so that the two
// meet; a page's words broken across a line ("con-\nsensus") are read
// whole and in parts.

// token is a word or a number of a text.
type token struct {
	word    string   // folded; "" for a number written in digits
	num     string   // the number it is (see normNumber), "" for a word that is none
	joined  string   // a number and the group of three digits after a space: "1 000" is also 1000
	alt     []string // a word broken across lines: its halves
	at, end int      // its bytes in the text scanned
}

// spelled are the numbers a claim or a page may write in words. "one" is
// not among them: it is mostly a pronoun.
var spelled = map[string]string{
	"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
	"ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
	"sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30",
	"forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
	"hundred": "100", "thousand": "1000", "twice": "2", "double": "2", "half": "0.5",
}

// tokenize reads s as words (folded) and numbers, for a claim.
func tokenize(s string) []token {
	var out []token
	scan(s, func(t token) {
		if t.word != "" {
			t.word = text.Fold(strings.ReplaceAll(t.word, "\u00ad", ""))
			for i, a := range t.alt {
				t.alt[i] = text.Fold(a)
			}
			t.num = spelled[t.word]
		}
		out = append(out, t)
	})
	return out
}

// scan calls emit with each word (as written) and number of s, in order.
// A number is a run of digits with a decimal point or thousands commas
// inside it ("1,000.50" is 1000.5; a comma before anything but three
// digits separates numbers); a letter next to a digit starts a new token
// ("300ms" is 300 and ms). A word hyphenated at a line's end is read
// whole, with its halves in alt (a compound like "first-\ncome" is two
// words).
func scan(s string, emit func(token)) {
	for i := 0; i < len(s); {
		c := s[i]
		if isDigit(c) {
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1]) || s[j] == ',' && group(s, j+1)) {
				j++
			}
			t := token{num: normNumber(s[i:j]), at: i, end: j}
			if j-i <= 3 {
				if n := spaceAt(s, j); n > 0 && group(s, j+n) {
					t.joined = normNumber(s[i:j] + s[j+n:j+n+3])
				}
			}
			emit(t)
			i = j
			continue
		}
		r, n := rune(c), 1
		if c >= 0x80 {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if !text.IsWordRune(r) {
			i += n
			continue
		}
		j := wordEnd(s, i+n)
		t := token{word: s[i:j], at: i}
		if k := hyphenBreak(s, j); k > 0 {
			if r2, _ := utf8.DecodeRuneInString(s[k:]); unicode.IsLower(r2) {
				e := wordEnd(s, k)
				t.alt = []string{t.word, s[k:e]}
				t.word += s[k:e]
				j = e
			}
		}
		t.end = j
		emit(t)
		i = j
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// wordEnd is where the word whose letters go on at i ends: at a
// separator or an ASCII digit. A soft hyphen is part of the word.
func wordEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			if isDigit(c) || !text.IsWordRune(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !text.IsWordRune(r) && r != '\u00ad' {
			return i
		}
		i += n
	}
	return i
}

// spaceAt is the length of the one space (or no-break or thin space) at
// s[i], 0 when there is none.
func spaceAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if s[i] == ' ' {
		return 1
	}
	for _, sp := range []string{"\u00a0", "\u2009", "\u202f"} {
		if strings.HasPrefix(s[i:], sp) {
			return len(sp)
		}
	}
	return 0
}

// group reports whether s[i:] starts with exactly three digits: a
// thousands group.
func group(s string, i int) bool {
	if i+3 > len(s) || !isDigit(s[i]) || !isDigit(s[i+1]) || !isDigit(s[i+2]) {
		return false
	}
	return i+3 == len(s) || !isDigit(s[i+3]) && !(s[i+3] == '.' && i+4 < len(s) && isDigit(s[i+4]))
}

// hyphenBreak returns where the next line's text starts when s[j:] is a
// hyphen that ends a line; 0 when it is not.
func hyphenBreak(s string, j int) int {
	switch {
	case strings.HasPrefix(s[j:], "-"):
		j++
	case strings.HasPrefix(s[j:], "\u2010"):
		j += len("\u2010")
	default:
		return 0
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j >= len(s) || s[j] != '\n' {
		return 0
	}
	j++
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j
}

// normNumber writes a number one way: thousands commas out, leading
// zeros and a decimal part's trailing zeros out ("1,000" and "1000",
// "3.50" and "3.5", "4.0" and "4" are one number).
func normNumber(s string) string {
	s = strings.ReplaceAll(s, ",", "")
	if strings.Count(s, ".") > 1 {
		return s // a version or a date: compared as written
	}
	whole, frac, _ := strings.Cut(s, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	frac = strings.TrimRight(frac, "0")
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

// notClaimed are words a claim uses to name or introduce its source, not
// to say what the source says.
var notClaimed = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`see cf eg ie ibid viz etc source sources reference ref refs page pages pp pg printed
		passage passages quote quotes quoted text article chapter document documents note notes noted write writes wrote
		written argue argues argued claim claims claimed report reports reported mention mentions mentioned observe observes
		observed suggest suggests suggested explained emphasize emphasizes emphasized stress stresses stressed discuss
		discusses discussed highlight highlights highlighted conclude concludes concluded point points pointed out
		state states stated st nd rd th`) {
		notClaimed[w] = true
	}
}

// ignored reports whether a folded word of a claim says nothing the page
// must hold: a stop word, a word that names the source, a lone letter.
func ignored(w string) bool {
	if len(w) < 2 || text.Stop(w) || notClaimed[w] {
		return true
	}
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true // a number: counted as one
}

// References a claim makes to where it is, not what it says. Their
// numbers are not claims: "p. 6", "pp. 3–4", "[12]", "Figure 3",
// "Section 5.2", "(Ongaro and Ousterhout, 2014)", "Lamport (2001)".
var (
	footnoteRE   = regexp.MustCompile(`\[\^?[0-9]+(?:\s*[-–,;]\s*[0-9]+)*\]|\[\^[^\]\s]*\]|\^[0-9]+`)
	pageRefRE    = regexp.MustCompile(`(?i)\b(?:pp?|pages?|pgs?)\.?\s*[0-9]+(?:\s*(?:[-–—]|to|and|,)\s*[0-9]+)*\b`)
	numberedRE   = regexp.MustCompile(`(?i)\b(fig(?:ure)?s?|tab(?:le)?s?|sec(?:tion)?s?|§|eqs?|equations?|alg(?:orithm)?s?|thms?|theorems?|lemmas?|defs?|definitions?|appendix|appendices|chapters?|ch|steps?|lines?|props?|propositions?|corollar(?:y|ies)|listings?|exhibits?|parts?|rules?)\.?\s*\(?[A-Z]?[0-9]+(?:\.[0-9]+)*[a-z]?\)?(?:\s*(?:[-–]|and|,|&)\s*\(?[A-Z]?[0-9]+(?:\.[0-9]+)*[a-z]?\)?)*`)
	sectionRE    = regexp.MustCompile(`§+\s*[0-9]+(?:\.[0-9]+)*`)
	authorParenR = regexp.MustCompile(`\((?:see\s+|e\.g\.,?\s+|cf\.\s+)?[A-Z][^()]{0,120}?\b(?:19|20)[0-9]{2}[a-z]?\b[^()]{0,120}\)`)
	authorYearRE = regexp.MustCompile(`\b[A-Z][\p{L}'’-]+(?:\s+(?:and|&)\s+[A-Z][\p{L}'’-]+|\s+et\s+al\.?)?,?\s*[\(\[](?:19|20)[0-9]{2}[a-z]?[\)\]]`)
	authorBrRE   = regexp.MustCompile(`\[[A-Z][^\[\]]{0,80}?(?:19|20)[0-9]{2}[a-z]?\]`)
	enumRE       = regexp.MustCompile(`(^|[\s:;])\(?(?:[0-9]{1,2}|[a-z]|[ivx]{1,4})\)\s`)
	urlRE        = regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://\S+`)
)

// cleanClaim takes out of a claim what is not claimed: links, page
// references, footnote marks, author–year references, and the numbers of
// figures, tables, sections and the like (their words stay).
func cleanClaim(s string) string {
	s = urlRE.ReplaceAllString(s, " ")
	s = enumRE.ReplaceAllString(s, "$1 ")
	s = authorParenR.ReplaceAllString(s, " ")
	s = authorYearRE.ReplaceAllString(s, " ")
	s = authorBrRE.ReplaceAllString(s, " ")
	s = footnoteRE.ReplaceAllString(s, " ")
	s = pageRefRE.ReplaceAllString(s, " ")
	s = sectionRE.ReplaceAllString(s, " ")
	s = numberedRE.ReplaceAllStringFunc(s, func(m string) string {
		return numberedRE.FindStringSubmatch(m)[1] + " "
	})
	return s
}

// terms is what a claim asks of a page.
type terms struct {
	words []string // stems of its content words, distinct
	soft  []string // stems of words that may name the source (title, authors): counted when found
	nums  []string // its numbers, distinct
	// softNums are small numbers written as words: counted when found.
	softNums []string
	pairs    [][2]string // stems of content words next to each other in the claim
	// near are, for each number, the terms next to it in the claim
	// ("#" and a number, or a stem): a number of one digit must sit next
	// to one of them on the page too.
	near map[string][]string
	size int // its words, stop words included: how wide a passage it is
}

// claimTerms reads a claim. Words of the paper's title and its authors'
// names (known) may only name the source; a number that is the paper's
// year too.
func claimTerms(claim string, known map[string]bool, year string, st *stems) terms {
	t := terms{near: map[string][]string{}}
	seen := map[string]bool{}
	toks := tokenize(cleanClaim(claim))
	var order []string // the content terms in order, numbers as "#n"
	prev := ""
	pair := func(s string) {
		if prev != "" && prev != s {
			t.pairs = append(t.pairs, [2]string{prev, s})
		}
		prev = s
	}
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		t.size++
		if tok.joined != "" && i+1 < len(toks) {
			tok.num = tok.joined // "1 000" is one number
			i++
		}
		switch {
		case tok.num != "" && tok.word != "twice" && tok.word != "double" && tok.word != "half":
			if tok.num == year {
				continue
			}
			order = append(order, "#"+tok.num)
			if seen["#"+tok.num] {
				continue
			}
			seen["#"+tok.num] = true
			// A small number written out is as often grammar ("the
			// two") as a claim: counted where the page has it, not
			// asked for.
			if v, err := strconv.Atoi(tok.num); err == nil && tok.word != "" && v < 13 {
				t.softNums = append(t.softNums, tok.num)
				continue
			}
			t.nums = append(t.nums, tok.num)
		case ignored(tok.word):
		default:
			s := st.stem(tok.word)
			pair(s)
			order = append(order, s)
			if seen[s] {
				continue
			}
			seen[s] = true
			if known[s] {
				t.soft = append(t.soft, s)
			} else {
				t.words = append(t.words, s)
			}
		}
	}
	for i, k := range order {
		if !strings.HasPrefix(k, "#") {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(order) && order[j] != k {
				t.near[k[1:]] = append(t.near[k[1:]], order[j])
			}
		}
	}
	return t
}

// stems memoizes text.Stem of folded words, and the reading of words as
// a page writes them: its pages repeat their words.
type stems map[string]string

func (st *stems) stem(w string) string {
	if s, ok := (*st)[w]; ok {
		return s
	}
	s := text.Stem(w)
	(*st)[w] = s
	return s
}

// reading is a word of a page as the scorer keys it: its stem's id (-1
// for a word no claim asks for), and the id of the number it writes out
// (-1 when none).
type reading struct{ stem, num int32 }

// readings memoizes the reading of words as written, and numbers the
// keys of the papers one check reads.
type readings struct {
	dict  *dict
	words map[string]reading
	st    *stems
}

func newReadings(st *stems) *readings {
	return &readings{dict: &dict{ids: map[string]int32{}}, words: map[string]reading{}, st: st}
}

func (rd *readings) of(raw string) reading {
	if r, ok := rd.words[raw]; ok {
		return r
	}
	w := text.Fold(strings.ReplaceAll(raw, "\u00ad", ""))
	r := reading{stem: -1, num: -1}
	if !ignored(w) { // no claim asks for a stop word: not kept
		r.stem = rd.dict.id(rd.st.stem(w))
	}
	if n := spelled[w]; n != "" {
		r.num = rd.dict.id("#" + n)
	}
	rd.words[raw] = r
	return r
}

func (rd *readings) number(n string) int32 { return rd.dict.id("#" + n) }

// knownWords are the stems of a paper's title and its authors' names.
func knownWords(title string, authors []string, st *stems) map[string]bool {
	out := map[string]bool{}
	for _, s := range append([]string{title}, authors...) {
		for _, w := range text.Words(s) {
			if !ignored(w) {
				out[st.stem(w)] = true
			}
		}
	}
	return out
}
