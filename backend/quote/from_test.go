package quote

import "testing"

// TestFindFrom: a quote the page holds twice is found at the first place
// at or after the offset asked for, and its spans are offsets into the
// page's whole text.
func TestFindFrom(t *testing.T) {
	text := "Each server stores a current term number. Later: each server stores a current term number, again.\nThe end."
	p := NewPaper([]Page{{Number: 3, Text: text}, {Number: 4, Text: "Next page."}})
	q := "each server stores a current term"
	first, ok := p.FindFrom(3, 0, q)
	if !ok || first.Spans[0].From != 0 {
		t.Fatalf("from 0: %+v, %v", first, ok)
	}
	second, ok := p.FindFrom(3, 1, q)
	want := len([]rune("Each server stores a current term number. Later: "))
	if !ok || second.Spans[0].From != want || p.Text(second) != "each server stores a current term" {
		t.Fatalf("from 1: %+v (%q), %v; want the second, at %d", second, p.Text(second), ok, want)
	}
	if m, ok := p.FindFrom(3, want+1, q); ok {
		t.Errorf("past the second: %+v", m)
	}
	if m, ok := p.FindFrom(3, len([]rune(text))+5, q); ok {
		t.Errorf("past the page's end: %+v", m)
	}
	if m, ok := p.FindFrom(9, 1, q); ok {
		t.Errorf("on a page the paper lacks: %+v", m)
	}
}
