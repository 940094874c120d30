package refs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// DOIs as the corpus's reference lists print them, broken by line ends.
func TestFindDOIs(t *testing.T) {
	tests := []struct {
		name, in       string
		best, readings []string
	}{
		{"plain", "Econometrica, 59, 817–858. doi:10.2307/2938229.",
			[]string{"10.2307/2938229"}, []string{"10.2307/2938229"}},
		{"broken after the slash", "Econometrica, 60(4), 953–966. doi:10.2307/\n2951574.",
			[]string{"10.2307/2951574"}, []string{"10.2307/2951574"}},
		{"space after the slash", "SOSP 2015. doi: 10.1145/ 2815400.2815428",
			[]string{"10.1145/2815400.2815428"}, []string{"10.1145/2815400.2815428"}},
		{"broken after a dot", "Linguistics. doi: 10.18653/v1/2020.\nacl-tutorials.1. URL https://aclanthology.org/2020.acl-tutorials.1.",
			[]string{"10.18653/v1/2020.acl-tutorials.1"}, []string{"10.18653/v1/2020.acl-tutorials.1"}},
		{"broken after a dot before digits", "Statistician, 54, 217–224. doi:10.1080/00031305.\n2000.10474549.",
			[]string{"10.1080/00031305.2000.10474549"}, []string{"10.1080/00031305.2000.10474549"}},
		{"broken after a parenthesis", "Data Analysis, 45, 215–233. doi:10.1016/s0167-9473(02)\n00366-3.",
			[]string{"10.1016/s0167-9473(02)00366-3"}, []string{"10.1016/s0167-9473(02)00366-3"}},
		{"broken after a hyphen: both readings", "SOSP. doi:10.1145/2815400.28-\n15428.",
			[]string{"10.1145/2815400.28-15428"}, []string{"10.1145/2815400.28-15428", "10.1145/2815400.2815428"}},
		{"year on the next line is a second reading only", "10.1145/3458723\n2021.",
			[]string{"10.1145/3458723"}, []string{"10.1145/3458723", "10.1145/34587232021"}},
		{"next entry is not joined", "Econometrica, 55, 703–708. doi:10.2307/1913610.\nNewey WK, West KD (1994).",
			[]string{"10.2307/1913610"}, []string{"10.2307/1913610"}},
		{"URL after it is not joined", "doi: 10.18653/v1/N19-1423.\nURL https://www.aclweb.org/anthology/N19-1423.",
			[]string{"10.18653/v1/n19-1423"}, []string{"10.18653/v1/n19-1423"}},
		{"resolver link, upper case", "URL https://doi.org/10.18637/JSS.v014.i06.",
			[]string{"10.18637/jss.v014.i06"}, []string{"10.18637/jss.v014.i06"}},
		{"arXiv DOI", "doi:10.48550/arXiv.2112.04426", []string{"10.48550/arxiv.2112.04426"}, []string{"10.48550/arxiv.2112.04426"}},
		{"none", "Paxos made simple. ACM SIGACT News 32, 4 (2001), 18–25.", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			best, readings := findDOIs(tt.in)
			if d := cmp.Diff(tt.best, best); d != "" {
				t.Errorf("best DOIs of %q (-want +got):\n%s", tt.in, d)
			}
			if d := cmp.Diff(tt.readings, readings); d != "" {
				t.Errorf("DOI readings of %q (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

func TestIdentifiersAliasArxivDOIs(t *testing.T) {
	got := identifiers([]string{"10.48550/arxiv.2112.04426", "10.1145/3458723"}, []string{"1706.03762", "2112.04426"})
	want := []string{"doi:10.48550/arxiv.2112.04426", "arxiv:2112.04426", "doi:10.1145/3458723", "arxiv:1706.03762"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("identifiers (-want +got):\n%s", d)
	}
}
