package citation

// Verdict is what checking a citation against the page it names found.
// It says what was checked, never that a claim is true.
type Verdict string

// The verdicts, from best to worst (SPEC §6).
const (
	Verified    Verdict = "verified"    // its quote is on the page
	Supported   Verdict = "supported"   // the page has the sentence's words and numbers
	Weak        Verdict = "weak"        // the page has only part of them
	WrongPage   Verdict = "wrong-page"  // another page of the paper has them (FoundPage)
	Unsupported Verdict = "unsupported" // no page of the paper has them
	Outside     Verdict = "outside"     // the page is not in the turn's grant
	Broken      Verdict = "broken"      // the URI does not open
)

// Verdicts lists every verdict, best first.
var Verdicts = []Verdict{Verified, Supported, Weak, WrongPage, Unsupported, Outside, Broken}

// Check is the claim check of one citation of an answer or a Markdown file:
// the sentence or bullet that holds it, checked against the page it cites.
type Check struct {
	URI       string  `json:"uri"`       // as the text wrote it
	Page      int     `json:"page"`      // the page it cites; 0 for a whole paper or file
	Verdict   Verdict `json:"verdict"`   // one of Verdicts
	FoundPage int     `json:"foundPage"` // for wrong-page (and a page-less citation): the page that holds the claim; else 0
	Quote     string  `json:"quote"`     // the quoted words checked, "" when the sentence quotes nothing
	Why       string  `json:"why"`       // what was checked, in a sentence
	// Passage is, for supported, weak and wrong-page, the words of the
	// page that hold the claim (of FoundPage when it is set, else of
	// Page), as the page has them: what opening the citation marks.
	Passage string `json:"passage"`
	Claim   string `json:"claim"` // the sentence or bullet checked, without its citations
	Line    int    `json:"line"`  // 1-based line of the citation in the text
	Start   int    `json:"start"` // byte offset of the citation in the text
	End     int    `json:"end"`   // byte offset just past it
}

// Summary counts a text's checks by verdict.
type Summary struct {
	Citations int             `json:"citations"`
	Verdicts  map[Verdict]int `json:"verdicts"`
}

// Summarize counts checks by verdict; every verdict is present, 0 or not.
func Summarize(checks []Check) Summary {
	s := Summary{Citations: len(checks), Verdicts: make(map[Verdict]int, len(Verdicts))}
	for _, v := range Verdicts {
		s.Verdicts[v] = 0
	}
	for _, c := range checks {
		s.Verdicts[c.Verdict]++
	}
	return s
}
