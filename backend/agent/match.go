package agent

// Words for comparing: finding a selection in its page, and scoring
// sentences against the question.

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is a word of a text, folded for comparing, with its byte span.
type token struct {
	w          string
	start, end int
}

// ligatures are the letters PDF text uses for two or three.
var ligatures = map[rune]string{'ﬀ': "ff", 'ﬁ': "fi", 'ﬂ': "fl", 'ﬃ': "ffi", 'ﬄ': "ffl", 'ﬅ': "st", 'ﬆ': "st"}

// tokenize splits a text into words: runs of letters and digits in lower
// case, ligatures spelt out. A hyphen before a line break and a word in
// lower case joins the halves of a word split across lines, as a viewer's
// selection of the same text may have them joined or not.
func tokenize(text string) []token {
	var out []token
	var b strings.Builder
	start := -1
	var last rune // the last letter or digit of the word being read
	flush := func(end int) {
		if start >= 0 {
			out = append(out, token{b.String(), start, end})
			b.Reset()
			start = -1
		}
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
			if l, ok := ligatures[r]; ok {
				b.WriteString(l)
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
			last = r
		case (r == '-' || r == '\u00ad') && start >= 0:
			if j := hyphenBreak(text, i+n); j > 0 && hyphenated(last, firstRune(text[j:])) {
				i = j
				continue
			}
			flush(i)
		default:
			flush(i)
		}
		i += n
	}
	flush(len(text))
	return out
}

// hyphenBreak returns where the text after a hyphen at i goes on when the
// hyphen ends a line (or is followed by one space, as a viewer may join
// lines); 0 if not.
func hyphenBreak(text string, i int) int {
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
		j++
	}
	if j == i || !strings.Contains(text[i:j], "\n") && text[i:j] != " " {
		return 0
	}
	return j
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// locate finds a selection in a page: the byte span of the page that holds
// its words in order. A selection whose middle differs from the page's
// text (a viewer's text layer is not the index's) is found by its first
// and last words.
func locate(page, sel []token) (int, int, bool) {
	if len(sel) == 0 || len(page) == 0 {
		return 0, 0, false
	}
	if i := find(page, sel, 0); i >= 0 {
		return page[i].start, page[i+len(sel)-1].end, true
	}
	k := min(6, len(sel))
	if len(sel) < 8 {
		return 0, 0, false
	}
	for from := 0; ; {
		i := find(page, sel[:k], from)
		if i < 0 {
			return 0, 0, false
		}
		limit := i + len(sel)*3/2 + 4
		if j := find(page[:min(limit, len(page))], sel[len(sel)-k:], i+k); j >= 0 {
			return page[i].start, page[j+k-1].end, true
		}
		from = i + 1
	}
}

// find returns the first index at or after from where words holds want.
func find(words, want []token, from int) int {
	for i := from; i+len(want) <= len(words); i++ {
		ok := true
		for j := range want {
			if words[i+j].w != want[j].w {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// stem cuts the commonest English endings, so that "elects", "elected"
// and "election" meet "elect".
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ions", "ion", "ies", "ied", "ed", "es", "s", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			if suf == "ies" || suf == "ied" {
				w += "y"
			}
			return w
		}
	}
	return w
}

// sameWord reports whether two stems are one word: equal, or one a short
// extension of the other ("encod", "encode").
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < 4 || len(b) < 4 || abs(len(a)-len(b)) > 2 {
		return false
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

func abs(n int) int { return max(n, -n) }

// scorer scores sentences by the question's words they hold, each word
// weighted by how rare it is among the sentences read for the turn.
type scorer struct {
	stems  []string
	weight []float64
	df     []int // sentences of the pool that hold each word
}

// newScorer makes a scorer for the question's search words over a pool of
// sentences.
func newScorer(query string, pool []string) scorer {
	var sc scorer
	seen := map[string]bool{}
	for _, t := range tokenize(query) {
		s := stem(t.w)
		if len(t.w) < 2 || seen[s] {
			continue
		}
		seen[s] = true
		sc.stems = append(sc.stems, s)
	}
	df := make([]int, len(sc.stems))
	for _, text := range pool {
		for i, hit := range sc.hits(text) {
			if hit {
				df[i]++
			}
		}
	}
	for i := range sc.stems {
		sc.weight = append(sc.weight, math.Log(1+float64(len(pool)+1)/(float64(df[i])+0.5)))
	}
	sc.df = df
	return sc
}

// total is what the question's words weigh together, leaving out those
// that no sentence read holds: a question's own wording ("explain", "on
// which page") is not held against a passage.
func (sc scorer) total() float64 {
	var t float64
	for i, w := range sc.weight {
		if sc.df[i] > 0 {
			t += w
		}
	}
	return t
}

// hits says which of the question's words a text holds.
func (sc scorer) hits(text string) []bool {
	out := make([]bool, len(sc.stems))
	for _, t := range tokenize(text) {
		s := stem(t.w)
		for i, q := range sc.stems {
			if !out[i] && sameWord(s, q) {
				out[i] = true
			}
		}
	}
	return out
}

// score returns a text's score and how many of the question's words it
// holds. Two of them side by side, as in the question, count a little more.
func (sc scorer) score(text string) (float64, int) {
	toks := tokenize(text)
	var total float64
	matched := 0
	seen := make([]bool, len(sc.stems))
	prev := -1
	for _, t := range toks {
		s := stem(t.w)
		cur := -1
		for i, q := range sc.stems {
			if sameWord(s, q) {
				cur = i
				break
			}
		}
		if cur >= 0 && !seen[cur] {
			seen[cur] = true
			total += sc.weight[cur]
			matched++
		}
		if cur >= 0 && prev >= 0 && cur == prev+1 {
			total += sc.weight[cur] / 2
		}
		prev = cur
	}
	// Very short and very long sentences say less per word read.
	if n := len(toks); n < 8 || n > 60 {
		total *= 0.8
	}
	return total, matched
}
