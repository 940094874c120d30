package applink

import (
	"unicode/utf8"

	"github.com/agentero/agentero/backend/citation"
)

// For is the link that opens citation u of the paper ref of the vault at
// root: its page (page 1 for a citation of the whole paper), its region,
// and its quote, cut to MaxQuote characters at a word's end.
func For(root, ref string, u citation.URI) Link {
	q := u.Quote
	if utf8.RuneCountInString(q) > MaxQuote {
		r := []rune(q)[:MaxQuote]
		q = string(r)
		for i := len(r) - 1; i > MaxQuote/2; i-- {
			if r[i] == ' ' {
				q = string(r[:i])
				break
			}
		}
	}
	return Link{Vault: root, Ref: ref, Page: max(u.Page, 1), Quote: q, Region: u.Region}
}

// Citation is the citation the link opens, for the viewer and the
// locator: the page, region and quote of pdf, the PDF of the link's paper (which
// the link does not name: the vault's index knows it).
func (l Link) Citation(pdf string) citation.URI {
	return citation.New(pdf, l.Page, l.Quote).WithRegion(l.Region)
}
