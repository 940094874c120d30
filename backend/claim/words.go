package claim

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/text"
)

// What a claim says is read as its content words (stop words out, each
// stemmed) and its numbers. A page is read the same way, so that the two
// meet; a page's words broken across a line ("con-\nsensus") are read
// whole and in parts.

// token is a word or a number of a text.
type token struct {
	word   string   // folded; "" for a number written in digits
	num    string   // the number it is (see normNumber), "" for a word that is none
	joined string   // a number and the group of three digits after a space: "1 000" is also 1000
	alt    []string // a word broken across lines: its halves
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

// tokenize reads s as words and numbers. A number is a run of digits with
// a decimal point or thousands commas inside it ("1,000.50" is 1000.5; a
// comma before anything but three digits separates numbers); a letter
// next to a digit starts a new token ("300ms" is 300 and ms).
func tokenize(s string) []token {
	var out []token
	r := []rune(s)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case unicode.IsDigit(c):
			j := i
			for j < len(r) && (unicode.IsDigit(r[j]) || j > i && (r[j] == '.' && j+1 < len(r) && unicode.IsDigit(r[j+1]) || r[j] == ',' && group(r, j+1))) {
				j++
			}
			t := token{num: normNumber(string(r[i:j]))}
			if j-i <= 3 && j+1 < len(r) && (r[j] == ' ' || r[j] == '\u00a0' || r[j] == '\u2009' || r[j] == '\u202f') && group(r, j+1) {
				t.joined = normNumber(string(r[i:j]) + string(r[j+1:j+4]))
			}
			out = append(out, t)
			i = j
		case text.IsWordRune(c):
			j := i
			for j < len(r) && (text.IsWordRune(r[j]) && !unicode.IsDigit(r[j]) || r[j] == '\u00ad') {
				j++
			}
			w := strings.ReplaceAll(string(r[i:j]), "\u00ad", "")
			t := token{word: text.Fold(w)}
			// A word hyphenated at a line's end: read it whole, and keep
			// its halves (a compound like "first-\ncome" is two words).
			if k := hyphenBreak(r, j); k > 0 {
				e := k
				for e < len(r) && text.IsWordRune(r[e]) && !unicode.IsDigit(r[e]) {
					e++
				}
				if e > k && unicode.IsLower(r[k]) {
					second := text.Fold(string(r[k:e]))
					t.alt = []string{t.word, second}
					t.word += second
					j = e
				}
			}
			t.num = spelled[t.word]
			out = append(out, t)
			i = j
		default:
			i++
		}
	}
	return out
}

// group reports whether r[i:] starts with exactly three digits: a
// thousands group.
func group(r []rune, i int) bool {
	if i+3 > len(r) {
		return false
	}
	for k := i; k < i+3; k++ {
		if !unicode.IsDigit(r[k]) {
			return false
		}
	}
	return i+3 == len(r) || !unicode.IsDigit(r[i+3]) && !(r[i+3] == '.' && i+4 < len(r) && unicode.IsDigit(r[i+4]))
}

// hyphenBreak returns where the next line's text starts when r[j:] is a
// hyphen that ends a line; 0 when it is not.
func hyphenBreak(r []rune, j int) int {
	if j >= len(r) || r[j] != '-' && r[j] != '\u2010' {
		return 0
	}
	k := j + 1
	for k < len(r) && (r[k] == ' ' || r[k] == '\t' || r[k] == '\r') {
		k++
	}
	if k >= len(r) || r[k] != '\n' {
		return 0
	}
	k++
	for k < len(r) && (r[k] == ' ' || r[k] == '\t') {
		k++
	}
	return k
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

// stems memoizes text.Stem: a paper's pages repeat their words.
type stems map[string]string

func (st *stems) stem(w string) string {
	if s, ok := (*st)[w]; ok {
		return s
	}
	s := text.Stem(w)
	(*st)[w] = s
	return s
}

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
