package refs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/text"
)

// Ways a citation is matched to a library paper (SPEC §5 localMatch.matchBy).
const (
	ByDOI   = "doi"
	ByArxiv = "arxiv"
	ByTitle = "title"
)

// Guards on title matching: a title is looked for as a run inside entries
// only when it has at least minRunWords words and minRunLetters letters;
// shorter titles (at least minExactLetters letters) match only an entry
// whose parsed title is exactly theirs. Longer than maxTitleLetters, a
// "title" is text the title finder swallowed, and is not used.
const (
	minRunWords     = 3
	minRunLetters   = 14
	minExactLetters = 8
	maxTitleLetters = 250
	maxYearGap      = 6
	prefixLen       = 8
)

// genericTitles are what a broken title finder returns instead of a title.
var genericTitles = map[string]bool{
	"abstract": true, "introduction": true, "contents": true, "tableofcontents": true, "preface": true,
	"untitled": true, "references": true, "appendix": true, "bibliography": true, "index": true,
	"supplementarymaterial": true, "technicalreport": true, "researcharticle": true, "articleinfo": true,
}

// libPaper is a library paper as the matcher sees it.
type libPaper struct {
	ref     string
	title   string
	year    int
	doi     string
	arxiv   string
	letters string // the folded title
	run     bool   // long enough to be found as a run inside an entry
	exact   bool   // usable for an exact title match
}

// library indexes the papers of a vault for matching.
type library struct {
	byRef    map[string]*libPaper
	byDOI    map[string]*libPaper
	byArxiv  map[string]*libPaper
	byPrefix map[string][]*libPaper // first prefixLen letters of run titles
	byTitle  map[string][]*libPaper // whole folded titles
	key      string                 // changes whenever a match could change
}

func newLibrary(papers []index.RefInput) *library {
	lib := &library{byRef: map[string]*libPaper{}, byDOI: map[string]*libPaper{}, byArxiv: map[string]*libPaper{},
		byPrefix: map[string][]*libPaper{}, byTitle: map[string][]*libPaper{}}
	h := sha256.New()
	fmt.Fprintf(h, "refs-library %d\n", parserVersion)
	for _, p := range papers {
		lp := &libPaper{ref: p.Ref, title: p.Title, year: p.Year, doi: p.DOI, arxiv: p.ArxivID, letters: letters(p.Title)}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%s\n", p.Ref, lp.letters, p.Year, p.DOI, p.ArxivID)
		lib.byRef[p.Ref] = lp
		if p.DOI != "" {
			lib.byDOI[p.DOI] = lp
		}
		if p.ArxivID != "" {
			lib.byArxiv[p.ArxivID] = lp
		}
		n := utf8.RuneCountInString(lp.letters)
		if genericTitles[lp.letters] || n > maxTitleLetters {
			continue
		}
		words := len(text.Split(p.Title))
		lp.run = words >= minRunWords && n >= minRunLetters
		lp.exact = n >= minExactLetters
		if lp.run {
			k := string([]rune(lp.letters)[:prefixLen])
			lib.byPrefix[k] = append(lib.byPrefix[k], lp)
		}
		if lp.exact {
			lib.byTitle[lp.letters] = append(lib.byTitle[lp.letters], lp)
		}
	}
	lib.key = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return lib
}

// citeMatch is the library paper a citation is.
type citeMatch struct {
	ref, by string
}

// match matches cs, self's reference list, to library papers and sets
// each citation's MatchRef, MatchBy and WorkKey. given holds a foreign
// sidecar's own matches, by position (or is nil): one is kept where ours
// finds none.
func (lib *library) match(self string, cs []Citation, given []citeMatch) {
	ms := lib.matchEntries(self, cs)
	for i := range cs {
		m := ms[i]
		if m.ref == "" && i < len(given) && given[i].ref != "" && given[i].ref != self {
			m = given[i]
		}
		cs[i].MatchRef, cs[i].MatchBy = m.ref, m.by
		cs[i].WorkKey = workKey(cs[i])
	}
}

// matchEntries matches the entries of self's reference list to library
// papers: by DOI, then arXiv id, then a title found whole in the entry. A
// paper never matches itself, nor a paper of the same title or identifier
// (a duplicate copy of it).
func (lib *library) matchEntries(self string, entries []Citation) []citeMatch {
	out := make([]citeMatch, len(entries))
	me := lib.byRef[self]
	allowed := func(p *libPaper) bool {
		if p == nil || p.ref == self {
			return false
		}
		if me != nil && (p.letters != "" && p.letters == me.letters ||
			p.doi != "" && p.doi == me.doi || p.arxiv != "" && p.arxiv == me.arxiv) {
			return false
		}
		return true
	}
	for i, e := range entries {
		for _, id := range e.IDs {
			var p *libPaper
			by := ""
			switch {
			case strings.HasPrefix(id, "doi:"):
				p, by = lib.byDOI[id[4:]], ByDOI
			case strings.HasPrefix(id, "arxiv:"):
				p, by = lib.byArxiv[id[6:]], ByArxiv
			}
			if allowed(p) {
				out[i] = citeMatch{p.ref, by}
				break
			}
		}
	}
	// Titles are looked for over the whole list at once, so that a title
	// that a wrong split cut in two is still found whole.
	var text strings.Builder
	starts := make([]int, len(entries))
	for i, e := range entries {
		starts[i] = text.Len()
		text.WriteString(e.Raw)
		text.WriteString("\n")
	}
	found := lib.titleRuns(text.String(), starts, entries, allowed)
	for i := range entries {
		if out[i].ref != "" {
			continue
		}
		if p := found[i]; p != nil {
			out[i] = citeMatch{p.ref, ByTitle}
			continue
		}
		t := letters(entries[i].Title)
		for _, p := range lib.byTitle[t] {
			if allowed(p) && yearsAgree(entries[i].Year, p.year) {
				out[i] = citeMatch{p.ref, ByTitle}
				break
			}
		}
	}
	return out
}

// titleRuns finds library titles written whole in text (the entries, one
// after the other, entry i starting at starts[i]) and returns, per entry,
// the longest title that starts in it. A run counts only at word
// boundaries, after the start of an entry or punctuation, and before its
// end or punctuation (not ":", which would make "Paxos made simple" the
// start of another title "Paxos made simple: …").
func (lib *library) titleRuns(text string, starts []int, entries []Citation, allowed func(*libPaper) bool) map[int]*libPaper {
	f := fold(text)
	found := map[int]*libPaper{}
	entryOf := func(off int) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	}
	for i := 0; i+prefixLen <= len(f.s); i++ {
		if !f.start[i] {
			continue
		}
		cands := lib.byPrefix[string(f.s[i:i+prefixLen])]
		if len(cands) == 0 {
			continue
		}
		for _, p := range cands {
			t := []rune(p.letters)
			end := i + len(t)
			if end > len(f.s) || !f.end[end-1] || string(f.s[i:end]) != p.letters || !allowed(p) {
				continue
			}
			from := f.at[i]
			_, size := utf8.DecodeRuneInString(text[f.at[end-1]:])
			to := f.at[end-1] + size
			k := entryOf(from)
			if k < 0 || !yearsAgree(entries[k].Year, p.year) {
				continue
			}
			if !openingOK(text[starts[k]:from]) || !closingOK(text[to:]) {
				continue
			}
			if cur := found[k]; cur == nil || len(cur.letters) < len(p.letters) {
				found[k] = p
			}
		}
	}
	return found
}

// openingOK reports whether a title may start after before (the entry's
// text up to it): at the entry's start, or after punctuation.
func openingOK(before string) bool {
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	if before == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune(".,;:\"“”'‘’()[]«»—–", r)
}

// closingOK reports whether a title may end before after: at the end of
// the list, before punctuation other than ":", or before "In".
func closingOK(after string) bool {
	after = strings.TrimLeftFunc(after, unicode.IsSpace)
	if after == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(after)
	if strings.ContainsRune(".,;?!\"“”'’)(]»", r) {
		return true
	}
	return strings.HasPrefix(after, "In ") || strings.HasPrefix(after, "in ")
}

func yearsAgree(a, b int) bool {
	return a == 0 || b == 0 || a-b <= maxYearGap && b-a <= maxYearGap
}

// workKey names the work a citation is, the same in every list that cites
// it: the library paper it is matched to, else its DOI or arXiv id, else
// its title when that is long enough to be distinctive.
func workKey(e Citation) string {
	switch {
	case e.MatchRef != "":
		return "paper:" + e.MatchRef
	case e.DOI != "":
		if a := e.ArxivID; a != "" && strings.HasPrefix(e.DOI, "10.48550/") {
			return "arxiv:" + a
		}
		return "doi:" + e.DOI
	case e.ArxivID != "":
		return "arxiv:" + e.ArxivID
	}
	t := letters(e.Title)
	if len(text.Split(e.Title)) >= 4 && len(t) >= 20 && !genericTitles[t] {
		if len(t) > 120 {
			t = t[:120]
		}
		return "title:" + t
	}
	return ""
}
