package text

// Stem reduces a folded word (see Words) to its stem with Porter's
// algorithm (M. F. Porter, "An algorithm for suffix stripping", 1980), the
// stemmer of the index's FTS5 tables, so that "elects", "elected" and
// "election" meet as "elect" and "randomized" meets "random". One rule of
// Porter's later English stemmer is added: an adverb's "-ly" goes
// ("randomly" is "random", not "randomli"). Words of fewer than three
// letters, and words holding anything but the letters a to z, are returned
// as they are.
func Stem(w string) string {
	if len(w) < 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	s := stemmer{b: []byte(w)}
	s.step1a()
	s.step1b()
	s.step1c()
	s.step2()
	s.step3()
	s.step4()
	s.step5()
	return string(s.b)
}

// stemmer holds the word being stemmed; k is the length of the stem that
// a suffix test leaves (set by ends).
type stemmer struct {
	b []byte
	k int
}

// cons reports whether b[i] is a consonant: not a vowel, and a "y" only
// after a vowel (or first).
func (s *stemmer) cons(i int) bool {
	switch s.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !s.cons(i-1)
	}
	return true
}

// m is the number of vowel-consonant sequences in b[:k]: [C](VC)^m[V].
func (s *stemmer) m(k int) int {
	n, i := 0, 0
	for i < k && s.cons(i) {
		i++
	}
	for i < k {
		for i < k && !s.cons(i) {
			i++
		}
		if i >= k {
			break
		}
		for i < k && s.cons(i) {
			i++
		}
		n++
	}
	return n
}

// vowelIn reports whether b[:k] holds a vowel.
func (s *stemmer) vowelIn(k int) bool {
	for i := 0; i < k; i++ {
		if !s.cons(i) {
			return true
		}
	}
	return false
}

// doubleC reports whether b[:k] ends in a double consonant.
func (s *stemmer) doubleC(k int) bool {
	return k >= 2 && s.b[k-1] == s.b[k-2] && s.cons(k-1)
}

// cvc reports whether b[:k] ends consonant, vowel, consonant, the last
// not w, x or y ("hop", not "snow").
func (s *stemmer) cvc(k int) bool {
	if k < 3 || !s.cons(k-1) || s.cons(k-2) || !s.cons(k-3) {
		return false
	}
	c := s.b[k-1]
	return c != 'w' && c != 'x' && c != 'y'
}

// ends reports whether the word ends in suf, and sets k to what is left.
func (s *stemmer) ends(suf string) bool {
	n := len(s.b) - len(suf)
	if n < 0 || string(s.b[n:]) != suf {
		return false
	}
	s.k = n
	return true
}

// setTo replaces what follows b[:k] with r.
func (s *stemmer) setTo(r string) { s.b = append(s.b[:s.k], r...) }

// replace sets the ending to r when the stem left has m > 0.
func (s *stemmer) replace(r string) {
	if s.m(s.k) > 0 {
		s.setTo(r)
	}
}

func (s *stemmer) step1a() {
	switch {
	case s.ends("sses"):
		s.setTo("ss")
	case s.ends("ies"):
		s.setTo("i")
	case s.ends("ss"):
	case s.ends("s"):
		s.setTo("")
	}
}

func (s *stemmer) step1b() {
	if s.ends("eed") {
		if s.m(s.k) > 0 {
			s.setTo("ee")
		}
		return
	}
	if !(s.ends("ed") || s.ends("ing")) || !s.vowelIn(s.k) {
		return
	}
	s.setTo("")
	k := len(s.b)
	switch {
	case s.ends("at"), s.ends("bl"), s.ends("iz"):
		s.b = append(s.b, 'e')
	case s.doubleC(k):
		if c := s.b[k-1]; c != 'l' && c != 's' && c != 'z' {
			s.b = s.b[:k-1]
		}
	case s.m(k) == 1 && s.cvc(k):
		s.b = append(s.b, 'e')
	}
}

func (s *stemmer) step1c() {
	if s.ends("y") && s.vowelIn(s.k) {
		s.setTo("i")
	}
}

// step2Rules are Porter's step 2 endings and what they become.
var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func (s *stemmer) step2() {
	for _, r := range step2Rules {
		if s.ends(r[0]) {
			s.replace(r[1])
			return
		}
	}
	// An adverb's "-li" (step 1c made "-ly" so) after a letter that may
	// end a stem before "-ly" (Porter2's rule).
	if s.ends("li") && s.k > 0 && s.m(s.k) > 0 {
		switch s.b[s.k-1] {
		case 'c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't':
			s.setTo("")
		}
	}
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func (s *stemmer) step3() {
	for _, r := range step3Rules {
		if s.ends(r[0]) {
			s.replace(r[1])
			return
		}
	}
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func (s *stemmer) step4() {
	for _, suf := range step4Suffixes {
		if !s.ends(suf) {
			continue
		}
		if suf == "ion" && (s.k == 0 || s.b[s.k-1] != 's' && s.b[s.k-1] != 't') {
			return
		}
		if s.m(s.k) > 1 {
			s.setTo("")
		}
		return
	}
}

func (s *stemmer) step5() {
	if s.ends("e") {
		if m := s.m(s.k); m > 1 || m == 1 && !s.cvc(s.k) {
			s.setTo("")
		}
	}
	if k := len(s.b); s.b[k-1] == 'l' && s.doubleC(k) && s.m(k) > 1 {
		s.b = s.b[:k-1]
	}
}
