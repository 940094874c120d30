package refs

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/ident"
)

var doiStart = regexp.MustCompile(`(?i)\b10\.\d{4,9}/`)

// maxDOIJoins bounds how many line breaks one DOI is followed across.
const maxDOIJoins = 2

// findDOIs returns the DOIs written in text, normalised, as two lists: the
// best reading of each, and every reading worth trying for a match. A DOI
// that a line break (or a space after its slash, "10.1145/ 2815400")
// splits is joined: surely when the break follows a "/", or a "." "-" "_"
// (or a ")" before a piece with punctuation inside, "(02)\n00366-3") before
// a piece that starts in lower case or a digit and holds a digit or
// punctuation ("10.18637/jss.\nv016.i09"); as a second reading only when
// the break follows a letter or digit, since the next line may as well be
// the year. A break after a hyphen is read with and without it.
func findDOIs(text string) (best, readings []string) {
	seen := map[string]bool{}
	addReading := func(d string) {
		if d = ident.NormalizeDOI(d); d != "" && !seen[d] {
			seen[d] = true
			readings = append(readings, d)
		}
	}
	bestSeen := map[string]bool{}
	for _, loc := range doiStart.FindAllStringIndex(text, -1) {
		cur, rest := takeDOIRun(text[loc[0]:])
		var alts []string
		for j := 0; j < maxDOIJoins && rest != ""; j++ {
			ws := len(rest) - len(strings.TrimLeftFunc(rest, unicode.IsSpace))
			if ws == 0 {
				break
			}
			gap := rest[:ws]
			next, after := takeDOIRun(rest[ws:])
			if next == "" || !doiPiece(next) {
				break
			}
			last := cur[len(cur)-1]
			newline := strings.Contains(gap, "\n")
			lowerStart := next[0] >= 'a' && next[0] <= 'z' || next[0] >= '0' && next[0] <= '9' || next[0] == '('
			switch {
			case last == '/':
				cur += next
			case newline && lowerStart && (last == '.' || last == '_' || last == '-' || last == ')' && structured(next)):
				if last == '-' {
					alts = append(alts, cur[:len(cur)-1]+next)
				}
				cur += next
			case newline && lowerStart:
				alts = append(alts, cur+next)
				rest = ""
				continue
			default:
				rest = ""
				continue
			}
			rest = after
		}
		if d := ident.NormalizeDOI(cur); d != "" && !bestSeen[d] {
			bestSeen[d] = true
			best = append(best, d)
		}
		addReading(cur)
		for _, a := range alts {
			addReading(a)
		}
	}
	return best, readings
}

// takeDOIRun splits s after its leading run of characters a DOI may hold.
func takeDOIRun(s string) (run, rest string) {
	i := strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"<>{}`“”", r)
	})
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// structured reports whether a piece holds punctuation inside it
// ("00366-3."), as DOI suffixes do and years ("2015.") do not.
func structured(s string) bool {
	core := strings.TrimRight(s, ".,;:")
	return strings.ContainsAny(core, "-._/()")
}

// doiPiece reports whether s can continue a DOI: it holds a digit, or
// punctuation inside it, rather than being a word ("In", "pages").
func doiPiece(s string) bool {
	if strings.HasPrefix(strings.ToLower(s), "http") || strings.HasPrefix(strings.ToLower(s), "url") {
		return false
	}
	core := strings.TrimRight(s, ".,;:")
	for i, r := range core {
		if unicode.IsDigit(r) || (i > 0 && strings.ContainsRune("./-_()", r)) {
			return true
		}
	}
	return false
}

var urlPattern = regexp.MustCompile(`https?://[^\s"<>{}“”]+`)

// findURL returns the first http(s) link in text that is not a DOI or
// arXiv link (those are kept as identifiers), or "".
func findURL(text string) string {
	for _, u := range urlPattern.FindAllString(text, -1) {
		u = strings.TrimRight(u, ".,;:)")
		low := strings.ToLower(u)
		if strings.Contains(low, "doi.org/") || strings.Contains(low, "arxiv.org/") {
			continue
		}
		return u
	}
	return ""
}

// identifiers returns the "doi:…" and "arxiv:…" keys a citation can be
// matched by: every DOI reading, every arXiv id, and the arXiv id behind an
// arXiv DOI.
func identifiers(doiReadings, arxivs []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, d := range doiReadings {
		add("doi:" + d)
		if a := ident.ArxivFromDOI(d); a != "" {
			add("arxiv:" + a)
		}
	}
	for _, a := range arxivs {
		add("arxiv:" + a)
	}
	return out
}
