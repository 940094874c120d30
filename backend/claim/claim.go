// Package claim checks the citations of a Markdown text — an agent's
// answer, or notes a researcher wrote — against the pages they cite
// (SPEC §6, claim check). Every citation is a citation of the sentence or
// bullet that holds it: a link or a bare URI to a vault page
// (papers/…/x.pdf#page=6&quote=…), or an agentero://open link of the same
// vault. Each gets one verdict (citation.Verdicts):
//
//   - broken: the URI does not open (it does not parse, names no file or
//     paper of the vault, or a page past the paper's end);
//   - outside: what it names is not among what the turn may read;
//   - verified: its quotation (“…”, "…", «…», a block quote, or the URI's
//     quote) is on the cited page, or starts there and runs onto the next;
//   - supported: the page holds the sentence's content words, weighed by
//     rarity, close together, and every number of it;
//   - weak: the page holds only part of them, or a quotation is on no page;
//   - wrong-page: another page of the paper holds them clearly better
//     (FoundPage);
//   - unsupported: no page holds them.
//
// A number that differs from the page's is never supported. The Why of a
// check says what was checked — "the quote is on page 6", "page 6 has its
// words but not 350" — never that a claim is true.
//
// It reads pages from the index and text files through the vault's
// confined reader; it writes nothing.
package claim

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/backend/text"
	"github.com/agentero/agentero/backend/vault"
)

// Library is what a check reads of the vault's index: a paper by its ref,
// and its pages.
type Library interface {
	Paper(ctx context.Context, ref string) (index.Paper, error)
	Pages(ctx context.Context, ref string, from, to int) ([]index.Page, error)
}

// Options are what a check may read.
type Options struct {
	// Vault is the vault's root folder: its text files are read from it,
	// and an agentero:// link of another vault is not a citation of it.
	Vault string
	// Grant is what the turn may read: a citation of anything else is
	// outside. nil grants the whole vault (`agentero check`).
	Grant *grant.Grant
}

// MaxCitations is the most citations one text may have checked: far more
// than an answer or a paper's notes hold.
const MaxCitations = 5000

// ErrTooMany is a text with more than MaxCitations citations.
var ErrTooMany = errors.New("too many citations to check")

// Thresholds of a page's score (see score).
const (
	// supportedAt is the least score of a page that supports a claim
	// (with every number of it).
	supportedAt = 0.6
	// minWords is the least share of a claim's content words a page that
	// supports it holds close together, whatever their weights.
	minWords = 0.6
	// weakAt is the least score of a page that holds part of a claim.
	weakAt = 0.35
	// clearly is how much more another page must score than the cited
	// one to be the page the claim is on.
	clearly = 0.15
	// nearlyAsGood is how much less than the best page another page that
	// supports a claim may score and still be the one named (the nearest
	// the cited page).
	nearlyAsGood = 0.05
	// minQuoteWords is the fewest words a quotation has to be checked as
	// one; shorter ones ("the “leader”") are words of the sentence.
	minQuoteWords = 3
)

// Check checks every citation of a Markdown text, in the order the text
// writes them. External links (https://doi.org/…) and agentero:// links of
// other vaults are not citations of the vault and get no check. It fails
// only when the index cannot be read or ctx ends.
func Check(ctx context.Context, md string, lib Library, opts Options) ([]citation.Check, error) {
	read := citation.Read(md)
	cites := read.Cited
	if len(cites) > MaxCitations {
		return nil, fmt.Errorf("%w: %d citations, at most %d are checked in one text", ErrTooMany, len(cites), MaxCitations)
	}
	ps := passages(md, cites, read.Code)
	c := &checker{lib: lib, opts: opts, sources: map[string]*source{}, st: stems{}}
	c.rd = newReadings(&c.st)
	if opts.Vault != "" {
		c.vaultReal = realPath(opts.Vault)
	}
	out := []citation.Check{}
	alone := map[int]bool{} // checks of citations beside no words
	var keys []citation.Key // what each check's citation points at
	line, counted := 1, 0   // the line of byte counted
	for i, f := range cites {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ch, skip, err := c.check(ctx, f, ps[i])
		if err != nil {
			return nil, err
		}
		if skip {
			continue
		}
		line += strings.Count(md[counted:f.Start], "\n")
		counted = f.Start
		ch.Line = line
		ch.Start, ch.End = f.Start, f.End
		if ch.Verdict == "" {
			alone[len(out)] = true
		}
		out = append(out, ch)
		keys = append(keys, keyOf(f))
	}
	// A citation beside no words (a list of sources) takes the verdict of
	// the same page cited with words elsewhere in the text; else there is
	// nothing but the page to check, and the page is there.
	withWords := map[citation.Key]int{}
	for i := len(out) - 1; i >= 0; i-- {
		if !alone[i] {
			withWords[keys[i]] = i
		}
	}
	for i := range out {
		if !alone[i] {
			continue
		}
		if j, ok := withWords[keys[i]]; ok {
			o := out[j]
			out[i].Verdict, out[i].FoundPage, out[i].Passage = o.Verdict, o.FoundPage, o.Passage
			out[i].Why = "as where it is cited with words: " + o.Why
		}
		if out[i].Verdict == "" {
			out[i].Verdict = citation.Supported
			if out[i].Page > 0 {
				out[i].Why = fmt.Sprintf("no words beside it to check; page %d is there", out[i].Page)
			} else {
				out[i].Why = "no words beside it to check; the file is there"
			}
		}
	}
	return out, nil
}

// keyOf is what a citation points at: its file and page, or what it
// writes when it does not parse.
func keyOf(c citation.Cited) citation.Key {
	if c.OK() {
		return c.URI.Key()
	}
	return citation.Key{URL: c.Raw}
}

// checker checks the citations of one text; it reads each cited paper or
// file once.
type checker struct {
	lib       Library
	opts      Options
	vaultReal string
	sources   map[string]*source // by vault path
	st        stems
	rd        *readings
}

// target is what a citation names.
type target struct {
	path  string // the vault file (a paper's PDF, or a text file)
	page  int    // 0: the whole paper or file
	quote string // the URI's quote
}

// source is a cited paper or text file, read for checking.
type source struct {
	paper   *index.Paper // nil for a text file
	pages   []index.Page
	words   *paperWords
	doc     *quote.Paper
	known   map[string]bool // stems of its title and authors
	year    string
	broken  string // why it cannot be checked; "" when it can
	missing bool   // no such file
	textual bool   // a text file
}

func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// check checks one citation; skip when it turns out to be no citation of
// this vault. A check with no verdict is a citation beside no words.
func (c *checker) check(ctx context.Context, f citation.Cited, p passage) (ch citation.Check, skip bool, err error) {
	ch = citation.Check{URI: f.Raw, Claim: p.claim}
	t, why, skip, err := c.target(ctx, f)
	if err != nil || skip {
		return ch, skip, err
	}
	if why != "" {
		ch.Verdict, ch.Why = citation.Broken, why
		return ch, false, nil
	}
	ch.Page = t.page
	src, err := c.source(ctx, t.path)
	if err != nil {
		return ch, false, err
	}
	switch {
	case src.missing && f.Bare && !strings.EqualFold(path.Ext(t.path), ".pdf"):
		return ch, true, nil // a path in prose that names no file: not a citation
	case src.broken != "":
		ch.Verdict, ch.Why = citation.Broken, src.broken
		return ch, false, nil
	}
	if g := c.opts.Grant; g != nil {
		if _, err := g.Covering(t.path); err != nil {
			ch.Verdict, ch.Why = citation.Outside, fmt.Sprintf("%s is not among the sources this turn may read", t.path)
			return ch, false, nil
		}
	}
	if t.page > len(src.pages) {
		ch.Verdict = citation.Broken
		if src.textual {
			ch.Why = fmt.Sprintf("%s is a text file: it has no page %d", t.path, t.page)
		} else {
			ch.Why = fmt.Sprintf("page %d is past the end of the paper (%d pages)", t.page, len(src.pages))
		}
		return ch, false, nil
	}
	if src.textual {
		t.page = 0 // a text file is checked whole
		ch.Page = 0
	}
	quotes := checkable(append(p.quotes, t.quote))
	ch.Quote = strings.Join(quotes, " … ")
	claim := p.claim
	for _, name := range p.names {
		// A link's text that says more than the source's name is claimed
		// too: "[randomized election timeouts](…)".
		if n := claimTerms(name, src.known, src.year, &c.st); len(n.words) >= 2 {
			claim += " " + name
		}
	}
	j := judge{src: src, page: t.page, st: &c.st, rd: c.rd}
	found := j.verdict(claim, quotes)
	ch.Verdict, ch.FoundPage, ch.Why, ch.Passage = found.verdict, found.found, found.why, found.passage
	return ch, false, nil
}

// target reads what a citation names. why is set when it is broken; skip
// when it is not a citation of this vault.
func (c *checker) target(ctx context.Context, f citation.Cited) (t target, why string, skip bool, err error) {
	if f.Link != "" {
		l, perr := applink.Parse(f.Link)
		if perr != nil {
			return t, "the agentero:// link cannot be read: " + strings.TrimPrefix(perr.Error(), applink.ErrInvalid.Error()+": "), false, nil
		}
		if c.vaultReal == "" || realPath(l.Vault) != c.vaultReal {
			return t, "", true, nil // another vault's link
		}
		paper, perr := c.lib.Paper(ctx, l.Ref)
		if errors.Is(perr, index.ErrNotFound) {
			return t, fmt.Sprintf("the link names %s, which is no paper of the vault", l.Ref), false, nil
		}
		if perr != nil {
			return t, "", false, fmt.Errorf("read paper %s: %w", l.Ref, perr)
		}
		u := l.Citation(paper.PDFPath)
		t = target{path: u.Path, page: u.Page, quote: u.Quote}
		if !strings.Contains(f.Link, "page=") {
			t.page = 0 // a link without a page opens page 1 of a paper it names whole
		}
		return t, "", false, nil
	}
	if f.Err != nil {
		return t, "the URI is not a citation of the vault: " + strings.TrimPrefix(f.Err.Error(), citation.ErrInvalid.Error()+": "), false, nil
	}
	u := f.URI
	if u.External() {
		return t, "", true, nil
	}
	return target{path: u.Path, page: u.Page, quote: u.Quote}, "", false, nil
}

// source reads the paper or text file at p (a vault path: a paper's PDF,
// a paper's folder, or a text file), once per check.
func (c *checker) source(ctx context.Context, p string) (*source, error) {
	if s, ok := c.sources[p]; ok {
		return s, nil
	}
	s, err := c.read(ctx, p)
	if err != nil {
		return nil, err
	}
	c.sources[p] = s
	return s, nil
}

func (c *checker) read(ctx context.Context, p string) (*source, error) {
	paper, err := c.paperOf(ctx, p)
	if err != nil {
		return nil, err
	}
	if paper != nil {
		pages, err := c.lib.Pages(ctx, paper.Ref, 1, max(paper.Pages, 1))
		if err != nil {
			return nil, fmt.Errorf("read pages of %s: %w", paper.Ref, err)
		}
		s := &source{paper: paper, known: knownWords(paper.Title, surnames(paper.Authors), &c.st)}
		switch paper.Status {
		case index.StatusPending:
			s.broken = fmt.Sprintf("%s is not read into the index yet", paper.Ref)
			return s, nil
		case index.StatusError:
			s.broken = fmt.Sprintf("%s could not be read: %s", paper.Ref, paper.Error)
			return s, nil
		}
		if paper.Year > 0 {
			s.year = strconv.Itoa(paper.Year)
		}
		// Every page, numbered from 1: a page the index holds no row of
		// has no text.
		byNumber := map[int]string{}
		for _, pg := range pages {
			byNumber[pg.Number] = pg.Text
		}
		for n := 1; n <= max(paper.Pages, len(pages)); n++ {
			s.pages = append(s.pages, index.Page{Number: n, Text: byNumber[n]})
		}
		s.read(&c.st)
		return s, nil
	}
	if strings.EqualFold(path.Ext(p), ".pdf") {
		return &source{missing: true, broken: fmt.Sprintf("%s is not the PDF of a paper in the vault's index", p)}, nil
	}
	if c.opts.Vault == "" {
		return &source{broken: fmt.Sprintf("%s cannot be read here", p)}, nil
	}
	body, err := vault.ReadText(ctx, c.opts.Vault, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &source{missing: true, broken: fmt.Sprintf("%s names no file of the vault", p)}, nil
	case errors.Is(err, vault.ErrNotRegular):
		return &source{broken: fmt.Sprintf("%s is a folder or a special file, not a paper or a text file", p)}, nil
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &source{broken: fmt.Sprintf("%s cannot be read: %v", p, err)}, nil
	}
	s := &source{textual: true, pages: []index.Page{{Number: 1, Text: body}}, known: map[string]bool{}}
	s.read(&c.st)
	return s, nil
}

// read prepares the pages for the locator, which folds each page when a
// quote is looked for on it; the scorer reads them when a claim's words
// are to be weighed (scorer).
func (s *source) read(st *stems) {
	qp := make([]quote.Page, len(s.pages))
	for i, pg := range s.pages {
		qp[i] = quote.Page{Number: pg.Number, Text: pg.Text}
	}
	s.doc = quote.NewPaper(qp)
}

// scorer is the pages read for weighing words, read on first use: a
// citation whose quote is on its page needs none.
func (s *source) scorer(rd *readings) *paperWords {
	if s.words == nil {
		numbers, texts := make([]int, len(s.pages)), make([]string, len(s.pages))
		for i, pg := range s.pages {
			numbers[i], texts[i] = pg.Number, pg.Text
		}
		s.words = readPages(numbers, texts, rd)
	}
	return s.words
}

// paperOf is the paper a vault path names: its PDF, or its folder; nil
// when it names none.
func (c *checker) paperOf(ctx context.Context, p string) (*index.Paper, error) {
	ref := p
	if strings.EqualFold(path.Ext(p), ".pdf") {
		ref = path.Dir(p)
	}
	paper, err := c.lib.Paper(ctx, ref)
	if errors.Is(err, index.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read paper %s: %w", ref, err)
	}
	if ref != p && paper.PDFPath != p {
		return nil, nil
	}
	return &paper, nil
}

// surnames are the last words of authors' names.
func surnames(authors []string) []string {
	var out []string
	for _, a := range authors {
		if f := strings.Fields(a); len(f) > 0 {
			out = append(out, f[len(f)-1])
		}
	}
	return out
}

// checkable keeps the quotations long enough to look for, each once.
func checkable(qs []string) []string {
	var out []string
	var folded []string
	for _, q := range qs {
		q = strings.TrimSpace(q)
		f := quote.Fold(q)
		if len(text.Split(q)) < minQuoteWords || len(f) < quote.MinQuote {
			continue
		}
		dup := false
		for i, g := range folded {
			if strings.HasPrefix(g, f) {
				dup = true
				break
			}
			if strings.HasPrefix(f, g) {
				out[i], folded[i] = q, f
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, q)
			folded = append(folded, f)
		}
	}
	return out
}
