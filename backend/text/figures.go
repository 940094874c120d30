package text

import (
	"regexp"
	"strings"
)

// FigureName is a figure or table that a text names by its label
// ("figure 3", "Fig. 2", "figure A.1", "table II", "tab 4").
type FigureName struct {
	// Label is the label as the index stores it: "Figure 3", "Table II"
	// (a Roman numeral in capitals).
	Label string
	// Start and End are where the text names it, in bytes.
	Start, End int
}

// namedFigure finds "figure 3", "fig. 2", "figure A.1", "table II", "tab 4".
var namedFigure = regexp.MustCompile(`(?i)\b(fig(?:ure)?s?|tab(?:le)?s?)\.?\s*((?:[a-z]\.?)?\d+(?:\.\d+)?|[ivxlc]+\b)`)

// FigureNames returns the figures and tables s names, at most n (n < 0:
// all), in the order it names them.
func FigureNames(s string, n int) []FigureName {
	var out []FigureName
	for _, m := range namedFigure.FindAllStringSubmatchIndex(s, n) {
		kind, num := "Figure", s[m[4]:m[5]]
		if strings.HasPrefix(strings.ToLower(s[m[2]:m[3]]), "tab") {
			kind = "Table"
		}
		if strings.Trim(strings.ToUpper(num), "IVXLC") == "" {
			num = strings.ToUpper(num)
		}
		out = append(out, FigureName{Label: kind + " " + num, Start: m[0], End: m[1]})
	}
	return out
}
