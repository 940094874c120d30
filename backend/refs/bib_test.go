package refs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sampleBib = `% references of a paper
@string{tocs = "ACM Transactions on Computer Systems"}
@comment{ignored entirely}

@inproceedings{ongaro2014raft,
  author    = {Diego Ongaro and John Ousterhout},
  title     = {In Search of an {U}nderstandable Consensus Algorithm},
  booktitle = {Proc. {USENIX} {ATC}},
  year      = 2014,
  pages     = {305--319}
}

@article{lamport98,
  author  = "Leslie Lamport",
  title   = "The Part-Time Parliament",
  journal = tocs,
  year    = "1998",
  doi     = {https://doi.org/10.1145/279227.279229},
}

@misc{vaswani2017attention,
  title         = {Attention Is All You Need},
  author        = {Vaswani, Ashish and Shazeer, Noam and others},
  year          = {2017},
  eprint        = {1706.03762v5},
  archivePrefix = {arXiv},
  primaryClass  = {cs.CL}
}

@article(schroeder,
  author = {Fred B. Schneider and M{\"u}ller, J{\'e}r{\^o}me},
  title = {Implementing Fault-Tolerant Services Using the State Machine Approach: A Tutorial},
  journal = {ACM Computing Surveys},
  year = {1990},
  url = {https://arxiv.org/abs/quant-ph/9508027}
)
`

func TestParseBib(t *testing.T) {
	got := parseBib(sampleBib)
	for i := range got {
		got[i].Raw = ""
	}
	want := []Citation{
		{ID: "ongaro2014raft", Display: "Ongaro and Ousterhout 2014", Title: "In Search of an Understandable Consensus Algorithm", Authors: []string{"Diego Ongaro", "John Ousterhout"},
			Year: 2014, Venue: "Proc. USENIX ATC"},
		{ID: "lamport98", Display: "Lamport 1998", Title: "The Part-Time Parliament", Authors: []string{"Leslie Lamport"}, Year: 1998, Venue: "ACM Transactions on Computer Systems",
			DOI: "10.1145/279227.279229", IDs: []string{"doi:10.1145/279227.279229"}},
		{ID: "vaswani2017attention", Display: "Vaswani and Shazeer 2017", Title: "Attention Is All You Need", Authors: []string{"Vaswani, Ashish", "Shazeer, Noam"}, Year: 2017,
			ArxivID: "1706.03762", IDs: []string{"arxiv:1706.03762"}},
		{ID: "schroeder", Display: "Schneider and Muller 1990", Title: "Implementing Fault-Tolerant Services Using the State Machine Approach: A Tutorial",
			Authors: []string{"Fred B. Schneider", "Muller, Jerome"}, Year: 1990, Venue: "ACM Computing Surveys",
			ArxivID: "quant-ph/9508027", IDs: []string{"arxiv:quant-ph/9508027"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("parseBib (-want +got):\n%s", d)
	}
}

func TestParseBbl(t *testing.T) {
	bbl := `\begin{thebibliography}{10}

\bibitem[Lamport(2001)]{lamport2001paxos}
Leslie Lamport.
\newblock Paxos made simple.
\newblock {\em ACM SIGACT News}, 32(4):18--25, 2001.

\bibitem{ongaro}
D.~Ongaro and J.~Ousterhout.
\newblock In search of an understandable consensus algorithm.
\newblock In {\em Proc. USENIX ATC}, 2014.
\newblock doi:10.5555/2643634.2643666.

\end{thebibliography}
`
	got := parseBbl(bbl)
	if len(got) != 2 {
		t.Fatalf("parseBbl found %d entries, want 2: %+v", len(got), got)
	}
	if got[0].ID != "lamport2001paxos" || got[0].Title != "Paxos made simple" || got[0].Year != 2001 {
		t.Errorf("first entry = %+v", got[0])
	}
	if got[1].ID != "ongaro" || got[1].Title != "In search of an understandable consensus algorithm" || got[1].DOI != "10.5555/2643634.2643666" {
		t.Errorf("second entry = %+v", got[1])
	}
}
