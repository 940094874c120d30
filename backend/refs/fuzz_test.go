package refs

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/ident"
)

// The parsers read whatever text a PDF or a .bib holds: they must not
// panic, and what they return must be well formed.

func FuzzParseEntry(f *testing.F) {
	for _, s := range []string{
		"FISCHER, M. J., LYNCH, N. A., AND PATERSON, M. S. Impossibility\nof distributed consensus. J. ACM 32, 2 (1985).",
		"Zeileis A (2004). “Econometric Computing.” doi:10.2307/\n2951574.",
		"Iz Beltagy, Matthew E. Peters, and Arman Cohan.\n2020. Longformer. arXiv:2004.\n05150.",
		"T. Chandra, S. Toueg, Unreliable failure detectors, J. ACM 43 (2) (1996) 225–267.",
		"doi:10.1145/2815400.28-\n15428", "Driessche, G. v. d., Lespiau, J.-B. Title. 2021.", "", ".", "((((", "“", "A. ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e := parseEntry(entryText{lines: strings.Split(text, "\n")})
		if e.DOI != "" && ident.NormalizeDOI(e.DOI) != e.DOI {
			t.Errorf("DOI %q is not normalised", e.DOI)
		}
		if e.ArxivID != "" && ident.NormalizeArxiv(e.ArxivID) != e.ArxivID {
			t.Errorf("arXiv id %q is not normalised", e.ArxivID)
		}
		if utf8.ValidString(text) && (!utf8.ValidString(e.Title) || !utf8.ValidString(e.Raw)) {
			t.Errorf("invalid UTF-8 out of valid input: %q %q", e.Title, e.Raw)
		}
		if e.Year != 0 && (e.Year < 1900 || e.Year > 2099) {
			t.Errorf("year %d", e.Year)
		}
	})
}

func FuzzExtractEntries(f *testing.F) {
	f.Add("References\n[1] A. B. Title. 2001.\n[2] C. D. Other. 2002.\n[3] E. F. Third. 2003.")
	f.Add("REFERENCES\n1. ATTIYA, A. One. 1984.\n2. BRACHA, G. Two. 1985.\n3. X, Y. Three. 1986.\nA Proofs\nprose prose prose prose prose prose prose prose")
	f.Add("References\nAndrews DWK (1991). “One.” Econometrica.\nBack A. (2002): Two.\n(http://x)\n")
	f.Fuzz(func(t *testing.T, text string) {
		pages := strings.Split(text, "\f")
		es, first, note := extractEntries(pages)
		if (len(es) == 0) != (note != "") || (len(es) > 0 && (first < 1 || first > len(pages))) {
			t.Errorf("%d entries, first page %d, note %q", len(es), first, note)
		}
	})
}

func FuzzParseBib(f *testing.F) {
	f.Add(sampleBib)
	f.Add(`@article{a, title = {Unclosed`)
	f.Add(`@string{x = "y"} @misc(b, title = x, year = 20)`)
	f.Add(`\bibitem{k} A. Author. \newblock Title. \newblock 2001.`)
	f.Fuzz(func(t *testing.T, src string) {
		for _, e := range append(parseBib(src), parseBbl(src)...) {
			if e.DOI != "" && ident.NormalizeDOI(e.DOI) != e.DOI {
				t.Errorf("DOI %q is not normalised", e.DOI)
			}
		}
	})
}
