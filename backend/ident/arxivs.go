package ident

import (
	"regexp"
	"strings"
)

// oldArchives are the arXiv archives that named papers before April 2007
// ("quant-ph/9508027", "cs.DC/0101001"). Old-style ids are recognised only
// with one of these names, so that a path such as "papers/1234567" is not
// taken for one.
const oldArchives = `acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|cond-mat|cs|dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|mtrl-th|nlin|nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|quant-ph|solv-int|supr-con`

var (
	// arxivCited matches the ways reference lists write a new-style id:
	// "arXiv:1706.03762v5", "arXiv preprint arXiv:2001.09977", "arXiv
	// 1706.03762", "CoRR, abs/2101.05783", "arxiv.org/abs/2203.12533",
	// "10.48550/arXiv.2112.04426". Whitespace has been folded to one space,
	// so an id broken after its dot ("2304.\n01373") still matches.
	arxivCited = regexp.MustCompile(`(?i)(?:\barxiv(?:\s?preprint)?(?:\s?e-prints?)?[\s:,.]{0,3}(?:arxiv\s?:\s?)?(?:abs/)?|\babs/|arxiv\.org/(?:abs|pdf)/\s?|10\.48550/arxiv\.)(\d{4}\.\s?\d{4,5})(v\d+)?\b`)
	// arxivOld matches an old-style id anywhere, with or without "arXiv:".
	arxivOld = regexp.MustCompile(`(?i)\b((?:` + oldArchives + `)(?:\.[a-z]{2})?/\s?\d{7})(v\d+)?\b`)
)

// FindArxivs returns every distinct arXiv id cited in text, versionless and
// in order of first appearance. A new-style id counts only when the text
// says it is one (an "arXiv" or "abs/" prefix, an arxiv.org link, or the
// arXiv DOI prefix), since bare "1234.56789" may be anything; an old-style
// id counts with its archive name alone. Ids broken across a line after the
// dot are joined.
func FindArxivs(text string) []string {
	low := strings.ToLower(text)
	if !strings.Contains(low, "arxiv") && !strings.Contains(low, "abs/") && !strings.Contains(low, "10.48550") &&
		!strings.Contains(low, "/") {
		return nil
	}
	flat := strings.Join(strings.Fields(text), " ")
	type hit struct {
		at int
		id string
	}
	var hits []hit
	for _, m := range arxivCited.FindAllStringSubmatchIndex(flat, -1) {
		id := strings.ReplaceAll(flat[m[2]:m[3]], " ", "")
		if validNewArxiv(id) {
			hits = append(hits, hit{m[0], id})
		}
	}
	for _, m := range arxivOld.FindAllStringSubmatchIndex(flat, -1) {
		if id := NormalizeArxiv(strings.ReplaceAll(flat[m[2]:m[3]], " ", "")); id != "" {
			hits = append(hits, hit{m[0], id})
		}
	}
	// Order by position: the two patterns were searched separately.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.id] {
			seen[h.id] = true
			out = append(out, h.id)
		}
	}
	return out
}

// validNewArxiv reports whether id (yymm.nnnn or yymm.nnnnn) names a month
// arXiv has issued ids for: four-digit numbers from 0704 to 1412, five-digit
// numbers from 1501 on.
func validNewArxiv(id string) bool {
	m := newArxiv.FindStringSubmatch(id)
	if m == nil {
		return false
	}
	yymm := id[:4]
	mm := int(yymm[2]-'0')*10 + int(yymm[3]-'0')
	if mm < 1 || mm > 12 {
		return false
	}
	if len(m[1]) == 9 { // yymm.nnnn
		return yymm >= "0704" && yymm <= "1412"
	}
	return yymm >= "1501"
}
