package text

import "strings"

// Stop reports whether a folded word (see Words) says nothing about what a
// text or a question is about: the words of English grammar, the words of
// a question (how, why, explain), and the words every paper has (abstract,
// figure, university, results).
//
// A search leaves them to the phrase of the whole query when other words
// remain, so "proof of work" still finds the phrase; related papers never
// profile a paper by them.
func Stop(w string) bool { return stopWords[w] }

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		a about above after again against all also although among an and another any are as at be because been
		before being below between both but by can cannot could did do does doing down during each either else
		even every few for from further given had has have having he her here however his how i if in into is it
		its itself just last least less many may me more most much must my near neither never next no none not
		of often on one only or other others our ours over same several shall she should since so some such than
		that the their theirs them then there therefore these they this those though through thus to under
		unless until up upon us very was we well were what when where whether which while who whom whose why
		will with within without would you your yours

		according describe describes described explain explains say says said tell

		paper papers abstract introduction conclusion conclusions result results propose proposed approach
		approaches method methods use using used uses based show shows shown work works example examples section
		sections figure figures table tables problem problems research study studies present presents presented
		provide provides new novel different important general particular number numbers small large high higher
		low lower case cases part parts point points make makes made take takes time times main order first
		university department email copyright permission http https www arxiv preprint proceedings conference
		journal volume author authors acknowledgments references appendix et al
		january february march april june july august september october november december`) {
		stopWords[w] = true
	}
}
