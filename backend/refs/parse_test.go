package refs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Entries as the corpus prints them (PDFium's lines), one per citation
// style the parser knows.
func TestParseEntry(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  Citation // Raw, IDs and Display are not compared
	}{
		{"ACM small caps, title after the initials",
			[]string{"BURROWS, M. The Chubby lock service for loosely-coupled", "distributed systems. In Proceedings of the Symposium on",
				"Operating Systems Design and Implementation (OSDI) (2006)."},
			Citation{Title: "The Chubby lock service for loosely-coupled distributed systems", Authors: []string{"BURROWS, M."}, Year: 2006,
				Venue: "Proceedings of the Symposium on Operating Systems Design and Implementation (OSDI)"}},
		{"ACM, several inverted names",
			[]string{"FISCHER, M. J., LYNCH, N. A., AND PATERSON, M. S. Impossibility", "of distributed consensus with one faulty process. J. ACM 32, 2", "(Apr. 1985), 374-382."},
			Citation{Title: "Impossibility of distributed consensus with one faulty process", Authors: []string{"FISCHER, M. J.", "LYNCH, N. A.", "PATERSON, M. S."},
				Year: 1985, Venue: "J. ACM 32, 2 (Apr. 1985), 374-382"}},
		{"IEEE, quoted title",
			[]string{"P. Hunt, M. Konar, F. P. Junqueira, and B. Reed, “ZooKeeper: Wait-free", "coordination for Internet-scale systems,” in USENIX ATC’10: Proceedings of the 2010 USENIX Annual Technical Conference. USENIX", "Association, 2010."},
			Citation{Title: "ZooKeeper: Wait-free coordination for Internet-scale systems", Authors: []string{"P. Hunt", "M. Konar", "F. P. Junqueira", "B. Reed"}, Year: 2010,
				Venue: "USENIX ATC’10: Proceedings of the 2010 USENIX Annual Technical Conference. USENIX Association"}},
		{"JSS, year in parentheses and a DOI",
			[]string{"Zeileis A (2004). “Econometric Computing with HC and HAC Covariance Matrix Estimators.”", "Journal of Statistical Software, 11(10), 1–17. doi:10.18637/jss.v011.i10."},
			Citation{Title: "Econometric Computing with HC and HAC Covariance Matrix Estimators", Authors: []string{"Zeileis A"}, Year: 2004,
				Venue: "Journal of Statistical Software, 11(10), 1–17", DOI: "10.18637/jss.v011.i10"}},
		{"JSS, DOI broken after its slash",
			[]string{"Andrews DWK, Monahan JC (1992). “An Improved Heteroskedasticity and Autocorrelation", "Consistent Covariance Matrix Estimator.” Econometrica, 60(4), 953–966. doi:10.2307/", "2951574."},
			Citation{Title: "An Improved Heteroskedasticity and Autocorrelation Consistent Covariance Matrix Estimator", Authors: []string{"Andrews DWK", "Monahan JC"},
				Year: 1992, Venue: "Econometrica, 60(4), 953–966", DOI: "10.2307/2951574"}},
		{"ACL, year after the names",
			[]string{"Iz Beltagy, Matthew E. Peters, and Arman Cohan.", "2020. Longformer: The long-document transformer.", "arXiv:2004.05150."},
			Citation{Title: "Longformer: The long-document transformer", Authors: []string{"Iz Beltagy", "Matthew E. Peters", "Arman Cohan"}, Year: 2020, ArxivID: "2004.05150"}},
		{"LNCS, colon after the names",
			[]string{"Van Renesse, R., Schneider, F.: Chain replication for supporting high throughput and", "availability. In: 6th Symp. on Operating Systems Design and Implementation (OSDI ’04). (December 2004)"},
			Citation{Title: "Chain replication for supporting high throughput and availability", Authors: []string{"Van Renesse, R.", "Schneider, F."}, Year: 2004,
				Venue: "6th Symp. on Operating Systems Design and Implementation (OSDI ’04)"}},
		{"Elsevier, commas only",
			[]string{"T. Chandra, S. Toueg, Unreliable failure detectors for reliable distributed systems, J. ACM 43 (2) (1996) 225–267."},
			Citation{Title: "Unreliable failure detectors for reliable distributed systems", Authors: []string{"T. Chandra", "S. Toueg"}, Year: 1996,
				Venue: "J. ACM 43 (2) (1996) 225–267"}},
		{"initials first, full stop after the names",
			[]string{"Y. Bengio, P. Simard, and P. Frasconi. Learning long-term dependencies", "with gradient descent is difficult. IEEE Transactions on Neural", "Networks, 5(2):157–166, 1994."},
			Citation{Title: "Learning long-term dependencies with gradient descent is difficult", Authors: []string{"Y. Bengio", "P. Simard", "P. Frasconi"}, Year: 1994,
				Venue: "IEEE Transactions on Neural Networks, 5(2):157–166"}},
		{"inverted names, title starting with a capitalised word",
			[]string{"Kudo, T. and Richardson, J. SentencePiece: A simple and language independent subword tokenizer", "and detokenizer for neural text processing. CoRR, abs/1808.06226, 2018."},
			Citation{Title: "SentencePiece: A simple and language independent subword tokenizer and detokenizer for neural text processing",
				Authors: []string{"Kudo, T.", "Richardson, J."}, Year: 2018, Venue: "CoRR", ArxivID: "1808.06226"}},
		{"old-style arXiv id",
			[]string{"P. W. Shor, Polynomial-time algorithms for prime factorization and discrete logarithms on a", "quantum computer, arXiv:quant-ph/9508027v2."},
			Citation{Title: "Polynomial-time algorithms for prime factorization and discrete logarithms on a quantum computer", Authors: []string{"P. W. Shor"},
				ArxivID: "quant-ph/9508027"}},
		{"arXiv DOI stands for the arXiv id",
			[]string{"S. Borgeaud et al. Improving language models by retrieving from trillions of tokens. 2021. doi:10.48550/arXiv.2112.04426."},
			Citation{Title: "Improving language models by retrieving from trillions of tokens", Authors: []string{"S. Borgeaud"}, Year: 2021,
				DOI: "10.48550/arxiv.2112.04426", ArxivID: "2112.04426"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseEntry(entryText{lines: tt.lines})
			got.Raw, got.IDs, got.Display = "", nil, ""
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("parseEntry(%q) (-want +got):\n%s", strings.Join(tt.lines, "\n"), d)
			}
		})
	}
}

func TestJoinLines(t *testing.T) {
	got := joinLines([]string{"The Chubby lock service for loosely-", "coupled distributed systems. URL https:", "//doi.org/10.1145/", "3458723."})
	want := "The Chubby lock service for loosely-coupled distributed systems. URL https://doi.org/10.1145/3458723."
	if got != want {
		t.Errorf("joinLines = %q, want %q", got, want)
	}
}

func TestDisplay(t *testing.T) {
	tests := []struct {
		label   string
		authors []string
		year    int
		want    string
	}{
		{"12", []string{"L. Lamport"}, 0, "[12]"},
		{"", []string{"Zeileis A"}, 2004, "Zeileis 2004"},
		{"", []string{"Kudo, T.", "Richardson, J."}, 2018, "Kudo and Richardson 2018"},
		{"", []string{"Iz Beltagy", "Matthew E. Peters", "Arman Cohan"}, 2020, "Beltagy et al. 2020"},
	}
	for _, tt := range tests {
		if got := display(tt.label, tt.authors, tt.year); got != tt.want {
			t.Errorf("display(%q, %q, %d) = %q, want %q", tt.label, tt.authors, tt.year, got, tt.want)
		}
	}
}
