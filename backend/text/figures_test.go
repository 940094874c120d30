package text

import (
	"reflect"
	"testing"
)

func TestFigureNames(t *testing.T) {
	tests := []struct {
		s    string
		want []string
	}{
		{"What does Figure 1 show?", []string{"Figure 1"}},
		{"explain fig. 2 and table ii", []string{"Figure 2", "Table II"}},
		{"in figure A.1", []string{"Figure A.1"}},
		{"Tab 4 against figures 12", []string{"Table 4", "Figure 12"}},
		{"a configuration of 3 tables", nil},
		{"transfigure 3", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range FigureNames(tt.s, -1) {
			got = append(got, f.Label)
			if named := tt.s[f.Start:f.End]; FigureNames(named, -1)[0].Label != f.Label {
				t.Errorf("%q: the span %q does not name %s", tt.s, named, f.Label)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("FigureNames(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}
