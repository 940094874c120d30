package ident

import "testing"

func TestNormalizeDOI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.1145/2815400.2815428", "10.1145/2815400.2815428"},
		{"https://doi.org/10.18637/JSS.v014.i06", "10.18637/jss.v014.i06"},
		{"http://dx.doi.org/10.2307/2938229.", "10.2307/2938229"},
		{"doi:10.1002/jae.659,", "10.1002/jae.659"},
		{"10.1016/0304-4076(85)90158-7", "10.1016/0304-4076(85)90158-7"},
		{"(10.1016/0304-4076(85)90158-7)", ""},
		{"10.1016/0304-4076(85)90158-7)", "10.1016/0304-4076(85)90158-7"},
		{"10.48550/arXiv.2112.04426", "10.48550/arxiv.2112.04426"},
		{"10.1234/", ""},
		{"not a doi", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeDOI(tt.in); got != tt.want {
			t.Errorf("NormalizeDOI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFindDOI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"See DOI: 10.18637/jss.v011.i10. More", "10.18637/jss.v011.i10"},
		{"https://doi.org/10.1145/2815400.2815428\nnext", "10.1145/2815400.2815428"},
		{"no identifiers here", ""},
	}
	for _, tt := range tests {
		if got := FindDOI(tt.in); got != tt.want {
			t.Errorf("FindDOI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeArxiv(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2112.04426v1", "2112.04426"},
		{"arXiv:1706.03762v7", "1706.03762"},
		{"quant-ph/9508027v2", "quant-ph/9508027"},
		{"math.GT/0309136", "math.gt/0309136"},
		{"10.48550/arXiv.2205.14135", "2205.14135"},
		{"https://arxiv.org/abs/2305.13048v1", "2305.13048"},
		{"1234.5", ""},
		{"hello", ""},
	}
	for _, tt := range tests {
		if got := NormalizeArxiv(tt.in); got != tt.want {
			t.Errorf("NormalizeArxiv(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFindArxiv(t *testing.T) {
	tests := []struct{ in, want string }{
		{"arXiv:1706.03762v7 [cs.CL] 2 Aug 2023", "1706.03762"},
		{"arXiv:quant-ph/9508027v2 25 Jan 1996", "quant-ph/9508027"},
		{"ArXiv: 2305.13048", "2305.13048"},
		{"2112.04426 without prefix", ""},
	}
	for _, tt := range tests {
		if got := FindArxiv(tt.in); got != tt.want {
			t.Errorf("FindArxiv(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArxivYear(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{{"2112.04426", 2021}, {"1706.03762", 2017}, {"quant-ph/9508027", 1995}, {"cs/0112017", 2001}, {"x", 0}}
	for _, tt := range tests {
		if got := ArxivYear(tt.in); got != tt.want {
			t.Errorf("ArxivYear(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func FuzzNormalizeDOI(f *testing.F) {
	for _, s := range []string{"10.1145/2815400.2815428", "https://doi.org/10.1/x)", "doi:10.1/(", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := NormalizeDOI(s)
		if d != "" && NormalizeDOI(d) != d {
			t.Errorf("NormalizeDOI not idempotent: %q -> %q -> %q", s, d, NormalizeDOI(d))
		}
	})
}
