package ident

import "strings"

// DOIURL is the doi.org link of a DOI, the DOI percent-encoded as the DOI
// Handbook asks: every byte but letters, digits and "-._/:" is written
// %XX, so that "#", "?" and "%" stay part of the DOI and a link such as
// 10.1016/S0140-6736(20)30183-5 survives every launcher on its way to the
// browser (doi.org decodes it back).
func DOIURL(doi string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("https://doi.org/")
	for i := 0; i < len(doi); i++ {
		c := doi[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._/:", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
