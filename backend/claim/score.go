package claim

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// A claim is scored against a page by the share of its terms, each
// weighed by its rarity among the paper's pages, that the page holds close
// together: within a passage about twice as long as the claim, which may
// run onto the start of the next page. A page that holds the words
// scattered about scores lower than one that holds them in a passage.

// numberReach is how many tokens before or after the passage a number of
// the claim may be, and how near a number of one digit must be to a term
// it is next to in the claim.
const numberReach = 8

// posting is where a term is: a page (its index) and a token on it.
type posting struct{ page, pos int }

// paperWords are the pages of a paper (or the one page of a text file),
// read for checking: where each stem and number ("#" and the number) is.
type paperWords struct {
	numbers []int // the pages' numbers, in order
	sizes   []int // tokens on each page
	dict    *dict
	post    [][]posting // by the key's id in dict
	vocab   []string    // the stems on the pages, sorted, for words that differ by an ending
}

// dict numbers the keys (stems, "#" and numbers) of one check's papers.
type dict struct {
	ids  map[string]int32
	keys []string
}

func (d *dict) id(key string) int32 {
	if id, ok := d.ids[key]; ok {
		return id
	}
	id := int32(len(d.keys))
	d.ids[key] = id
	d.keys = append(d.keys, key)
	return id
}

// at is where a key is on the pages.
func (pw *paperWords) at(key string) []posting {
	if id, ok := pw.dict.ids[key]; ok && int(id) < len(pw.post) {
		return pw.post[id]
	}
	return nil
}

func readPages(numbers []int, texts []string, rd *readings) *paperWords {
	pw := &paperWords{numbers: numbers, sizes: make([]int, len(texts)), dict: rd.dict}
	// Every key's place, in page and token order, then grouped by key in
	// one allocation.
	type entry struct {
		id       int32
		page, at int32
	}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	entries := make([]entry, 0, size/5)
	for i, txt := range texts {
		pos := int32(0)
		page := int32(i)
		scan(txt, func(tok token) {
			if tok.word != "" {
				r := rd.of(tok.word)
				if r.stem >= 0 {
					entries = append(entries, entry{r.stem, page, pos})
				}
				if r.num >= 0 {
					entries = append(entries, entry{r.num, page, pos})
				}
				for _, a := range tok.alt {
					if id := rd.of(a).stem; id >= 0 {
						entries = append(entries, entry{id, page, pos})
					}
				}
			}
			if tok.num != "" {
				entries = append(entries, entry{rd.number(tok.num), page, pos})
			}
			if tok.joined != "" {
				entries = append(entries, entry{rd.number(tok.joined), page, pos})
			}
			pos++
		})
		pw.sizes[i] = int(pos)
	}
	n := len(pw.dict.keys)
	start := make([]int, n+1)
	for _, e := range entries {
		start[e.id+1]++
	}
	for id := 0; id < n; id++ {
		start[id+1] += start[id]
	}
	backing := make([]posting, len(entries))
	next := append([]int(nil), start[:n]...)
	for _, e := range entries {
		backing[next[e.id]] = posting{int(e.page), int(e.at)}
		next[e.id]++
	}
	pw.post = make([][]posting, n)
	for id := 0; id < n; id++ {
		if start[id] < start[id+1] {
			pw.post[id] = backing[start[id]:start[id+1]:start[id+1]]
			if k := pw.dict.keys[id]; !strings.HasPrefix(k, "#") {
				pw.vocab = append(pw.vocab, k)
			}
		}
	}
	sort.Strings(pw.vocab)
	return pw
}

// Stems that differ only by an ending Porter's stemmer leaves
// ("comput" of computation, "computation" of computationally) are one
// word: the shorter has at least minPrefix letters, the longer at most
// maxExtra more.
const (
	minPrefix = 5
	maxExtra  = 5
)

// postings are where a claim's term is: the stem itself, and the stems
// that are it with another ending.
func (pw *paperWords) postings(key string) []posting {
	if strings.HasPrefix(key, "#") || len(key) < minPrefix {
		return pw.at(key)
	}
	var out []posting
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, pw.at(k)...)
		}
	}
	add(key)
	for i := sort.SearchStrings(pw.vocab, key); i < len(pw.vocab) && strings.HasPrefix(pw.vocab[i], key); i++ {
		if len(pw.vocab[i])-len(key) <= maxExtra {
			add(pw.vocab[i])
		}
	}
	for n := max(minPrefix, len(key)-maxExtra); n < len(key); n++ {
		if len(pw.at(key[:n])) > 0 {
			add(key[:n])
		}
	}
	if len(seen) > 1 {
		sort.Slice(out, func(a, b int) bool {
			return out[a].page < out[b].page || out[a].page == out[b].page && out[a].pos < out[b].pos
		})
	}
	return out
}

// weighed is a claim's terms with their weights and where they are: its
// words, the words that may name the source, then its numbers.
type weighed struct {
	keys  []string
	w     []float64
	soft  []bool
	num   []bool
	at    [][]posting // by page, then position
	words int         // how many of keys are required words
	req   float64     // the weight of the required terms
	span  int         // how many tokens a passage that holds the claim may take
	pairs [][2]int    // keys of words next to each other in the claim
	near  [][]int     // for a number: the keys next to it in the claim
}

// weigh weighs each term by its rarity among the paper's pages: the square
// root of BM25's idf, ln(1 + (N - n + 0.5)/(n + 0.5)) for a term on n of N
// pages, at least 0.2. The root keeps an ordinary word that a paper
// happens to use on one page ("relies") from outweighing the rest of a
// claim written in other words. A term on no page of the paper cannot tell pages apart and
// its rarity is unknown: it weighs as the claim's average word that the
// paper has. A number weighs at least as much: numbers are what a claim
// is most often wrong in.
func (pw *paperWords) weigh(t terms) *weighed {
	n := 0
	for _, s := range pw.sizes {
		if s > 0 {
			n++
		}
	}
	wt := &weighed{span: min(max(5*t.size/2, 40), 250)}
	add := func(key string, soft, num bool) {
		ps := pw.postings(key)
		df, last := 0, -1
		for _, p := range ps {
			if p.page != last {
				df++
				last = p.page
			}
		}
		w := -1.0
		if df > 0 {
			w = math.Sqrt(math.Max(math.Log(1+(float64(n-df)+0.5)/(float64(df)+0.5)), 0.2))
		}
		wt.keys = append(wt.keys, key)
		wt.w = append(wt.w, w)
		wt.soft = append(wt.soft, soft)
		wt.num = append(wt.num, num)
		wt.at = append(wt.at, ps)
	}
	for _, k := range t.words {
		add(k, false, false)
	}
	wt.words = len(t.words)
	for _, k := range t.soft {
		add(k, true, false)
	}
	for _, k := range t.nums {
		add("#"+k, false, true)
	}
	for _, k := range t.softNums {
		add("#"+k, true, true)
	}
	index := map[string]int{}
	for i, k := range wt.keys {
		index[k] = i
	}
	for _, p := range t.pairs {
		wt.pairs = append(wt.pairs, [2]int{index[p[0]], index[p[1]]})
	}
	wt.near = make([][]int, len(wt.keys))
	for i, k := range wt.keys {
		if wt.num[i] {
			for _, n := range t.near[k[1:]] {
				if j, ok := index[n]; ok && !wt.num[j] {
					wt.near[i] = append(wt.near[i], j)
				}
			}
		}
	}
	mean, known := 0.0, 0
	for i := 0; i < wt.words; i++ {
		if wt.w[i] > 0 {
			mean += wt.w[i]
			known++
		}
	}
	if known > 0 {
		mean /= float64(known)
	} else {
		mean = 1
	}
	for i := range wt.w {
		switch {
		case wt.w[i] < 0:
			wt.w[i] = mean
		case wt.num[i]:
			wt.w[i] = math.Max(wt.w[i], mean)
		}
		if !wt.soft[i] {
			wt.req += wt.w[i]
		}
	}
	return wt
}

// onPage is the part of ps on page i.
func onPage(ps []posting, i int) []posting {
	a := sort.Search(len(ps), func(k int) bool { return ps[k].page >= i })
	b := sort.Search(len(ps), func(k int) bool { return ps[k].page > i })
	return ps[a:b]
}

// score is how well one page (with the start of the next) holds a claim.
type score struct {
	page    int
	value   float64  // 0..1
	pairs   float64  // the share of the claim's neighbouring words that are neighbours on the page too
	words   int      // required words in the passage
	missing []string // numbers not near the passage
	nums    []string // numbers near it
	// from and to are the passage's first and last tokens (positions on
	// the page; past its last token, on the next page).
	from, to int
}

type occurrence struct{ pos, key int }

// score scores page i for the claim.
func (pw *paperWords) score(wt *weighed, i int) score {
	sc := score{page: pw.numbers[i]}
	size := pw.sizes[i]
	if wt.req == 0 || size == 0 {
		sc.missing = numbersOf(wt)
		return sc
	}
	var occ []occurrence
	var whole, wholeSoft float64
	for k := range wt.keys {
		here := onPage(wt.at[k], i)
		if len(here) > 0 {
			whole += wt.w[k]
			if wt.soft[k] {
				wholeSoft += wt.w[k]
			}
		}
		for _, p := range here {
			occ = append(occ, occurrence{p.pos, k})
		}
		if i+1 < len(pw.sizes) {
			for _, p := range onPage(wt.at[k], i+1) {
				if p.pos >= wt.span {
					break
				}
				occ = append(occ, occurrence{size + p.pos, k})
			}
		}
	}
	if len(occ) == 0 {
		sc.missing = numbersOf(wt)
		return sc
	}
	sort.Slice(occ, func(a, b int) bool { return occ[a].pos < occ[b].pos })

	// The best passage: a window of at most span tokens that starts on
	// the page and holds the most weight, at least a third of it on the
	// page itself.
	count := make([]int, len(wt.keys))
	onThis := make([]int, len(wt.keys))
	var found, foundSoft, here float64
	best, lo, hi := -1.0, 0, 0
	l := 0
	for r, o := range occ {
		if count[o.key] == 0 {
			found += wt.w[o.key]
			if wt.soft[o.key] {
				foundSoft += wt.w[o.key]
			}
		}
		count[o.key]++
		if o.pos < size {
			if onThis[o.key] == 0 {
				here += wt.w[o.key]
			}
			onThis[o.key]++
		}
		for occ[l].pos < o.pos-wt.span {
			lk := occ[l].key
			count[lk]--
			if count[lk] == 0 {
				found -= wt.w[lk]
				if wt.soft[lk] {
					foundSoft -= wt.w[lk]
				}
			}
			if occ[l].pos < size {
				onThis[lk]--
				if onThis[lk] == 0 {
					here -= wt.w[lk]
				}
			}
			l++
		}
		if occ[l].pos >= size || here < found/3 {
			continue
		}
		if v := found / (wt.req + foundSoft); v > best+1e-9 {
			best, lo, hi = v, occ[l].pos, occ[r].pos
		}
	}
	if best < 0 {
		sc.missing = numbersOf(wt)
		return sc
	}
	sc.value = 0.8*best + 0.2*whole/(wt.req+wholeSoft)
	sc.from, sc.to = lo, hi

	// Which words and numbers the passage holds. A number may sit a
	// little before or after it; one of a single digit, which any page
	// holds somewhere, must sit next to a term it is next to in the claim.
	near := func(k, from, to int) bool {
		for _, o := range occ {
			if o.key != k || o.pos < from || o.pos > to {
				continue
			}
			if !wt.num[k] || len(wt.keys[k]) > 2 || len(wt.near[k]) == 0 {
				return true
			}
			for _, n := range occ {
				if n.pos >= o.pos-numberReach && n.pos <= o.pos+numberReach && slices.Contains(wt.near[k], n.key) {
					return true
				}
			}
		}
		return false
	}
	if len(wt.pairs) > 0 {
		n := 0
		for _, p := range wt.pairs {
			if adjacent(onPage(wt.at[p[0]], i), onPage(wt.at[p[1]], i), 3) {
				n++
			}
		}
		sc.pairs = float64(n) / float64(len(wt.pairs))
	}
	for k := range wt.keys {
		switch {
		case wt.num[k]:
			if near(k, lo-numberReach, hi+numberReach) {
				sc.nums = append(sc.nums, wt.keys[k][1:])
			} else if !wt.soft[k] {
				sc.missing = append(sc.missing, wt.keys[k][1:])
			}
		case !wt.soft[k] && near(k, lo, hi):
			sc.words++
		}
	}
	return sc
}

func numbersOf(wt *weighed) []string {
	var out []string
	for k, key := range wt.keys {
		if wt.num[k] && !wt.soft[k] {
			out = append(out, key[1:])
		}
	}
	return out
}

// adjacent reports whether a position of a and one of b (each in order)
// are at most d tokens apart.
func adjacent(a, b []posting, d int) bool {
	j := 0
	for _, p := range a {
		for j < len(b) && b[j].pos < p.pos-d {
			j++
		}
		if j < len(b) && b[j].pos <= p.pos+d {
			return true
		}
	}
	return false
}
