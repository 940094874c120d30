package index

// The one query path: the library's search box, the agents' context_search,
// related papers and (through context_search) the built-in agent all find
// text with a Query, so that the same words rank the same way everywhere.

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agentero/agentero/backend/text"
)

// Query is one search of the index. Zero values mean defaults.
//
// Its words are matched with stemming, "quoted phrases" exactly, each
// repeated word once. Stop words (text.Stop) only hold their places in the
// whole query, unless the query holds nothing else. A page ranks by tier:
// its terms standing as in the query (the query as a phrase, stop words
// aside), then every term, then some of them, so a question in plain words
// finds the pages that hold most of it; then, within a tier, by bm25 with
// each term weighed by its rarity among the library's papers, plus
// TitleWeight times the weight of the terms in its paper's title or
// authors, so that a query naming a paper finds it. A query of more than
// MaxTerms terms is ranked by its rarest.
type Query struct {
	Text         string             // words and "quoted phrases"
	Scope        Scope              // where to look
	PerPaper     int                // hits of one paper (or text file) in one result; 0: MaxHitsPerPaper
	Limit        int                // hits to return; 0: 20, at most MaxLimit
	Offset       int                // hits to skip: the Next of a previous result
	SnippetChars int                // characters of a hit's snippet; 0: DefaultSnippetChars
	Boost        map[string]float64 // weight of a word (folded) beyond its rarity: 1 when missing
}

// Scope is where a query looks: the whole library, or papers by ref, text
// files by path, and folders (a directory grant, or the folder of a granted
// paper): a folder holds the papers whose folders lie in it and its text
// files, at any depth; "" or "." is the whole vault.
type Scope struct {
	AllPapers bool // every paper of the library
	Papers    []string
	Files     []string
	Folders   []string
}

// Result is the hits of a query from its Offset.
type Result struct {
	Hits  []Hit
	Next  int // the Offset that continues after Hits; 0 when no hit is left
	Found int // hits of the query found from the first: all there are, unless a first round could be filled without ranking every match
}

// Hit is one page or text file that matches a query.
type Hit struct {
	Ref       string `json:"ref"`            // the paper's ref, or a text file's paper folder ("" when none)
	Path      string `json:"path,omitempty"` // a text file's path
	Title     string `json:"title"`
	Page      int    `json:"page"`
	PageLabel string `json:"pageLabel"`
	// Section is the title of the paper's section the hit falls in (where
	// its first matched term is), "" when none.
	Section string `json:"section,omitempty"`
	Snippet string `json:"snippet"` // matched terms between MarkStart and MarkEnd
	// Quote is the snippet's words as the page has them, without marks or
	// ellipses: what the viewer marks when the hit is opened.
	Quote       string  `json:"quote"`
	CitationURI string  `json:"citationUri"`
	Score       float64 `json:"-"`
	Rank        int     `json:"-"` // its place among the query's hits, from 0: the Offset that starts at it
}

// Snippet markers: a matched term sits between MarkStart and MarkEnd.
// Control characters never survive text normalisation, so they cannot
// occur in indexed text.
const (
	MarkStart = "\x02"
	MarkEnd   = "\x03"
)

// Query limits and weights.
const (
	MaxHitsPerPaper     = 3   // keeps one long paper from filling a result
	MaxLimit            = 200 // hits per result
	MaxTerms            = 12  // terms of a query that are ranked: its rarest
	DefaultSnippetChars = 200
	TitleWeight         = 2.0 // a term in a paper's title or authors counts this much more than on a page

	maxCandidateTerms = 2 * MaxTerms // terms of a long query weighed to find its rarest
	pageB             = 0.75         // bm25's length normalisation of pages and files
	maxMatches        = 2000         // pages or files ranked per paper or scope
)

func (q Query) withDefaults() Query {
	if q.PerPaper <= 0 {
		q.PerPaper = MaxHitsPerPaper
	}
	if q.Limit <= 0 {
		q.Limit = 20
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = max(q.Offset, 0)
	if q.SnippetChars <= 0 {
		q.SnippetChars = DefaultSnippetChars
	}
	return q
}

// plan is a query made ready for the index: its terms with their weights,
// and the FTS5 expressions that find them.
type plan struct {
	stopOnly bool // the query is stop words alone
	long     bool // a pasted passage: more than maxCandidateTerms terms
	terms    []text.Term
	weights  []float64 // of terms
	places   []int     // where each term first stands among the query's words
	shape    string    // places as agentero_page_rank takes them ("" for one term)
	pageExpr string    // term OR term …: pages and files that hold some term (all terms, for stop words alone)
	allExpr  string    // term AND term …: those that hold every term
	// words are the terms' words for papers_fts (pages' distinct words,
	// titles), which keeps no word order: one phrase each, weighted.
	words     []string
	wordW     []float64
	paperExpr string
}

// plan parses a query and weighs its terms: each word by its idf over the
// library's papers (papers_fts), a phrase by the sum of its words'. It
// returns nil for a query without words.
func (db *DB) plan(ctx context.Context, q Query) (p *plan, err error) {
	parsed := text.Parse(q.Text)
	all := text.Distinct(parsed)
	if len(all) == 0 {
		return nil, nil
	}
	terms := text.Content(all)
	stopOnly := len(terms) == 0
	if stopOnly {
		terms = all // stop words alone: they are the query
	}
	long := len(terms) > maxCandidateTerms
	terms = terms[:min(len(terms), maxCandidateTerms)]
	// The words that carry each term's weight: its words that are not stop
	// words, or all of them.
	carry := make([][]string, len(terms))
	var lookup []string
	seen := map[string]bool{}
	for i, t := range terms {
		for _, w := range t.Words {
			if f := text.Fold(w); !text.Stop(f) {
				carry[i] = append(carry[i], w)
			}
		}
		if len(carry[i]) == 0 {
			carry[i] = t.Words
		}
		for _, w := range carry[i] {
			if k := strings.ToLower(w); !seen[k] {
				seen[k] = true
				lookup = append(lookup, k)
			}
		}
	}
	var idf map[string]float64
	if stopOnly || len(terms) == 1 && len(q.Boost) == 0 {
		// Stop words alone are matched in index order, and one term's
		// weight scales every score alike: rarity changes no order and is
		// not looked up.
		idf = map[string]float64{}
		for _, w := range lookup {
			idf[w] = 1
		}
	} else if idf, err = db.idf(ctx, lookup); err != nil {
		return nil, err
	}
	p = &plan{stopOnly: stopOnly, long: long}
	type weighed struct {
		t     text.Term
		w     float64
		words []string
		at    int
	}
	ws := make([]weighed, len(terms))
	for i, t := range terms {
		w := 0.0
		for _, word := range carry[i] {
			w += idf[strings.ToLower(word)]
		}
		if b, ok := q.Boost[t.Key()]; ok {
			w *= b
		}
		ws[i] = weighed{t, w, carry[i], i}
	}
	if len(ws) > MaxTerms {
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].w > ws[j].w })
		ws = ws[:MaxTerms]
		sort.Slice(ws, func(i, j int) bool { return ws[i].at < ws[j].at })
	}
	// Where each term first stands among the query's words, a word
	// repeated at once counted once ("leader leader election").
	place := map[string]int{}
	n, last := 0, ""
	for _, t := range parsed {
		k := t.Key()
		if k == last {
			continue
		}
		if _, ok := place[k]; !ok {
			place[k] = n
		}
		n, last = n+len(t.Words), k
	}
	var exprs, shape []string
	wordAt := map[string]int{}
	for _, w := range ws {
		p.terms = append(p.terms, w.t)
		p.weights = append(p.weights, w.w)
		exprs = append(exprs, phrase(w.t.Words))
		p.places = append(p.places, place[w.t.Key()])
		shape = append(shape, strconv.Itoa(place[w.t.Key()]))
		for _, word := range w.words {
			k := strings.ToLower(word)
			ww := idf[k]
			if b, ok := q.Boost[w.t.Key()]; ok {
				ww *= b
			}
			if i, ok := wordAt[k]; ok {
				p.wordW[i] = math.Max(p.wordW[i], ww)
				continue
			}
			wordAt[k] = len(p.words)
			p.words = append(p.words, k)
			p.wordW = append(p.wordW, ww)
		}
	}
	p.pageExpr, p.allExpr = strings.Join(exprs, " OR "), strings.Join(exprs, " AND ")
	if stopOnly {
		p.pageExpr = p.allExpr // unranked: the pages that hold them all
	}
	if len(shape) > 1 {
		p.shape = strings.Join(shape, " ")
	}
	wexprs := make([]string, len(p.words))
	for i, w := range p.words {
		wexprs[i] = phrase([]string{w})
	}
	p.paperExpr = strings.Join(wexprs, " OR ")
	return p, nil
}

// phrase renders words as one FTS5 phrase. Words hold only letters,
// digits and marks (text.Parse), so no FTS5 syntax can reach the query.
func phrase(words []string) string {
	return `"` + strings.ToLower(strings.Join(words, " ")) + `"`
}

// idf weighs words by their rarity among the library's papers, bm25's
// idf: ln(1 + (N - n + 0.5) / (n + 0.5)) for a word on n of N papers.
// Until every paper has its papers_fts row (an index being upgraded) every
// word weighs 1. Weights are kept for as long as papers_fts and the
// papers table stay as they are (idfCache): counting the papers a common
// word is on is a pass over all of them.
func (db *DB) idf(ctx context.Context, words []string) (map[string]float64, error) {
	out := make(map[string]float64, len(words))
	if len(words) == 0 {
		return out, nil
	}
	if !db.paperTextReady(ctx) {
		for _, w := range words {
			out[w] = 1
		}
		return out, nil
	}
	// The generation of papers_fts: its averages record (FTS5's row 1 of
	// its data table, the number of rows and of their tokens), which
	// every write of a row changes; and the number of papers, N.
	var gen []byte
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT (SELECT block FROM papers_fts_data WHERE id = 1), (SELECT count(*) FROM papers)`).Scan(&gen, &n); err != nil {
		return nil, fmt.Errorf("weigh terms: %w", err)
	}
	var missing []string
	db.idfs.mu.Lock()
	c := &db.idfs
	if !bytes.Equal(c.gen, gen) || c.papers != n || len(c.weights) > maxCachedWeights {
		c.gen, c.papers, c.weights = gen, n, map[string]float64{}
	}
	for _, w := range words {
		if v, ok := c.weights[w]; ok {
			out[w] = v
		} else {
			missing = append(missing, w)
		}
	}
	db.idfs.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	// One statement: the counts are cheaper in a row than on connections
	// of their own.
	var b strings.Builder
	b.WriteString(`SELECT 0`)
	args := make([]any, len(missing))
	for i, w := range missing {
		b.WriteString(`, (SELECT count(*) FROM papers_fts WHERE papers_fts MATCH ?)`)
		args[i] = phrase([]string{w})
	}
	counts := make([]int, len(missing)+1)
	dest := make([]any, len(counts))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := db.sql.QueryRowContext(ctx, b.String(), args...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("weigh terms: %w", err)
	}
	db.idfs.mu.Lock()
	defer db.idfs.mu.Unlock()
	same := bytes.Equal(c.gen, gen) && c.papers == n
	for i, w := range missing {
		df := math.Min(float64(counts[i+1]), float64(n))
		out[w] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		if same {
			c.weights[w] = out[w]
		}
	}
	return out, nil
}

// maxCachedWeights is the most words idfCache keeps before it starts
// again: a few hundred KB.
const maxCachedWeights = 20000

// idfCache keeps words' weights (idf) for one generation of the index.
type idfCache struct {
	mu      sync.Mutex // guards the fields below; held for map reads and writes only
	gen     []byte     // papers_fts's averages record when the weights were counted
	papers  int        // the number of papers then
	weights map[string]float64
}
