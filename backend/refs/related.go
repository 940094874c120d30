package refs

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/index"
)

// Related papers are ranked by two signals, each scaled to [0, 1] and
// averaged: bibliographic coupling (the works both reference lists cite,
// cosine-normalised, so two short lists sharing three works beat two long
// ones sharing three), and textual closeness (the paper's distinctive
// words — from its title, abstract or first page, weighted by rarity in the
// library — found in the other paper's pages, BM25-saturated so that a long
// paper that mentions everything does not win, and scaled by the paper's own
// score, so that a library with nothing close shows nothing).
const (
	couplingScale  = 3.0  // cosine 1/3 counts as full coupling
	minRelated     = 0.1  // combined score below which a paper is not related
	profileChars   = 3000 // of the first page, when the abstract is short
	candidateTerms = 25
	keptTerms      = 12
	maxTermPages   = 3000 // a word on more pages than this is too common to rank by
	bm25K1         = 1.2
	bm25B          = 0.75
)

type relScore struct {
	coupling, text float64
}

func related(ctx context.Context, db *index.DB, p index.Paper, limit int) ([]Card, error) {
	scores := map[string]*relScore{}
	get := func(ref string) *relScore {
		s := scores[ref]
		if s == nil {
			s = &relScore{}
			scores[ref] = s
		}
		return s
	}
	coupled, own, err := coupledPapers(ctx, db, p.Ref)
	if err != nil {
		return nil, err
	}
	for _, c := range coupled {
		if own == 0 || c.Total == 0 || c.Shared == 0 {
			continue
		}
		cos := float64(c.Shared) / math.Sqrt(float64(own)*float64(c.Total))
		get(c.Ref).coupling = math.Min(1, cos*couplingScale)
	}
	text, err := textCloseness(ctx, db, p)
	if err != nil {
		return nil, err
	}
	// The paper's own pages hold all its words: its score is the scale.
	most := text[p.Ref]
	for _, t := range text {
		most = math.Max(most, t)
	}
	if most > 0 {
		for ref, t := range text {
			get(ref).text = t / most
		}
	}
	delete(scores, p.Ref)
	type ranked struct {
		ref   string
		score float64
		by    string
	}
	var list []ranked
	for ref, s := range scores {
		total := (s.coupling + s.text) / 2
		if total < minRelated {
			continue
		}
		by := ByText
		if s.coupling >= s.text {
			by = BySharedReferences
		}
		list = append(list, ranked{ref, total, by})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].ref < list[j].ref
	})
	out := []Card{}
	for _, r := range list {
		if len(out) >= limit {
			break
		}
		q, err := db.Paper(ctx, r.ref)
		if err != nil {
			continue
		}
		out = append(out, libraryCard(q, r.by))
	}
	return out, nil
}

// textCloseness scores the library papers by the paper's distinctive words.
func textCloseness(ctx context.Context, db *index.DB, p index.Paper) (map[string]float64, error) {
	papers, totalPages, err := db.Counts(ctx)
	if err != nil || totalPages == 0 || papers == 0 {
		return nil, err
	}
	profile := p.Title + " " + p.Title + " " + p.Abstract
	if len(p.Abstract) < 200 {
		if first, _, err := db.PageText(ctx, p.Ref, 1); err == nil {
			if len(first) > profileChars {
				first = first[:profileChars]
			}
			profile += " " + first
		}
	}
	tf := map[string]int{}
	for _, w := range titleWords(profile) {
		if len([]rune(w)) < 4 || stopwords[w] || strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		tf[w]++
	}
	words := make([]string, 0, len(tf))
	for w := range tf {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if tf[words[i]] != tf[words[j]] {
			return tf[words[i]] > tf[words[j]]
		}
		return words[i] < words[j]
	})
	words = words[:min(len(words), candidateTerms)]
	limit := min(maxTermPages, max(20, totalPages/10))
	avgPages := float64(totalPages) / float64(papers)
	// Weigh every candidate word by its document frequency first (cheap),
	// then read which papers hold only the words kept.
	type term struct {
		word   string
		weight float64
		hits   map[string]index.TermHits
	}
	var terms []term
	for _, w := range words {
		n, err := db.TermCount(ctx, index.MatchExpr([]index.Term{{Words: []string{w}}}, false), limit)
		if err != nil {
			return nil, err
		}
		if n == 0 || n >= limit {
			continue
		}
		idf := math.Log(1 + float64(totalPages)/float64(n))
		terms = append(terms, term{word: w, weight: idf * (1 + math.Log(float64(tf[w])))})
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i].weight > terms[j].weight })
	terms = terms[:min(len(terms), keptTerms)]
	for i := range terms {
		hits, _, err := db.TermPapers(ctx, index.MatchExpr([]index.Term{{Words: []string{terms[i].word}}}, false), limit)
		if err != nil {
			return nil, err
		}
		terms[i].hits = hits
	}
	out := map[string]float64{}
	for _, t := range terms {
		for ref, h := range t.hits {
			k := float64(h.Pages)
			norm := 1 - bm25B + bm25B*float64(max(h.PaperPages, 1))/avgPages
			out[ref] += t.weight * k * (bm25K1 + 1) / (k + bm25K1*norm)
		}
	}
	return out, nil
}

// stopwords are words too common in papers to say what one is about.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about above after again against also although among another because been before
		being below between both cannot could does doing down during each either else even every first from further
		given have having here however into itself just last least less many more most much must near neither never
		next none often only other others ours over same several shall should since some such than that their theirs
		them then there therefore these they this those though through thus under unless until upon very well were
		what when where whether which while whom whose will with within without would your yours
		paper papers abstract introduction conclusion conclusions result results propose proposed approach approaches
		method methods using used uses based show shows shown work works example examples section sections figure
		figures table tables problem problems research study studies present presents presented provide provides
		describe describes described also new novel different important general particular number numbers small large
		high higher low lower case cases part parts point points make makes made take takes time times main order
		university department email copyright permission http https www arxiv preprint proceedings conference
		journal volume author authors acknowledgments references appendix january february march april june july
		august september october november december`) {
		stopwords[w] = true
	}
}
