package claim_test

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/text"
)

// sentence is a sentence of a corpus page, as a reader would copy it.
type sentence struct {
	ref, pdf string
	page     int
	text     string
}

var (
	hyphenBreakRE = regexp.MustCompile(`(\p{L})-\n(\p{Ll})`)
	numberRE      = regexp.MustCompile(`\b[0-9]+(?:\.[0-9]+)?\b`)
	referenceRE   = regexp.MustCompile(`(fig\.?|figure|figures|table|tables|tab\.|section|sections|sec\.|§|eq\.|eqs\.|equation|equations|appendix|step|steps|line|lines|chapter|p\.|pp\.|page|pages|algorithm|theorem|lemma|definition)\s*\(?$`)
	quantityRE    = regexp.MustCompile(`^(?:%|×|x\b|\s?[a-zA-Z]{2,})`)
	noiseRE       = regexp.MustCompile(`(?i)https?:|www\.|@|doi|arxiv|proceedings|pp\.|vol\.|\bin:|isbn|©|copyright|corr\b|abs/|\bpages\b`)
)

// sentencesOf cuts a page into sentences of 10 to 40 words, mostly words
// (not tables, formulas or reference lists), each once on its paper.
func sentencesOf(txt string) []string {
	txt = hyphenBreakRE.ReplaceAllString(txt, "$1$2")
	txt = strings.Join(strings.Fields(txt), " ")
	var out []string
	start := 0
	r := []rune(txt)
	for i := 0; i < len(r); i++ {
		if r[i] != '.' && r[i] != '?' && r[i] != '!' {
			continue
		}
		if i+2 < len(r) && r[i+1] == ' ' && unicode.IsUpper(r[i+2]) || i+1 == len(r) {
			out = append(out, strings.TrimSpace(string(r[start:i+1])))
			start = i + 2
		}
	}
	var good []string
	for _, s := range out {
		fields := strings.Fields(s)
		if len(fields) < 10 || len(fields) > 40 || noiseRE.MatchString(s) {
			continue
		}
		words := 0
		for _, f := range fields {
			if len(text.Split(f)) == 1 && strings.IndexFunc(f, unicode.IsLetter) >= 0 && strings.IndexFunc(f, unicode.IsDigit) < 0 {
				words++
			}
		}
		first, _ := utf8First(s)
		if float64(words) < 0.8*float64(len(fields)) || !unicode.IsUpper(first) {
			continue
		}
		good = append(good, s)
	}
	return good
}

func utf8First(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

// corpusSentences takes every nth good sentence of every page with text
// of the corpus, leaving out those whose words are on another page too.
func corpusSentences(t *testing.T, db *index.DB, nth int) ([]sentence, map[string]int) {
	t.Helper()
	ctx := context.Background()
	papers, err := db.Papers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []sentence
	pagesOf := map[string]int{}
	k := 0
	for _, p := range papers {
		pages, err := db.Pages(ctx, p.Ref, 1, p.Pages)
		if err != nil {
			t.Fatal(err)
		}
		pagesOf[p.PDFPath] = p.Pages
		var qp []quote.Page
		for _, pg := range pages {
			qp = append(qp, quote.Page{Number: pg.Number, Text: pg.Text})
		}
		doc := quote.NewPaper(qp)
		for _, pg := range pages {
			for _, s := range sentencesOf(pg.Text) {
				k++
				if k%nth != 0 {
					continue
				}
				if ms := doc.Search(s); len(ms) != 1 || ms[0].Page != pg.Number {
					continue // repeated, or not found as it was cut (a running head inside)
				}
				out = append(out, sentence{ref: p.Ref, pdf: p.PDFPath, page: pg.Number, text: s})
			}
		}
	}
	return out, pagesOf
}

// generated is one generated case: a claim cited somewhere, and what the
// check must say.
type generated struct {
	kind  string
	md    string
	want  []citation.Verdict
	found int // wrong-page: the page
}

// TestGenerated measures the check beyond the hand-written cases: every
// 7th sentence of every page of the corpus quoted and cited right, written
// as a plain claim and cited right, cited one page off (quoted and plain),
// cited to a page of another paper, and with a number changed. It prints
// the rates and fails under floors a little below what was measured
// (README of the package's test data): a change that makes the check
// worse fails here before anyone has to notice.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: the whole corpus")
	}
	root, db := corpusVault(t)
	sents, pagesOf := corpusSentences(t, db, 7)
	rng := rand.New(rand.NewSource(22))
	var cases []generated
	uri := func(pdf string, page int) string { return citation.New(pdf, page, "").String() }
	for i, s := range sents {
		quoted := fmt.Sprintf("The paper says “%s” [%s]", s.text, uri(s.pdf, s.page))
		plain := fmt.Sprintf("%s [%s]", strings.TrimSuffix(s.text, "."), uri(s.pdf, s.page))
		cases = append(cases,
			generated{kind: "verbatim", md: quoted, want: []citation.Verdict{citation.Verified}},
			generated{kind: "plain claim", md: plain, want: []citation.Verdict{citation.Supported, citation.Verified}})
		if s.page < pagesOf[s.pdf] {
			cases = append(cases,
				generated{kind: "quote a page off", md: fmt.Sprintf("The paper says “%s” [%s]", s.text, uri(s.pdf, s.page+1)),
					want: []citation.Verdict{citation.WrongPage}, found: s.page},
				generated{kind: "claim a page off", md: fmt.Sprintf("%s [%s]", strings.TrimSuffix(s.text, "."), uri(s.pdf, s.page+1)),
					want: []citation.Verdict{citation.WrongPage}, found: s.page})
		}
		// Another paper: the sentence of another paper, a random page of this one.
		o := sents[(i+1+rng.Intn(len(sents)-1))%len(sents)]
		if o.pdf != s.pdf {
			cases = append(cases, generated{kind: "another paper", md: fmt.Sprintf("%s [%s]", strings.TrimSuffix(o.text, "."), uri(s.pdf, 1+rng.Intn(pagesOf[s.pdf]))),
				want: []citation.Verdict{citation.Unsupported}})
		}
		if changed, ok := changeNumber(s.text, rng); ok {
			cases = append(cases, generated{kind: "changed number", md: fmt.Sprintf("%s [%s]", strings.TrimSuffix(changed, "."), uri(s.pdf, s.page)),
				want: []citation.Verdict{citation.Weak, citation.Unsupported, citation.WrongPage}})
		}
	}
	// Texts of a paragraph a case, as many cases as a text may cite: the
	// check reads each paper once a text.
	var checks []citation.Check
	starts := make([]int, len(cases))
	for from := 0; from < len(cases); from += claim.MaxCitations {
		var b strings.Builder
		for i := from; i < min(from+claim.MaxCitations, len(cases)); i++ {
			starts[i] = b.Len()
			b.WriteString(cases[i].md + "\n\n")
		}
		got, err := claim.Check(t.Context(), b.String(), db, claim.Options{Vault: root})
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, got...)
	}
	if len(checks) != len(cases) {
		t.Fatalf("%d checks for %d cases", len(checks), len(cases))
	}
	type tally struct{ n, right int }
	score := map[string]*tally{}
	var order []string
	examples := map[string][]string{}
	for i, c := range cases {
		got := checks[i]
		if got.Start < starts[i] || i+1 < len(starts) && starts[i+1] > starts[i] && got.Start >= starts[i+1] {
			t.Fatalf("case %d: check of another paragraph: %+v", i, got)
		}
		if score[c.kind] == nil {
			score[c.kind] = &tally{}
			order = append(order, c.kind)
		}
		s := score[c.kind]
		s.n++
		ok := false
		for _, v := range c.want {
			ok = ok || got.Verdict == v
		}
		if c.found > 0 && got.Verdict == citation.WrongPage && got.FoundPage != c.found {
			ok = false
		}
		if ok {
			s.right++
		} else if len(examples[c.kind]) < 12 {
			examples[c.kind] = append(examples[c.kind], fmt.Sprintf("    %s → %s %d: %s", clip(c.md, 400), got.Verdict, got.FoundPage, got.Why))
		}
	}
	floors := map[string]float64{
		"verbatim": 0.97, "plain claim": 0.9, "quote a page off": 0.95, "claim a page off": 0.8,
		"another paper": 0.9, "changed number": 0.85,
	}
	t.Logf("generated: %d sentences of the corpus, %d cases", len(sents), len(cases))
	sort.SliceStable(order, func(i, j int) bool { return false })
	for _, k := range order {
		s := score[k]
		rate := float64(s.right) / float64(s.n)
		t.Logf("  %-17s %4d of %4d right (%.1f %%)", k, s.right, s.n, 100*rate)
		if rate < floors[k] {
			t.Errorf("%s: %.1f %% right, want at least %.0f %%", k, 100*rate, 100*floors[k])
		}
		if len(examples[k]) > 0 && testing.Verbose() {
			t.Logf("  for example:\n%s", strings.Join(examples[k], "\n"))
		}
	}
}

// changeNumber changes one number of a sentence (not a year), as a
// misreading agent would: 150 → 160, 3.57 → 3.67.
func changeNumber(s string, rng *rand.Rand) (string, bool) {
	locs := numberRE.FindAllStringIndex(s, -1)
	var cands [][]int
	for _, l := range locs {
		n := s[l[0]:l[1]]
		if v, err := strconv.Atoi(n); err == nil && (v >= 1900 && v <= 2030) {
			continue
		}
		// Not a reference ([12], Table 3, Section 4.2, p. 6) nor an
		// enumeration (3), 2.)).
		before := strings.ToLower(s[max(0, l[0]-12):l[0]])
		if strings.Contains(before, "[") && !strings.Contains(before, "]") || referenceRE.MatchString(before) {
			continue
		}
		// A quantity: after a space, before a word or a unit ("150 ms",
		// "3.57% error", "8× deeper").
		if l[0] > 0 && s[l[0]-1] != ' ' || !quantityRE.MatchString(s[l[1]:]) {
			continue
		}
		cands = append(cands, l)
	}
	if len(cands) == 0 {
		return "", false
	}
	l := cands[rng.Intn(len(cands))]
	n := []byte(s[l[0]:l[1]])
	// Change the last digit but one when there is one, else the last.
	i := len(n) - 1
	if len(n) > 1 && n[len(n)-2] >= '0' && n[len(n)-2] <= '9' {
		i = len(n) - 2
	}
	n[i] = '0' + (n[i]-'0'+1+byte(rng.Intn(8)))%10
	if i == 0 && n[0] == '0' && len(n) > 1 {
		n[0] = '1'
	}
	return s[:l[0]] + string(n) + s[l[1]:], true
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
