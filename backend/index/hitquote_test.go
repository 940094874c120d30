package index_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/text"
)

// TestHitQuotes: a search hit carries what the viewer marks when it is
// opened: the snippet's words as the page has them. The locator finds
// exactly those words on the hit's page, at the place the snippet shows
// (the first place the page holds them), so the marked words are the
// snippet's words and not some other occurrence of a term.
func TestHitQuotes(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	ctx := context.Background()
	unmark := strings.NewReplacer(index.MarkStart, "", index.MarkEnd, "")
	papers := map[string]*quote.Paper{}
	checked := 0
	for _, q := range []string{
		"Merkle tree inconsistencies between replicas", "randomized election timeouts", "consensus",
		"multi-head attention", "heteroskedasticity consistent covariance", "proof of work", "zoo index attribute",
		"lock service", "residual learning", "byzantine failures", "probabilistic counting", "\"state machine\"",
	} {
		for _, snippetChars := range []int{0, 400} {
			res, err := db.Search(ctx, index.Query{Text: q, Scope: index.Scope{AllPapers: true}, Limit: 10, SnippetChars: snippetChars})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				if h.Path != "" || h.Quote == "" && strings.Contains(h.Snippet, "found by its metadata") {
					continue // a text file, or a paper without text found by its metadata
				}
				// The quote is the snippet's words: no marks, no ellipses (a
				// page's own "..." cuts it to the part with the most marks).
				words := strings.TrimFunc(strings.Trim(unmark.Replace(h.Snippet), "…"), func(r rune) bool { return !text.IsWordRune(r) })
				own := strings.Contains(words, "...") || strings.Contains(words, "…")
				if !own && h.Quote != words || own && (!strings.Contains(words, h.Quote) || strings.Contains(h.Quote, "...")) {
					t.Errorf("%q: %s p.%d: quote %q, want the snippet's words %q", q, h.Ref, h.Page, h.Quote, words)
					continue
				}
				if len(quote.Fold(h.Quote)) < quote.MinQuote {
					continue // too short to be looked for anywhere
				}
				p := papers[h.Ref]
				if p == nil {
					pages, err := db.Pages(ctx, h.Ref, 1, 100000)
					if err != nil {
						t.Fatal(err)
					}
					var qp []quote.Page
					for _, pg := range pages {
						qp = append(qp, quote.Page{Number: pg.Number, Text: pg.Text})
					}
					p = quote.NewPaper(qp)
					papers[h.Ref] = p
				}
				m, ok := p.Find(h.Page, h.Quote)
				switch {
				case !ok:
					t.Errorf("%q: %s p.%d: the quote %q is not found on its page", q, h.Ref, h.Page, h.Quote)
				case m.Pieces != 1 || m.Spans[len(m.Spans)-1].Page != h.Page:
					t.Errorf("%q: %s p.%d: the quote is found in %d pieces, ending on p.%d", q, h.Ref, h.Page, m.Pieces, m.Spans[len(m.Spans)-1].Page)
				case p.Text(m) != h.Quote:
					t.Errorf("%q: %s p.%d: the locator marks %q, the snippet shows %q", q, h.Ref, h.Page, p.Text(m), h.Quote)
				default:
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d hits checked", checked)
	}
	t.Logf("%d hits: the locator finds each one's quote on its page, as the snippet shows it", checked)
}
