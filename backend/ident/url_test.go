package ident

import "testing"

func TestDOIURL(t *testing.T) {
	for doi, want := range map[string]string{
		"10.1145/2815400.2815428":       "https://doi.org/10.1145/2815400.2815428",
		"10.1016/S0140-6736(20)30183-5": "https://doi.org/10.1016/S0140-6736%2820%2930183-5",
		"10.1002/(sici)1097-4571[1999]": "https://doi.org/10.1002/%28sici%291097-4571%5B1999%5D",
		"10.1000/a#b?c%d e":             "https://doi.org/10.1000/a%23b%3Fc%25d%20e",
		"10.1000/ü":                     "https://doi.org/10.1000/%C3%BC",
	} {
		if got := DOIURL(doi); got != want {
			t.Errorf("DOIURL(%q) = %q, want %q", doi, got, want)
		}
	}
}
