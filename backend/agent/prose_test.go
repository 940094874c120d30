package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentero/agentero/backend/quote"
	"github.com/google/go-cmp/cmp"
)

func texts(ss []sentence) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.text)
	}
	return out
}

// Pages in the shapes the corpus has them (see the comments), cut short.
func TestBodySentences(t *testing.T) {
	cases := []struct {
		name, title, page string
		want              []string
	}{
		{"running head and a page that starts mid-sentence", "zoo: An S3 Class",
			"Achim Zeileis, Gabor Grothendieck 3\nlength as x for vectors or the same number of rows for matrices. The \"zoo\" object created\nis essentially the vector as before but has an additional index attribute.\nSpecial effort in the design was put into independence from a particular class.\n",
			[]string{`The "zoo" object created is essentially the vector as before but has an additional index attribute.`,
				"Special effort in the design was put into independence from a particular class."}},
		{"title and authors, then the abstract", "In Search of an Understandable Consensus Algorithm",
			"In Search of an Understandable Consensus Algorithm\nDiego Ongaro and John Ousterhout\nStanford University\nAbstract\nRaft is a consensus algorithm for managing a replicated\nlog. It produces a result equivalent to (multi-)Paxos, and\nit is as efficient as Paxos.\n",
			[]string{"Raft is a consensus algorithm for managing a replicated log.",
				"It produces a result equivalent to (multi-)Paxos, and it is as efficient as Paxos."}},
		{"reference list under its heading", "",
			"This is the last sentence of the conclusion of this paper.\nReferences\n[1] BOLOSKY, W. J., BRADSHAW, D., AND HAAGENS, R. B. Paxos replicated state machines as the basis of a\nhigh-performance data store. In Proc. NSDI’11, USENIX Conference on Networked Systems Design and Implementation (2011), pp. 141–154.\n[2] BURROWS, M. The Chubby lock service for loosely-coupled distributed systems. In Proceedings of OSDI (2006).\n",
			[]string{"This is the last sentence of the conclusion of this paper."}},
		{"a page of references without a heading", "",
			"[37] A. M. Saxe, J. L. McClelland, and S. Ganguli. Exact solutions to\nthe nonlinear dynamics of learning in deep linear neural networks.\narXiv:1312.6120, 2013.\n[38] N. N. Schraudolph. Accelerated gradient descent by factor-centering\ndecomposition. Technical report, 1998.\n[39] N. N. Schraudolph. Centering neural network gradient factors. In\nNeural Networks: Tricks of the Trade, pages 207–226. Springer,\n1998.\n[41] K. Simonyan and A. Zisserman. Very deep convolutional networks\nfor large-scale image recognition. In ICLR, 2015.\n",
			[]string{}},
		{"author-year references", "",
			"Zeileis A (2006). “Implementing a Class of Structural Change Tests: An Econometric\nComputing Approach.” Computational Statistics & Data Analysis, 50, 2987–3008.\nZeileis A, Grothendieck G (2005). “zoo: S3 Infrastructure for Regular and Irregular Time\nSeries.” Journal of Statistical Software, 14(6), 1–27.\nZeileis A, Hothorn T, Hornik K (2008). “Model-Based Recursive Partitioning.” Journal of\nComputational and Graphical Statistics, 17(2), 492–514.\n",
			[]string{}},
		{"a caption in the flow of a column", "",
			"In this case the term will end with no leader; a new term will begin shortly. Raft ensures that there is at\nFigure 4: Server states. Followers only respond to requests\nfrom other servers. A candidate becomes the new leader.\nmost one leader in a given term.\nTerms act as a logical clock in Raft, and they allow servers to detect stale leaders.\n",
			[]string{"In this case the term will end with no leader; a new term will begin shortly.",
				"Terms act as a logical clock in Raft, and they allow servers to detect stale leaders."}},
		{"code and figure labels", "Residual-Based Shadings in vcd",
			"2 Residual-Based Shadings in vcd\nPlacebo 19 7 6\nTwo basic explorative views of such a 2-way table are mosaic plots and association plots.\nWhen no further arguments are supplied as in\n> mosaic(art)\nthis yields the plain plots without any color shading, see Figure 1.\nImproved\nTreated Placebo\nFigure 1: Classic mosaic and association plot for the arthritis data.\n",
			[]string{"Two basic explorative views of such a 2-way table are mosaic plots and association plots."}},
		{"footnotes at the foot", "",
			"Attention mechanisms have become an integral part of compelling sequence modeling and\ntransduction models in various tasks, allowing modeling of dependencies without regard\nto their distance in the input or output sequences. Recurrent neural networks have been\nfirmly established as state of the art approaches in sequence modeling and\n∗Equal contribution. Listing order is random. Jakob proposed replacing RNNs with self-attention.\n31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA.\n",
			[]string{"Attention mechanisms have become an integral part of compelling sequence modeling and transduction models in various tasks, allowing modeling of dependencies without regard to their distance in the input or output sequences."}},
		{"hyphenation and abbreviations", "",
			"The leader handles all client requests, e.g. writes and reads, as described by Ongaro et al. in their thesis. It decom-\nposes the problem into three parts (see Sec. 5). The section numbers indicate where each\nproperty is discussed. forcing the other logs to agree with its own (Section 5.3).\n",
			[]string{"The leader handles all client requests, e.g. writes and reads, as described by Ongaro et al. in their thesis.",
				"It decomposes the problem into three parts (see Sec. 5)."}},
		{"table of contents", "",
			"Contents\n1 Introduction . . . . . . . . . . . . . . 3\n2 The strucplot framework . . . . . . . . 5\n2.1 Overview . . . . . . . . . . . . . . . . 5\n",
			[]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := texts(bodySentences(c.page, c.title))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("bodySentences (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoteSentences(t *testing.T) {
	note := "# Reading notes\n\nThis is the example vault that `make run` opens. The four papers come from R packages,\nand they cite one another:\n\n- *The Strucplot Framework* is the hub: the other three cite it.\n- coin shows a mosaic plot\n\n```r\nmosaic(Titanic) # The plot of the data is shown here.\n```\n\n| Paper | Year |\n|---|---|\n| The strucplot paper is from the year 2006. | 2006 |\n\n> A quotation of a paper is not a note of the user.\n\nLicences are in the file of licences, one level up.\n"
	want := []string{"This is the example vault that `make run` opens.",
		"*The Strucplot Framework* is the hub: the other three cite it.",
		"Licences are in the file of licences, one level up."}
	if diff := cmp.Diff(want, texts(noteSentences(note))); diff != "" {
		t.Errorf("noteSentences (-want +got):\n%s", diff)
	}
}

func TestLocate(t *testing.T) {
	page := "Each server stores a current term number, which in-\ncreases monotonically over time. Current terms are ex-\nchanged whenever servers communicate."
	cases := []struct {
		name, sel string
		want      string // the page text the selection covers; "" = not found
	}{
		{"as the page has it", "current term number", "current term number"},
		{"across a hyphenated line end", "which increases monotonically", "which in-\ncreases monotonically"},
		{"the viewer's hyphen", "which in- creases monotonically", "which in-\ncreases monotonically"},
		{"case and spacing", "EACH   server\nstores", "Each server stores"},
		{"a middle that differs", "Each server stores a current term numbr, which increases monotonically over time. Current terms are exchanged",
			"Each server stores a current term number, which in-\ncreases monotonically over time. Current terms are ex-\nchanged"},
		{"not on the page", "a leader never overwrites its log", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from, to, ok := locate(page, c.sel)
			got := ""
			if ok {
				got = page[from:to]
			}
			if got != c.want {
				t.Errorf("locate(%q) = %q, want %q", c.sel, got, c.want)
			}
		})
	}
}

// pieces are what fuzzed pages are made of: words, marks and line ends
// as page text has them.
var pieces = strings.Fields(`The the a of is and we Raft leader term server It This 3 5.3 2013 (see Sec. e.g. et al. [1] [12]
	Figure Fig. 1: Table References Abstract • ∗ † > R> = + x2 ﬁnd decom- poses 3- way é- t ". ." "," ";" ":" "?" "”" "“" "(" ")" "-"
	LAMPORT, L. Zeileis A (2006). doi:10 pp. In Proceedings arXiv:1706 https://x.org a@b.cd`)

// pageOf builds page text from fuzzed bytes: each byte picks a piece, a
// space or a line end.
func pageOf(data []byte) string {
	var b strings.Builder
	for _, c := range data {
		switch {
		case c%11 == 0:
			b.WriteByte('\n')
		case c%7 == 0:
			b.WriteString(pieces[int(c)%len(pieces)])
		default:
			b.WriteString(pieces[int(c)%len(pieces)] + " ")
		}
	}
	return b.String()
}

// FuzzBodySentences holds the promise the agent's answers rest on: every
// sentence it may quote stands in its page, word for word and in order,
// inside the span it names.
func FuzzBodySentences(f *testing.F) {
	f.Add("Raft is a consensus algorithm for managing a replicated\nlog. It decom-\nposes the problem into three parts, as described in Section 5.3. The end.", "Raft", []byte(nil))
	f.Add("Achim Zeileis 3\nThe zoo object is the vector as before.2 The index is stored in an attribute of the object.\n2The only case is a vector of length zero.", "zoo", []byte(nil))
	f.Add("• Safety: the key property of the system is that no two servers decide differently.\n[1] A. B. Author. A title. In Proc. X, 2001.", "", []byte(nil))
	f.Add("The results of the 3-\nway test and the é-\ntude are shown in the table of this paper. It is so.", "", []byte(nil))
	f.Add("", "", []byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b"))
	f.Fuzz(func(t *testing.T, page, title string, built []byte) {
		page += pageOf(built)
		p := quote.NewPaper([]quote.Page{{Number: 1, Text: page}})
		for _, s := range bodySentences(page, title) {
			if s.start < 0 || s.end > len(page) || s.start >= s.end {
				t.Fatalf("sentence %q has span [%d, %d) in a page of %d bytes", s.text, s.start, s.end, len(page))
			}
			if len(quote.Fold(s.text)) < quote.MinQuote || strings.ContainsAny(s.text, "…") || strings.Contains(s.text, "...") {
				continue // too short for the locator, or with what it reads as a cut
			}
			m, ok := p.FindFrom(1, utf8.RuneCountInString(page[:s.start]), s.text)
			if !ok {
				t.Errorf("sentence %q is not in its span %q of the page", s.text, page[s.start:s.end])
				continue
			}
			from, to := extent(m)
			if from, to, _ := byteOffsets(page, from, to); from < s.start || to > s.end {
				t.Errorf("sentence %q is found at %q, outside its span %q", s.text, page[from:to], page[s.start:s.end])
			}
		}
	})
}
