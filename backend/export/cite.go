package export

// Inline citations: each citation an answer writes becomes a live
// agentero:// link named by its paper and page, with a footnote that
// says what checking it found.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/index"
)

// linkify makes each citation the text writes (citation.Find: a Markdown
// link's target, a bracketed, angle-bracketed or bare URI) of a library
// paper a Markdown link to its agentero:// link, named by the paper and
// page ("Ongaro & Ousterhout 2014, p. 6"), followed by a footnote mark
// when a check of checks is the citation's. Other citations stay as the
// text writes them, with their footnote marks.
func (lib Library) linkify(text string, checks []citation.Check, notes *footnotes) string {
	found := citation.Find(text)
	taken := make([]bool, len(checks))
	var b strings.Builder
	at := 0
	for _, c := range found {
		s := lib.source(c.URI)
		link := ""
		if !c.URI.External() {
			link = lib.Link(s)
		}
		start, end := c.Start, c.End
		if link != "" && start > 0 && end < len(text) && text[start-1] == '`' && text[end] == '`' {
			start, end = start-1, end+1 // a path in a code span: the link replaces the span
		}
		b.WriteString(text[at:start])
		at = end
		if link == "" {
			b.WriteString(text[start:end])
		} else {
			fmt.Fprintf(&b, "[%s](%s)", escapeLink(lib.name(s)), link)
		}
		if i := checkOf(checks, taken, c); i >= 0 {
			taken[i] = true
			fmt.Fprintf(&b, "[^%s]", notes.add(lib.note(s, checks[i])))
		}
	}
	b.WriteString(text[at:])
	return b.String()
}

// checkOf is the index of the check of citation c: the first not yet
// taken that names the same file and page, at c's place in the text
// when one does, else anywhere; -1 when none.
func checkOf(checks []citation.Check, taken []bool, c citation.Cited) int {
	same := func(ch citation.Check) bool {
		u, err := citation.Parse(ch.URI)
		return err == nil && u.Key() == c.URI.Key() || ch.URI == c.Raw
	}
	for i, ch := range checks {
		if !taken[i] && ch.Start < c.End && ch.End > c.Start && same(ch) {
			return i
		}
	}
	for i, ch := range checks {
		if !taken[i] && same(ch) {
			return i
		}
	}
	return -1
}

// name is how a citation is named in the text: its paper by author and
// year (or a short title), and its page.
func (lib Library) name(s Source) string {
	n := shortName(s.Paper)
	if l := lib.PageLabel(s); l != "" {
		n += ", p. " + l
	}
	return n
}

// shortName names a paper as a citation in running text does: "Nakamoto
// 2008", "Ongaro & Ousterhout 2014", "Vaswani et al. 2017"; by the start
// of its title when it has no authors.
func shortName(p *index.Paper) string {
	var who string
	switch n := len(p.Authors); {
	case n == 0:
		w := strings.Fields(paperTitle(p))
		if len(w) > 5 {
			w = append(w[:5:5], "…")
		}
		who = strings.Join(w, " ")
	case n == 1:
		who = family(p.Authors[0])
	case n == 2:
		who = family(p.Authors[0]) + " & " + family(p.Authors[1])
	default:
		who = family(p.Authors[0]) + " et al."
	}
	if p.Year > 0 {
		who += " " + strconv.Itoa(p.Year)
	}
	return who
}

func family(name string) string {
	f, _ := splitName(name)
	return f
}

// note says in a few words what checking a citation found, naming pages
// as the reader sees them; a page that holds what another page was cited
// for is a link to it.
func (lib Library) note(s Source, c citation.Check) string {
	page := func(n int) string {
		if n <= 0 {
			return "the paper"
		}
		at := s
		at.Page, at.Label, at.Quote = n, "", ""
		return "p. " + lib.PageLabel(at)
	}
	cited := c.Page
	if cited == 0 {
		cited = max(s.Page, c.FoundPage)
	}
	switch c.Verdict {
	case citation.Verified:
		return "checked: the quote is on " + page(cited)
	case citation.Supported:
		return "checked: " + page(cited) + " has the sentence's words and numbers"
	case citation.Weak:
		return "checked: " + page(cited) + " has only part of the sentence's words"
	case citation.WrongPage:
		found := page(c.FoundPage)
		if s.Paper != nil && c.FoundPage > 0 {
			at := s
			at.Page, at.Label, at.Quote = c.FoundPage, "", ""
			found = "[" + found + "](" + lib.Link(at) + ")"
		}
		return "wrong page: found on " + found
	case citation.Unsupported:
		return "not found: no page of the paper has the sentence's words"
	case citation.Outside:
		return "not checked: the page is outside what the agent was allowed to read"
	case citation.Broken:
		return "broken: the citation does not open"
	}
	return "checked: " + string(c.Verdict)
}

// footnotes numbers the notes of one export, in the order they are
// written, and writes them after the text they belong to.
type footnotes struct {
	n       int
	pending []string
}

// add keeps a note and returns its label.
func (f *footnotes) add(note string) string {
	f.n++
	f.pending = append(f.pending, note)
	return "c" + strconv.Itoa(f.n)
}

// write writes the notes added since the last write.
func (f *footnotes) write(b *strings.Builder) {
	if len(f.pending) == 0 {
		return
	}
	b.WriteString("\n")
	first := f.n - len(f.pending) + 1
	for i, n := range f.pending {
		fmt.Fprintf(b, "[^c%d]: %s\n", first+i, n)
	}
	f.pending = nil
}
