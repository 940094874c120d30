package intake

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// accents are LaTeX's accent commands and the combining marks they put on
// the next letter.
var accents = map[string]rune{
	`"`: '\u0308', `'`: '\u0301', "`": '\u0300', "^": '\u0302', "~": '\u0303', "=": '\u0304', ".": '\u0307',
	"u": '\u0306', "v": '\u030C', "H": '\u030B', "c": '\u0327', "k": '\u0328', "r": '\u030A', "d": '\u0323', "b": '\u0331',
}

// letters are LaTeX's commands for letters and symbols.
var letters = map[string]string{
	"ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å",
	"l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}",
	"textendash": "–", "textemdash": "—", "textquoteright": "’", "textquoteleft": "‘", "ldots": "…", "dots": "…",
	"textregistered": "®", "texttrademark": "™", "copyright": "©", "S": "§", "P": "¶", "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "lambda": "λ", "mu": "μ", "pi": "π", "sigma": "σ",
	" ": " ", ",": " ", ";": " ", "\\": " ", "-": "",
}

// delatex turns a BibTeX value into plain text: accents applied ({\"o},
// \"{o}, {\'e}), letter commands spelled (\ss, \o, \ae), formatting
// commands (\emph{…}, \textbf{…}) reduced to their text, math's $ and
// every brace dropped, ~ a space, -- and --- dashes, spaces collapsed.
func delatex(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case '{', '}', '$':
			continue
		case '~':
			b.WriteRune(' ')
			continue
		case '-':
			if i+2 < len(rs) && rs[i+1] == '-' && rs[i+2] == '-' {
				b.WriteRune('—')
				i += 2
				continue
			}
			if i+1 < len(rs) && rs[i+1] == '-' {
				b.WriteRune('–')
				i++
				continue
			}
		case '\\':
			i = command(rs, i, &b)
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(norm.NFC.String(b.String())), " ")
}

// command writes the text of the LaTeX command at rs[i] (a backslash) and
// returns the index of its last rune.
func command(rs []rune, i int, b *strings.Builder) int {
	if i+1 >= len(rs) {
		return i
	}
	j := i + 1
	var name string
	if unicode.IsLetter(rs[j]) {
		for j < len(rs) && unicode.IsLetter(rs[j]) && rs[j] < 0x80 {
			j++
		}
		name = string(rs[i+1 : j])
	} else {
		name = string(rs[j])
		j++
	}
	if mark, ok := accents[name]; ok && (len(name) == 1 && !unicode.IsLetter([]rune(name)[0]) || j < len(rs) && (rs[j] == '{' || rs[j] == ' ')) {
		// the accented letter: \"o, \"{o}, \c c, \'{\i}
		k := j
		for k < len(rs) && (rs[k] == ' ' || rs[k] == '{') {
			k++
		}
		if k < len(rs) && rs[k] == '\\' && k+1 < len(rs) && (rs[k+1] == 'i' || rs[k+1] == 'j') {
			base := map[rune]rune{'i': 'i', 'j': 'j'}[rs[k+1]]
			b.WriteRune(base)
			b.WriteRune(mark)
			k += 2
		} else if k < len(rs) && unicode.IsLetter(rs[k]) {
			b.WriteRune(rs[k])
			b.WriteRune(mark)
			k++
		} else {
			return j - 1
		}
		for k < len(rs) && rs[k] == '}' {
			k++
			break
		}
		return k - 1
	}
	if s, ok := letters[name]; ok {
		b.WriteString(s)
		// "\ss{}" and "\o " end at their empty group or space
		if j+1 < len(rs) && rs[j] == '{' && rs[j+1] == '}' {
			return j + 1
		}
		if j < len(rs) && rs[j] == ' ' && unicode.IsLetter([]rune(name)[0]) {
			return j
		}
		return j - 1
	}
	// \emph{x}, \textbf{x}, \url{x}, unknown commands: the name goes, the text stays
	return j - 1
}

// bibNames splits a BibTeX name list ("A and B and others") at the "and"s
// outside braces and writes each name "Given Family": "Last, First",
// "Last, Jr., First" and "First von Last" are understood; a braced name
// ({World Health Organization}) is kept whole; "others" is dropped.
func bibNames(s string) []string {
	var parts []string
	depth, start := 0, 0
	low := strings.ToLower(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		}
		if depth == 0 && i > 0 && isSpace(s[i-1]) && strings.HasPrefix(low[i:], "and") && i+3 < len(s) && isSpace(s[i+3]) {
			parts = append(parts, s[start:i])
			start = i + 3
			i += 2
		}
	}
	parts = append(parts, s[start:])
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || strings.EqualFold(p, "others") {
			continue
		}
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") && balanced(p[1:len(p)-1]) {
			out = append(out, delatex(p))
			continue
		}
		commas := splitTop(p, ',')
		switch len(commas) {
		case 1:
			out = append(out, delatex(p))
		case 2:
			out = append(out, delatex(strings.TrimSpace(commas[1])+" "+strings.TrimSpace(commas[0])))
		default:
			out = append(out, delatex(strings.TrimSpace(commas[2])+" "+strings.TrimSpace(commas[0])+", "+strings.TrimSpace(commas[1])))
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func balanced(s string) bool {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			d++
		case '}':
			d--
			if d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// splitTop splits s at sep outside braces.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
