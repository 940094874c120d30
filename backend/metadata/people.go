package metadata

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/pdf"
)

// Authors a researcher can cite are people. What a PDF's Info field or its
// header lines give as names is checked: organisations ("Association for
// Computational Linguistics"), keyword lines ("Additional Key Words"),
// addresses ("Piazza di Porta S. Donato"), pieces of the title read as
// names, and mojibake are dropped; affiliation letters run into a name
// ("Eddelbuettela") are taken off. Rules for names in general; none names
// a paper.

// notNameWord are words no person's name is made of: an organisation's, a
// keyword or classification line's, a heading's, an address's.
var notNameWord = map[string]bool{
	"association": true, "society": true, "consortium": true, "committee": true, "council": true, "federation": true,
	"alliance": true, "agency": true, "ministry": true, "organization": true, "organisation": true, "linguistics": true,
	"computational": true, "computing": true, "computer": true, "science": true, "sciences": true, "engineering": true,
	"systems": true, "software": true, "network": true, "networks": true, "publishing": true, "publishers": true,
	"words": true, "phrases": true, "terms": true, "additional": true, "categories": true,
	"subject": true, "descriptors": true, "keywords": true, "abstract": true, "introduction": true, "contents": true,
	"piazza": true, "via": true, "viale": true, "strasse": true, "straße": true, "platz": true, "rue": true, "plaza": true,
	"calle": true, "avenida": true, "boulevard": true, "blvd": true, "campus": true,
	"building": true, "floor": true, "suite": true, "room": true, "the": true, "of": true, "for": true,
	"dissertation": true, "thesis": true, "presented": true, "submitted": true, "member": true, "fellow": true, "ieee": true,
	"anonymous": true, "author": true, "authors": true, "affiliation": true, "address": true, "received": true, "revised": true, "accepted": true, "group": true, "technical": true, "report": true,
	"memorandum": true, "memo": true, "draft": true, "preprint": true, "manuscript": true, "paper": true, "talk": true,
	"tutorial": true, "lecture": true, "notes": true, "edition": true, "chapter": true, "appendix": true, "project": true, "initiative": true, "working": true,
}

// mojibake are the marks of text decoded with the wrong encoding ("Ã©" for
// "é", "â€™" for "’") or not at all.
var mojibake = regexp.MustCompile(`Ã|Â|â€|ï¿½|\x{FFFD}|[\x{0080}-\x{009F}]`)

// person reports whether name reads as a person's name: two to six words,
// each a name's (capitalised letters, an initial, a particle), none an
// organisation's, an address's or a heading's, not mojibake, and not made
// only of the title's words (a subtitle read as names).
func person(name, title string) bool {
	if mojibake.MatchString(name) || garbageText(name) {
		return false
	}
	words := strings.Fields(name)
	if len(words) < 2 || len(words) > 6 {
		return false
	}
	for _, w := range words {
		w = strings.Trim(w, ",")
		if notNameWord[strings.ToLower(strings.Trim(w, "."))] || !nameWord(w) {
			return false
		}
	}
	if title != "" {
		in := map[string]bool{}
		for _, w := range foldWords(title) {
			in[w] = true
		}
		all := true
		for _, w := range foldWords(name) {
			if len(w) > 1 && !in[w] {
				all = false
			}
		}
		if all {
			return false
		}
	}
	return true
}

// people keeps the names that read as people's (person), with the
// affiliation letters page 1 sets after them taken off: from every name
// when each ends in one of the letters page 1's affiliation lines start
// with, two letters at least among them ("Dirk Eddelbuettela, Romain
// Françoisb"); else from a name whose family name page 1 also prints
// without the letter (an e-mail address, a running head). A family name
// that ends in such a letter ("Costa") is left alone otherwise.
func people(names []string, title string, lines []pdf.Line, page string) []string {
	letters := affLetters(lines)
	ends := map[rune]bool{}
	all := len(names) >= 2
	for _, n := range names {
		if r, ok := lastRune(n); ok && letters[r] {
			ends[r] = true
		} else {
			all = false
		}
	}
	folded := " " + strings.Join(foldWords(page), " ") + " "
	var out []string
	for _, n := range names {
		if allCaps(n) {
			n = nameCase(n)
		}
		if cut := withoutAffLetter(n, letters); cut != n {
			fam := foldWords(cut)
			if all && len(ends) >= 2 || len(fam) > 0 && strings.Contains(folded, " "+fam[len(fam)-1]+" ") {
				n = cut
			}
		}
		if person(n, title) {
			out = append(out, n)
		}
	}
	return out
}

func lastRune(s string) (rune, bool) {
	r := []rune(strings.TrimSpace(s))
	if len(r) == 0 {
		return 0, false
	}
	return r[len(r)-1], true
}

// affLine is an affiliation that starts with its letter: "a Department
// of …", "bUniversity of …", at a line's start or after a semicolon.
var affLine = regexp.MustCompile(`(?:^|[;•·]\s*)(\p{Ll})\s?\p{Lu}\p{L}`)

// affLetters are the letters page 1's affiliation lines start with, the
// letters set after the authors' names to point at them.
func affLetters(lines []pdf.Line) map[rune]bool {
	out := map[rune]bool{}
	for _, l := range lines {
		// affLine first, and only where it can match: affiliation's
		// many words cost far more to look for in every line.
		if !mayStartAff(l.Text) {
			continue
		}
		// several in one line too: "aDepartment of …; bRocky Mountain …"
		ms := affLine.FindAllStringSubmatch(l.Text, -1)
		if len(ms) == 0 || !affiliation.MatchString(l.Text) {
			continue
		}
		for _, m := range ms {
			out[[]rune(m[1])[0]] = true
		}
	}
	return out
}

// mayStartAff reports whether affLine can match s: s starts with a
// lower-case letter, or holds one of the separators after which an
// affiliation may start.
func mayStartAff(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r) || strings.ContainsAny(s, ";•·")
}

// withoutAffLetter takes the affiliation letters (those in letters) off
// the end of a name's family name: "Dirk Eddelbuettela" → "Dirk
// Eddelbuettel", "Jane Doeab" → "Jane Doe". A family name keeps at least
// three letters.
func withoutAffLetter(name string, letters map[rune]bool) string {
	words := strings.Fields(name)
	if len(words) < 2 || len(letters) == 0 {
		return name
	}
	last := []rune(words[len(words)-1])
	n := len(last)
	for n > 3 && n > len(last)-2 && letters[last[n-1]] && unicode.IsLower(last[n-1]) && unicode.IsLower(last[n-2]) {
		n--
	}
	words[len(words)-1] = string(last[:n])
	return strings.Join(words, " ")
}
