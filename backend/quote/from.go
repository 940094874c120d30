package quote

import "strings"

// FindFrom is Find for the part of page number that starts at rune from of
// its text: the first match that starts there or later (running onto the
// next page when it goes over). Spans are offsets into the page's whole
// text, as Find's are.
func (p *Paper) FindFrom(number, from int, q string) (Match, bool) {
	if from <= 0 {
		return p.Find(number, q)
	}
	i := p.index(number)
	if i < 0 {
		return Match{}, false
	}
	r := []rune(p.pages[i].Text)
	if from >= len(r) {
		return Match{}, false
	}
	// The runes before from are blanked, line breaks kept: the offsets and
	// the lines of the rest stay as they are.
	var b strings.Builder
	for _, c := range r[:from] {
		if c == '\n' {
			b.WriteRune(c)
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(string(r[from:]))
	pages := []Page{{Number: number, Text: b.String()}}
	if i+1 < len(p.pages) {
		pages = append(pages, p.pages[i+1])
	}
	return NewPaper(pages).Find(number, q)
}
