package refs

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/ident"
)

// parseEntry reads the fields of one printed entry. Its ID is its printed
// label, if any.
func parseEntry(e entryText) Citation {
	text := strings.Join(e.lines, "\n")
	out := Citation{ID: e.label, Raw: joinLines(e.lines)}
	best, readings := findDOIs(text)
	arxivs := ident.FindArxivs(text)
	if len(best) > 0 {
		out.DOI = best[0]
	}
	if len(arxivs) > 0 {
		out.ArxivID = arxivs[0]
	} else if out.DOI != "" {
		out.ArxivID = ident.ArxivFromDOI(out.DOI)
	}
	out.URL = findURL(out.Raw)
	out.IDs = identifiers(readings, arxivs)
	readFields(&out)
	out.Display = display(e.label, out.Authors, out.Year)
	return out
}

// joinLines joins an entry's lines with spaces, except after a hyphen
// between letters or a "/" or "https:", which continue the word or link.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i > 0 && b.Len() > 0 {
			prev := b.String()
			switch {
			case strings.HasSuffix(prev, "-") && len(prev) > 1 && isLetterByte(prev[len(prev)-2]) && l != "" && isLetterByte(l[0]):
			case strings.HasSuffix(prev, "/") || strings.HasSuffix(prev, "https:") || strings.HasSuffix(prev, "http:"):
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var (
	quoted      = regexp.MustCompile(`[“"‘]([^”"’]{8,400}?)[,.]?[”"’]`)
	parenYear   = regexp.MustCompile(`\(((?:19|20)\d\d)[a-z]?\)`)
	aclYear     = regexp.MustCompile(`\.\s+((?:19|20)\d\d)[a-z]?\.\s+`)
	anyYear     = regexp.MustCompile(`(?:^|[^\d/.\-])((?:19|20)\d\d)[a-z]?(?:[^\d/\-]|$)`)
	idLike      = regexp.MustCompile(`(?i)(?:https?://\S+|doi:\s*\S+|\b10\.\d{4,9}/\S+|arxiv:\s*\S+|abs/\S+)`)
	venuePrefix = regexp.MustCompile(`^(?i:in:?\s+|in\s+proc\.?\s+)`)
	initials    = regexp.MustCompile(`^(?:\p{Lu}\.?[\s\-]?){1,4}$`)
	// colonAuthors ends an author list with an initial or "et al." and a
	// colon: "Van Renesse, R., Schneider, F.: Chain replication …".
	colonAuthors = regexp.MustCompile(`^.{2,400}?(?:\b\p{Lu}\.?|\bal\.)(:)\s+`)
)

// readFields fills title, authors, year and venue from e.Raw, trying the
// styles in turn: quoted titles (IEEE, JSS), "Authors (Year). Title."
// (APA, JSS), "Authors. Year. Title." (ACL), "Authors, A.: Title." (LNCS),
// "I. Name, I. Name, Title, Venue" (Elsevier), and "Authors. Title. Venue,
// year." (ACM and most others).
func readFields(e *Citation) {
	raw := e.Raw
	plain := idLike.ReplaceAllString(raw, " ")
	if m := parenYear.FindStringSubmatch(plain); m != nil {
		e.Year, _ = strconv.Atoi(m[1])
	}
	var authorPart, rest string
	titleFrom := func(after string) {
		ss := sentences(strings.TrimLeft(after, ".:, "))
		if len(ss) > 0 {
			e.Title = cleanTitle(ss[0])
			rest = strings.Join(ss[1:], " ")
		}
	}
	if m := quoted.FindStringSubmatchIndex(raw); m != nil && len(strings.Fields(raw[m[2]:m[3]])) >= 2 {
		// "Title," in quotes (IEEE, JSS).
		e.Title = cleanTitle(raw[m[2]:m[3]])
		authorPart = raw[:m[0]]
		rest = raw[m[1]:]
	} else if m := parenYear.FindStringIndex(raw); m != nil && m[0] > 0 && m[0] < 400 && onlyAuthors(raw[:m[0]]) {
		// "Authors (Year). Title." (APA, JSS).
		authorPart = raw[:m[0]]
		titleFrom(raw[m[1]:])
	} else if m := aclYear.FindStringSubmatchIndex(raw); m != nil && m[0] < 400 && onlyAuthors(raw[:m[0]]) {
		// "Authors. Year. Title." (ACL).
		authorPart = raw[:m[0]]
		e.Year, _ = strconv.Atoi(raw[m[2]:m[3]])
		titleFrom(raw[m[1]:])
	} else if m := colonAuthors.FindStringSubmatchIndex(raw); m != nil && looksLikeAuthors(raw[:m[2]]) {
		// "Authors, A.: Title." (LNCS).
		authorPart = raw[:m[2]]
		titleFrom(raw[m[1]:])
	} else if authors, title, after, ok := commaStyle(raw); ok {
		// "T. Chandra, S. Toueg, Unreliable failure detectors …, J. ACM …"
		// (Elsevier and others): names and title separated by commas.
		authorPart, e.Title, rest = authors, cleanTitle(title), after
	} else {
		ss := sentences(raw)
		i := 0
		if len(ss) > 1 && looksLikeAuthors(ss[0]) {
			authorPart = ss[0]
			i = 1
		}
		for i < len(ss) && yearOnly(ss[i]) {
			i++
		}
		if i < len(ss) {
			e.Title = cleanTitle(ss[i])
			rest = strings.Join(ss[i+1:], " ")
		}
	}
	e.Authors = splitAuthors(authorPart)
	if e.Year == 0 {
		for _, m := range anyYear.FindAllStringSubmatch(plain, -1) {
			e.Year, _ = strconv.Atoi(m[1])
		}
	}
	if v := venueOf(rest); v != "" {
		e.Venue = v
	}
}

var (
	initialName = regexp.MustCompile(`^(?:\p{Lu}\.\s?-?){1,3}\s?(?:(?:van|von|de|der|den|del|da|di|la|le)\s+)*\p{Lu}[\p{L}'’\-]+(?:\s\p{Lu}[\p{L}'’\-]+)?$`)
	nextName    = regexp.MustCompile(`^(?:and\s+|&\s+)?(?:(?:\p{Lu}\.\s?-?){1,3}\s?\p{Lu}|et al)`)
	titleStop   = regexp.MustCompile(`(?:,\s+(?:\p{Lu}|in\s|to appear|(?i:arxiv|doi|https?:|pp\.|vol\.)|\d)|\.\s+\p{Lu})`)
)

// commaStyle reads "I. Surname, I. Surname and I. Surname, Title, Venue":
// the leading comma-separated initial-first names, then the title up to the
// next comma before a capital or "in", or the end of the sentence.
func commaStyle(raw string) (authors, title, rest string, ok bool) {
	pos := 0
	names := 0
	for pos < len(raw) {
		next := strings.Index(raw[pos:], ", ")
		if next < 0 {
			return "", "", "", false
		}
		item := raw[pos : pos+next]
		parts := andSep.Split(strings.TrimPrefix(item, "and "), -1)
		all := true
		for _, p := range parts {
			if !initialName.MatchString(strings.TrimSpace(p)) {
				all = false
				break
			}
		}
		if !all {
			// "…, and I. Polosukhin. Attention is all you need.": the names
			// end with a full stop, not a comma — another style.
			if nextName.MatchString(item) {
				return "", "", "", false
			}
			break
		}
		names += len(parts)
		pos += next + 2
	}
	if names == 0 || pos >= len(raw) {
		return "", "", "", false
	}
	authors = strings.TrimSuffix(strings.TrimSpace(raw[:pos]), ",")
	tail := raw[pos:]
	end := len(tail)
	if m := titleStop.FindStringIndex(tail); m != nil {
		end = m[0]
	}
	return authors, tail[:end], strings.TrimLeft(tail[end:], ",. "), true
}

// cleanTitle trims the punctuation and spaces around a title.
func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, ` .,;:“”"‘’'`)
	if len(s) > 400 {
		s = s[:400]
	}
	return s
}

func yearOnly(s string) bool {
	s = strings.Trim(strings.TrimSpace(s), ".()")
	return len(s) <= 5 && anyYear.MatchString(s)
}

// onlyAuthors reports whether s is a list of names and nothing else: one
// sentence that looks like names.
func onlyAuthors(s string) bool {
	return looksLikeAuthors(s) && len(sentences(s)) == 1
}

// looksLikeAuthors reports whether a sentence is a list of names: short
// words, mostly capitalised, commas or "and", no long lower-case run.
func looksLikeAuthors(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 120 {
		return false
	}
	lower := 0
	for _, w := range words {
		w = strings.Trim(w, ",.;")
		switch strings.ToLower(w) {
		case "and", "et", "al", "&", "van", "von", "de", "der", "den", "del", "da", "di", "la", "le", "jr", "others":
			continue
		}
		if r := []rune(w); len(r) > 0 && unicode.IsLower(r[0]) {
			lower++
		}
	}
	return lower*4 <= len(words)
}

// sentences splits s after ". ", "? " and "! ", but not after an initial
// ("M. J. Fischer") unless a title plainly starts there ("Paterson, M. S.
// Impossibility of …": a capitalised word followed by a lower-case one).
func sentences(s string) []string {
	var out []string
	startAt := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		if i+1 < len(s) && s[i+1] != ' ' {
			continue
		}
		if c == '.' && !sentenceEnd(s, i) {
			continue
		}
		if part := strings.TrimSpace(s[startAt : i+1]); part != "" {
			out = append(out, part)
		}
		startAt = i + 1
	}
	if part := strings.TrimSpace(s[startAt:]); part != "" {
		out = append(out, part)
	}
	return out
}

// sentenceEnd decides whether the "." at i ends a sentence.
func sentenceEnd(s string, i int) bool {
	j := strings.LastIndexAny(s[:i], " ,(") + 1
	tok := s[j:i]
	initial := tok != "" && initials.MatchString(strings.ReplaceAll(tok, ".", ". ")) &&
		(strings.Contains(tok, ".") || len(strings.Trim(tok, "-")) <= 2) ||
		len(tok) == 1 && unicode.IsLower(rune(tok[0])) // "Driessche, G. v. d."
	if !initial {
		switch strings.ToLower(tok) {
		case "e.g", "i.e", "vs", "no", "vol", "pp", "eds", "ed", "proc", "conf", "trans", "univ", "dept", "jr", "st", "inc", "ltd", "tech", "rep", "int", "intl", "j", "comput", "syst":
			return false
		}
		return true
	}
	// An initial: a sentence ends only if a title starts next — a
	// capitalised word that is not a particle of a name, followed by a word
	// that does not continue a name (a comma, "and", another initial).
	next := strings.Fields(s[i+1:])
	if len(next) == 0 {
		return true
	}
	if invertedName(s[:j]) {
		// "Wallach, H. Measurement and fairness": the name is complete,
		// and only "and" or another name's initial would continue the list.
		w := strings.ToLower(next[0])
		if len(next[0]) == 2 && next[0][1] == '.' && next[0][0] >= 'a' && next[0][0] <= 'z' {
			return false // "Driessche, G. v. d.": a particle follows
		}
		if w == "a" && len(next) > 1 && unicode.IsLower([]rune(next[1])[0]) {
			return true // "Allen, J. A corpus and cloze evaluation …"
		}
		return w != "and" && w != "&" && w != "et" && !initials.MatchString(strings.TrimRight(next[0], ".,")) &&
			!strings.HasSuffix(next[0], ",")
	}
	if len(next) < 2 {
		return false
	}
	w0, w1 := next[0], next[1]
	r0, r1 := []rune(w0), []rune(w1)
	if !unicode.IsUpper(r0[0]) || strings.HasSuffix(w0, ",") || strings.HasSuffix(w0, ".") || nameParticles[strings.ToLower(w0)] {
		return false
	}
	if len(r0) <= 2 && !unicode.IsLower(r0[len(r0)-1]) && !strings.EqualFold(w0, "a") {
		return false // another initial
	}
	if len(r0) <= 2 || unicode.IsLower(r1[0]) {
		return unicode.IsLower(r1[0]) && !strings.EqualFold(w1, "and") && !strings.EqualFold(w1, "et")
	}
	return !strings.HasSuffix(w1, ",") && !strings.EqualFold(w1, "and") && w1 != "&" && !strings.EqualFold(w1, "et") &&
		!initials.MatchString(strings.TrimRight(w1, ".,"))
}

// invertedName reports whether before (the text up to an initial) ends
// with "Surname," and initials: the initial closes an inverted name.
func invertedName(before string) bool {
	words := strings.Fields(before)
	for k := len(words) - 1; k >= 0; k-- {
		w := words[k]
		if initials.MatchString(strings.ReplaceAll(strings.TrimRight(w, ","), ".", ". ")) && !strings.HasSuffix(w, ",") {
			continue
		}
		r := []rune(w)
		if k > 0 && initials.MatchString(strings.ReplaceAll(words[k-1], ".", ". ")) && strings.HasSuffix(words[k-1], ".") {
			return false // "M. Everingham, L. Van Gool": initials come first in this list
		}
		return strings.HasSuffix(w, ",") && len(r) > 2 && unicode.IsUpper(r[0]) && !initials.MatchString(strings.ReplaceAll(strings.TrimRight(w, ","), ".", ". "))
	}
	return false
}

var nameParticles = map[string]bool{"van": true, "von": true, "de": true, "der": true, "den": true, "del": true,
	"da": true, "di": true, "la": true, "le": true, "mc": true, "mac": true, "st.": true, "dos": true, "du": true}

var (
	endsWithInitial = regexp.MustCompile(`\b\p{Lu}\.$`)
	authorYear      = regexp.MustCompile(`[,.]?\s*\(?(?:19|20)\d\d[a-z]?\)?[.:]?\s*$`)
	etAl            = regexp.MustCompile(`(?i),?\s+et\s+al\.?$`)
	nameSep         = regexp.MustCompile(`(?i)(?:,\s*and\s+|\s+and\s+|\s*&\s*|;\s*)`)
	venueTail       = regexp.MustCompile(`(?i),?\s+(?:pp\.|pages|vol\.|volume)\s`)
)

// splitAuthors splits an author list into names: "and", "&", ";" and
// commas separate names, but "Fischer, M. J." is one name.
func splitAuthors(s string) []string {
	s = strings.TrimRight(authorYear.ReplaceAllString(strings.TrimSpace(s), ""), " ,:")
	if strings.HasSuffix(s, ".") && !endsWithInitial.MatchString(s) {
		s = strings.TrimSuffix(s, ".")
	}
	if s == "" {
		return []string{}
	}
	s = etAl.ReplaceAllString(s, "")
	s = nameSep.ReplaceAllString(s, ", ")
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if len(out) > 0 && initials.MatchString(p) && !strings.Contains(out[len(out)-1], ",") {
			out[len(out)-1] += ", " + p
			continue
		}
		out = append(out, p)
		if len(out) >= 60 {
			break
		}
	}
	if out == nil {
		return []string{}
	}
	return out
}

// venueOf is what follows the title, without "In", identifiers, links,
// page ranges and the trailing date.
func venueOf(rest string) string {
	v := rest
	if m := venueEnd.FindStringIndex(v); m != nil {
		v = v[:m[0]]
	}
	v = idLike.ReplaceAllString(v, "")
	if i := venueTail.FindStringIndex(v); i != nil {
		v = v[:i[0]]
	}
	v = strings.Join(strings.Fields(v), " ")
	for {
		before := v
		v = strings.Trim(v, " .,;:")
		v = venuePrefix.ReplaceAllString(v, "")
		v = trailingDate.ReplaceAllString(v, "")
		v = strings.ReplaceAll(v, ", ,", ",")
		if v == before {
			break
		}
	}
	if yearOnly(v) || len(v) < 3 {
		return ""
	}
	if len(v) > 200 {
		v = v[:200]
	}
	return v
}

var (
	venueEnd     = regexp.MustCompile(`(?i)(?:\.\s+|\s)(?:url|doi|isbn|issn|available|accessed|retrieved)\b|\s+https?:`)
	trailingDate = regexp.MustCompile(`(?i)[,.]?\s*\(?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+)?(?:19|20)\d\d[a-z]?\)?$`)
)

// surname guesses the family name of an author as printed.
func surname(a string) string {
	if i := strings.Index(a, ","); i > 0 {
		return strings.TrimSpace(a[:i])
	}
	words := strings.Fields(a)
	if len(words) == 0 {
		return ""
	}
	last := words[len(words)-1]
	if len(words) > 1 && len(last) <= 4 && strings.ToUpper(last) == last {
		return words[0] // "Andrews DWK"
	}
	return strings.Trim(last, ".")
}

// display is how an entry is named in a list: its printed label, else
// "Surname et al. Year".
func display(label string, authors []string, year int) string {
	if label != "" {
		return "[" + label + "]"
	}
	var b strings.Builder
	if len(authors) > 0 {
		b.WriteString(surname(authors[0]))
		if len(authors) == 2 {
			b.WriteString(" and " + surname(authors[1]))
		} else if len(authors) > 2 {
			b.WriteString(" et al.")
		}
	}
	if year > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(year))
	}
	return b.String()
}
