package ident

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindArxivs(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"stamp, version stripped", "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017", []string{"1706.03762"}},
		{"preprint prefix", "Towards a human-like open-domain chatbot. arXiv preprint arXiv:2001.09977, 2020.", []string{"2001.09977"}},
		{"CoRR abs", "Persistent anti-muslim bias. CoRR, abs/2101.05783, 2021. URL https://arxiv.org/abs/2101.05783.", []string{"2101.05783"}},
		{"link only", "URL https://arxiv.org/pdf/2112.06905.", []string{"2112.06905"}},
		{"broken after the dot", "Pythia. arXiv preprint\narXiv:2304.\n01373.", []string{"2304.01373"}},
		{"space instead of colon", "Longformer. arXiv 2004.05150.", []string{"2004.05150"}},
		{"arXiv DOI", "doi:10.48550/arXiv.2112.04426", []string{"2112.04426"}},
		{"old style with prefix", "arXiv:quant-ph/9508027v2 25 Jan 1996", []string{"quant-ph/9508027"}},
		{"old style without prefix", "P. W. Shor, quant-ph/9508027; also hep-th/9901001v3.", []string{"quant-ph/9508027", "hep-th/9901001"}},
		{"old style with subject class", "E-print cs.DC/0101001.", []string{"cs.dc/0101001"}},
		{"several, deduplicated, in order", "arXiv:1910.02054 and arXiv:1706.03762, again arXiv:1910.02054v3", []string{"1910.02054", "1706.03762"}},
		{"bare number is not an id", "pages 1706.03762 of something", nil},
		{"month 13 is not an id", "arXiv:1713.00001", nil},
		{"five digits only since 2015", "arXiv:1412.12345 arXiv:1412.1234", []string{"1412.1234"}},
		{"path is not an old id", "see papers/1234567 and foo/7654321", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, FindArxivs(tt.in)); d != "" {
				t.Errorf("FindArxivs(%q) (-want +got):\n%s", tt.in, d)
			}
		})
	}
}
