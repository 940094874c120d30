package refs

import (
	"context"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/text"
)

// Related papers are ranked by two signals, each scaled to [0, 1] and
// averaged: bibliographic coupling (the works both reference lists cite,
// cosine-normalised, so two short lists sharing three works beat two long
// ones sharing three), and textual closeness (the paper's distinctive
// words — from its title, abstract or first page, weighted by rarity in the
// library — found in the other paper's pages and title, BM25-saturated and
// length-normalised so that a long paper that mentions everything does not
// win, and scaled by the paper's own score, so that a library with nothing
// close shows nothing).
const (
	couplingScale     = 3.0  // cosine 1/3 counts as full coupling
	minRelated        = 0.1  // combined score below which a paper is not related
	profileChars      = 3000 // of the first page, when the abstract is short
	candidateTerms    = 25   // the profile's most used words; the index ranks by its rarest (index.MaxTerms)
	relatedCandidates = 500  // papers scored by text
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

// textCloseness scores the library papers by the paper's distinctive
// words: the words its profile uses most, weighed by how often it uses
// them, and ranked on the index's one query path (index.RankPapers), which
// weighs them by their rarity in the library and keeps the rarest.
func textCloseness(ctx context.Context, db *index.DB, p index.Paper) (map[string]float64, error) {
	// the abstract or, when it is short (a sentence says little, and the
	// index now reads one from nearly every paper), the first page
	profile := p.Title + " " + p.Title
	if len(p.Abstract) >= 200 {
		profile += " " + p.Abstract
	} else {
		if first, _, err := db.PageText(ctx, p.Ref, 1); err == nil {
			if len(first) > profileChars {
				first = first[:profileChars]
			}
			profile += " " + first
		}
	}
	tf := map[string]int{}
	written := map[string]string{} // a word as the profile writes it, for the index's own folding
	for _, w := range text.Split(profile) {
		f := text.Fold(w)
		if len([]rune(f)) < 4 || text.Stop(f) || strings.IndexFunc(f, unicode.IsLetter) < 0 {
			continue
		}
		tf[f]++
		if _, ok := written[f]; !ok {
			written[f] = w
		}
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
	if len(words) == 0 {
		return nil, nil
	}
	boost := map[string]float64{}
	query := make([]string, len(words))
	for i, w := range words {
		boost[w] = 1 + math.Log(float64(tf[w]))
		query[i] = written[w]
	}
	ranked, err := db.RankPapers(ctx, index.Query{Text: strings.Join(query, " "), Scope: index.Scope{AllPapers: true},
		Limit: relatedCandidates, Boost: boost})
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(ranked))
	for _, r := range ranked {
		out[r.Ref] = r.Score
	}
	return out, nil
}
