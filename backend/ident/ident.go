// Package ident normalises and finds the identifiers that name a paper across
// sources: DOIs and arXiv ids. SPEC §1: DOIs are lower-cased without any
// resolver prefix; arXiv ids lose their version; 10.48550/arxiv.<id> is the
// same paper as arXiv <id>.
package ident

import (
	"regexp"
	"strings"
)

var (
	doiPrefixes = []string{
		"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/",
		"doi.org/", "dx.doi.org/", "doi:", "doi ",
	}
	// doiPattern follows Crossref's advice for modern DOIs, widened to the
	// characters real reference lists carry (parentheses, semicolons).
	doiPattern = regexp.MustCompile(`(?i)\b10\.\d{4,9}/[^\s"<>{}\x60]+`)

	newArxiv = regexp.MustCompile(`^(\d{4}\.\d{4,5})(v\d+)?$`)
	oldArxiv = regexp.MustCompile(`^([a-z][a-z\-]*(?:\.[a-z]{2})?/\d{7})(v\d+)?$`)

	// arxivStamp matches the identifier arXiv prints in the margin of page 1
	// ("arXiv:1706.03762v7 [cs.CL] 2 Aug 2023") and arXiv ids written as
	// "arXiv:" references.
	arxivStamp = regexp.MustCompile(`(?i)\barxiv\s*:\s*((?:\d{4}\.\d{4,5})|(?:[a-z][a-z\-]*(?:\.[a-z]{2})?/\d{7}))(v\d+)?`)
)

// NormalizeDOI returns doi lower-cased, without resolver prefixes and
// trailing punctuation, or "" when it is not a DOI. A DOI in the arXiv
// namespace stays a DOI; use ArxivFromDOI to alias it.
func NormalizeDOI(doi string) string {
	s := strings.TrimSpace(doi)
	lower := strings.ToLower(s)
	for _, p := range doiPrefixes {
		if strings.HasPrefix(lower, p) {
			lower = strings.TrimSpace(lower[len(p):])
			break
		}
	}
	lower = trimDOITail(lower)
	if !strings.HasPrefix(lower, "10.") || !strings.Contains(lower, "/") {
		return ""
	}
	slash := strings.IndexByte(lower, '/')
	if slash == len(lower)-1 {
		return ""
	}
	return lower
}

// trimDOITail drops punctuation a sentence or reference list adds after a
// DOI, keeping a closing parenthesis that balances one inside the DOI.
func trimDOITail(s string) string {
	for s != "" {
		last := s[len(s)-1]
		switch last {
		case '.', ',', ';', ':', '\'', ']':
			s = s[:len(s)-1]
			continue
		case ')':
			if strings.Count(s, "(") < strings.Count(s, ")") {
				s = s[:len(s)-1]
				continue
			}
		}
		return s
	}
	return s
}

// FindDOI returns the first DOI written in text, normalised, or "".
func FindDOI(text string) string {
	for _, m := range doiPattern.FindAllString(text, -1) {
		if d := NormalizeDOI(m); d != "" {
			return d
		}
	}
	return ""
}

// FindDOIs returns every distinct DOI written in text, normalised, in order.
func FindDOIs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range doiPattern.FindAllString(text, -1) {
		if d := NormalizeDOI(m); d != "" && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// NormalizeArxiv returns the versionless arXiv id in id ("arXiv:2112.04426v1",
// "10.48550/arXiv.2112.04426", "https://arxiv.org/abs/quant-ph/9508027v2"),
// or "" when it is not one.
func NormalizeArxiv(id string) string {
	s := strings.ToLower(strings.TrimSpace(id))
	for _, p := range []string{"https://arxiv.org/abs/", "http://arxiv.org/abs/", "https://arxiv.org/pdf/", "http://arxiv.org/pdf/", "arxiv.org/abs/", "arxiv:"} {
		if strings.HasPrefix(s, p) {
			s = strings.TrimSpace(s[len(p):])
			break
		}
	}
	if a := ArxivFromDOI(s); a != "" {
		return a
	}
	s = strings.TrimSuffix(s, ".pdf")
	if m := newArxiv.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := oldArxiv.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// ArxivFromDOI returns the arXiv id behind a DataCite arXiv DOI
// (10.48550/arXiv.<id>), or "".
func ArxivFromDOI(doi string) string {
	d := NormalizeDOI(doi)
	const p = "10.48550/arxiv."
	if !strings.HasPrefix(d, p) {
		return ""
	}
	return NormalizeArxiv(d[len(p):])
}

// FindArxiv returns the first "arXiv:<id>" written in text, versionless, or "".
func FindArxiv(text string) string {
	if m := arxivStamp.FindStringSubmatch(text); m != nil {
		return NormalizeArxiv(m[1])
	}
	return ""
}

// ArxivYear returns the year a new-style arXiv id was submitted (2112.04426 →
// 2021), or 0 for old-style ids, whose yymm is ambiguous only in century.
func ArxivYear(id string) int {
	m := newArxiv.FindStringSubmatch(id)
	if m == nil {
		if o := oldArxiv.FindStringSubmatch(id); o != nil {
			num := o[1][strings.IndexByte(o[1], '/')+1:]
			yy := int(num[0]-'0')*10 + int(num[1]-'0')
			if yy >= 91 {
				return 1900 + yy
			}
			return 2000 + yy
		}
		return 0
	}
	return 2000 + int(m[1][0]-'0')*10 + int(m[1][1]-'0')
}
