package refs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// body is a page of running prose.
const body = `Consensus protocols let a set of servers agree on a sequence of values even when some of
them fail. In this section we describe how the leader replicates its log and why the
protocol stays safe when messages are lost, delayed or delivered out of order.
The “References” line of a message lists the messages it depends on.`

func entriesOf(t *testing.T, pages ...string) []string {
	t.Helper()
	es, _, _ := extractEntries(pages)
	var out []string
	for _, e := range es {
		out = append(out, joinLines(e.lines))
	}
	return out
}

func TestExtractEntries(t *testing.T) {
	tests := []struct {
		name  string
		pages []string
		want  []string
	}{
		{"numbered list across a page break, running heads and an appendix dropped",
			[]string{
				"Paxos Made Moderately Complex\n" + body + "\n1",
				"Paxos Made Moderately Complex\n" + body + "\nReferences\n" +
					"[1] P. Alvaro, T. Condie, N. Conway, J.M. Hellerstein, and R.C. Sears. I Do Declare: Consensus in a logic language. In Proceedings\n" +
					"of the SOSP Workshop on Networking Meets\nDatabases (NetDB), 2009.\n" +
					"[2] M. Burrows. The Chubby Lock Service for\nloosely-coupled distributed systems. In 7th Symposium on Operating System Design and Implementation, Seattle, WA, November 2006.\n2",
				"Paxos Made Moderately Complex\n[3] L. Lamport. Paxos made simple. ACM\nSIGACT News (Distributed Computing Column), 32(4):51–58, 2001.\n" +
					"A Proofs of the Invariants\n" + body + "\n" + body + "\n" + body + "\n3",
				"Paxos Made Moderately Complex\n" + body + "\n4",
			},
			[]string{
				"P. Alvaro, T. Condie, N. Conway, J.M. Hellerstein, and R.C. Sears. I Do Declare: Consensus in a logic language. In Proceedings of the SOSP Workshop on Networking Meets Databases (NetDB), 2009.",
				"M. Burrows. The Chubby Lock Service for loosely-coupled distributed systems. In 7th Symposium on Operating System Design and Implementation, Seattle, WA, November 2006.",
				"L. Lamport. Paxos made simple. ACM SIGACT News (Distributed Computing Column), 32(4):51–58, 2001.",
			}},
		{"scanned journal: n. labels in sequence, a year at a line start is not one",
			[]string{body, "REFERENCES\n" +
				"1. ATTIYA, A., DOLEV, D., AND GIL, J. Asynchronous Byzantine consensus. In Proceedings of\nthe 3rd ACM Symposium on Principles of Distributed Computing. ACM, New York,\n1984. pp. 119-133.\n" +
				"2. BRACHA, G., AND TOUEG, S. Asynchronous consensus and broadcast protocols. J. ACM 32, 4\n(Oct. 1985), 824-840.\n" +
				"3. DOLEV, D., AND STRONG, H. R. Authenticated algorithms for Byzantine agreement. SIAM J.\nComput. 12 (1983), 656-666.",
			},
			[]string{
				"ATTIYA, A., DOLEV, D., AND GIL, J. Asynchronous Byzantine consensus. In Proceedings of the 3rd ACM Symposium on Principles of Distributed Computing. ACM, New York, 1984. pp. 119-133.",
				"BRACHA, G., AND TOUEG, S. Asynchronous consensus and broadcast protocols. J. ACM 32, 4 (Oct. 1985), 824-840.",
				"DOLEV, D., AND STRONG, H. R. Authenticated algorithms for Byzantine agreement. SIAM J. Comput. 12 (1983), 656-666.",
			}},
		{"author-year list: a new entry starts with a name after a full stop",
			[]string{body, "References\n" +
				"Andrews DWK (1991). “Heteroskedasticity and Autocorrelation Consistent Covariance Matrix Estimation.” Econometrica, 59, 817–858. doi:10.2307/2938229.\n" +
				"Andrews DWK, Monahan JC (1992). “An Improved Heteroskedasticity and Autocorrelation\nConsistent Covariance Matrix Estimator.” Econometrica, 60(4), 953–966. doi:10.2307/\n2951574.\n" +
				"Back A. (2002): Hashcash – A denial of service counter-measure.\n(http://www.hashcash.org/papers/hashcash.pdf)\n" +
				"Nakamoto S. (2008): Bitcoin: A peer-to-peer electronic cash system.\n(http://www.bitcoin.org/bitcoin.pdf)\n" +
				"R Development Core Team (2008). R: A Language and Environment for Statistical Computing.",
			},
			[]string{
				"Andrews DWK (1991). “Heteroskedasticity and Autocorrelation Consistent Covariance Matrix Estimation.” Econometrica, 59, 817–858. doi:10.2307/2938229.",
				"Andrews DWK, Monahan JC (1992). “An Improved Heteroskedasticity and Autocorrelation Consistent Covariance Matrix Estimator.” Econometrica, 60(4), 953–966. doi:10.2307/2951574.",
				"Back A. (2002): Hashcash – A denial of service counter-measure. (http://www.hashcash.org/papers/hashcash.pdf)",
				"Nakamoto S. (2008): Bitcoin: A peer-to-peer electronic cash system. (http://www.bitcoin.org/bitcoin.pdf)",
				"R Development Core Team (2008). R: A Language and Environment for Statistical Computing.",
			}},
		{"ACL list: a wrapped title line that starts with A does not end it",
			[]string{body, "References\n" +
				"Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E. Hinton. 2016. Layer normalization.\n" +
				"Nasrin Mostafazadeh, Nathanael Chambers, Xiaodong He, Devi Parikh, Dhruv Batra, Lucy Vanderwende, Pushmeet Kohli, and James Allen. 2016.\n" +
				"A corpus and evaluation framework for deeper\nunderstanding of commonsense stories. arXiv preprint arXiv:1604.01696.\n" +
				"Iz Beltagy, Matthew E. Peters, and Arman Cohan.\n2020. Longformer: The long-document transformer.\narXiv:2004.05150.",
			},
			[]string{
				"Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E. Hinton. 2016. Layer normalization.",
				"Nasrin Mostafazadeh, Nathanael Chambers, Xiaodong He, Devi Parikh, Dhruv Batra, Lucy Vanderwende, Pushmeet Kohli, and James Allen. 2016. A corpus and evaluation framework for deeper understanding of commonsense stories. arXiv preprint arXiv:1604.01696.",
				"Iz Beltagy, Matthew E. Peters, and Arman Cohan. 2020. Longformer: The long-document transformer. arXiv:2004.05150.",
			}},
		{"no heading: the last run from [1]",
			[]string{body + "\n[1] L. Lamport. Paxos made simple. ACM SIGACT News 32, 4 (2001), 18–25.\n[2] B. Lampson. How to build a highly available system using consensus. In Distributed Algorithms, 1996.\n[3] M. Burrows. The Chubby lock service. In OSDI, 2006."},
			[]string{
				"L. Lamport. Paxos made simple. ACM SIGACT News 32, 4 (2001), 18–25.",
				"B. Lampson. How to build a highly available system using consensus. In Distributed Algorithms, 1996.",
				"M. Burrows. The Chubby lock service. In OSDI, 2006.",
			}},
		{"no reference list", []string{body, body}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, entriesOf(t, tt.pages...)); d != "" {
				t.Errorf("entries (-want +got):\n%s", d)
			}
		})
	}
}

func TestExtractEntriesLabels(t *testing.T) {
	es, first, note := extractEntries([]string{body, "References\n[ABC+20] A. Author. One title. 2020.\n[Lam01] L. Lamport. Paxos made simple. 2001.\n[Online] not a label. 2001.\n[Xyz99] X. Yz. Three. 1999."})
	var labels []string
	for _, e := range es {
		labels = append(labels, e.label)
	}
	if d := cmp.Diff([]string{"ABC+20", "Lam01", "Xyz99"}, labels); d != "" || first != 2 || note != "" {
		t.Errorf("labels (-want +got):\n%s\nfirst page %d, note %q", d, first, note)
	}
	if !strings.Contains(joinLines(es[1].lines), "[Online] not a label") {
		t.Errorf("[Online] started an entry: %q", es[1].lines)
	}
}
