package quote

// Rect is a rectangle on a page in PDF points from the page's top-left
// corner, as the page is shown (after its rotation): x0, y0, x1, y1.
type Rect = [4]float64

// Rects are the rectangles covering the runes [from, to) of a page's text,
// one per run of characters on a line, given each rune's box: boxes[i] is
// rune i's, and a zero box marks a rune drawn nowhere (spaces, line breaks).
func Rects(boxes []Rect, from, to int) []Rect {
	var out []Rect
	var cur Rect
	open := false
	for i := max(from, 0); i < to && i < len(boxes); i++ {
		b := boxes[i]
		if b == (Rect{}) || b[2] <= b[0] || b[3] <= b[1] {
			continue
		}
		if open && sameLine(cur, b) {
			cur = Rect{min(cur[0], b[0]), min(cur[1], b[1]), max(cur[2], b[2]), max(cur[3], b[3])}
			continue
		}
		if open {
			out = append(out, cur)
		}
		cur, open = b, true
	}
	if open {
		out = append(out, cur)
	}
	return out
}

// sameLine reports whether box b continues the run r on its line: they
// share most of their height, and b starts near r's end, to its right.
func sameLine(r, b Rect) bool {
	h := min(r[3]-r[1], b[3]-b[1])
	overlap := min(r[3], b[3]) - max(r[1], b[1])
	if h <= 0 || overlap < h/2 {
		return false
	}
	return b[0] >= r[2]-h && b[0]-r[2] < 3*h
}

// Contains reports whether point (x, y) lies in one of rects.
func Contains(rects []Rect, x, y float64) bool {
	for _, r := range rects {
		if x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3] {
			return true
		}
	}
	return false
}
