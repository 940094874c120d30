package pdf

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caption is a figure's or a table's caption found on a page, with where
// it is and where the figure or table it labels is.
type Caption struct {
	Page  int    // physical page number, 1-based
	Kind  string // "figure" or "table"
	Label string // "Figure 3", "Table II": the kind spelt out, the number as printed
	Text  string // the caption from its label on, at most maxCaptionText bytes
	// Box holds the caption's lines; Region the figure or table with its
	// caption. Both in points from the top-left of the page as shown (as
	// Render takes a region), inside the page.
	Box    Rect
	Region Rect
}

// Caption kinds.
const (
	KindFigure = "figure"
	KindTable  = "table"
)

// maxCaptionText bounds a caption's text: a caption is a few sentences,
// and past that the lines below it are body text run on.
const maxCaptionText = 1000

// captionStart matches a line that may open a caption: the kind's word
// (Figure, Fig., Table, Tab., in any case), its number (3, 3.1, S2, II,
// A.4, 3b), and what follows it (a colon, a period, a bar, a dash, text,
// or nothing).
var captionStart = regexp.MustCompile(`^(?i:(figure|fig\.?|table|tab\.))\s*((?:[A-Z]\.?)?\d+(?:\.\d+)?[a-z]?|[IVXLC]+)(?:\s*([:.|—–]|-\s)\s*|\s+|$)(.*)$`)

// captionLabel parses a line as the start of a caption: its kind, its
// label, and how strongly it reads as one (2: the number is followed by a
// colon, period, bar or dash, or stands alone; 1: by a capitalised word;
// 0: not a caption, such as "Figure 3 shows", "Fig. 2(a)").
func captionLabel(line string) (kind, label string, strength int) {
	m := captionStart.FindStringSubmatch(line)
	if m == nil {
		return "", "", 0
	}
	word, num, sep, rest := strings.ToLower(m[1]), m[2], m[3], m[4]
	kind = KindFigure
	if strings.HasPrefix(word, "tab") {
		kind = KindTable
	}
	// A roman number is a table's (TABLE II) or an upper-case figure's
	// (FIG. IV) and needs the word in capitals: "Figure I" is no label.
	if strings.Trim(num, "IVXLC") == "" && m[1] != strings.ToUpper(m[1]) {
		return "", "", 0
	}
	label = strings.ToUpper(kind[:1]) + kind[1:] + " " + num
	switch {
	case sep != "":
		return kind, label, 2
	case rest == "":
		return kind, label, 2
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if unicode.IsUpper(r) {
		return kind, label, 1
	}
	return "", "", 0
}

// maybeCaptions reports whether a page's text has a line that opens a
// caption: only such pages are read again with their character boxes.
func maybeCaptions(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if _, _, s := captionLabel(strings.TrimSpace(line)); s > 0 {
			return true
		}
	}
	return false
}

// textLine is one line of a page's text with the box its characters fill.
type textLine struct {
	text  string
	box   [4]float64 // x0, y0, x1, y1; zero when no character has a box
	runes int
	// gappy is a line with a wide blank inside it, wider than a line is
	// high: a table's row, not prose, whose words are a space apart.
	gappy bool
}

func (l textLine) width() float64  { return l.box[2] - l.box[0] }
func (l textLine) height() float64 { return l.box[3] - l.box[1] }
func (l textLine) drawn() bool     { return l.box != [4]float64{} }

// linesOf splits a page's text into lines with their boxes.
func linesOf(pc PageChars) []textLine {
	var out []textLine
	var cur textLine
	var b strings.Builder
	k := 0
	last := -1.0 // where the line's last drawn character ends
	flush := func() {
		last = -1
		cur.text = strings.TrimSpace(b.String())
		if cur.text != "" {
			out = append(out, cur)
		}
		cur = textLine{}
		b.Reset()
	}
	for _, r := range pc.Text {
		if r == '\n' {
			flush()
			k++
			continue
		}
		b.WriteRune(r)
		cur.runes++
		if k < len(pc.Boxes) && pc.Boxes[k] != [4]float64{} {
			b := pc.Boxes[k]
			if last >= 0 && b[0]-last > 1.2*(b[3]-b[1]) {
				cur.gappy = true
			}
			last = b[2]
			cur.box = union(cur.box, b)
		}
		k++
	}
	flush()
	return out
}

// pageGeometry is what a page's body text says of its layout.
type pageGeometry struct {
	width, height float64
	left, right   float64 // the text area's sides
	top           float64 // where the page's text starts
	twoColumns    bool
	lineHeight    float64 // the body's usual line height
}

// geometryOf finds a page's text area and columns from its long lines:
// on a page set in two columns, few of them cross the middle.
func geometryOf(pc PageChars, lines []textLine) pageGeometry {
	g := pageGeometry{width: pc.Width, height: pc.Height, left: pc.Width, top: pc.Height}
	var body []textLine
	var heights []float64
	for _, l := range lines {
		if !l.drawn() {
			continue
		}
		g.top = math.Min(g.top, l.box[1])
		if l.width() >= 0.25*pc.Width && l.runes >= 30 {
			body = append(body, l)
			heights = append(heights, l.height())
			g.left, g.right = math.Min(g.left, l.box[0]), math.Max(g.right, l.box[2])
		}
	}
	if len(body) == 0 {
		g.left, g.right = 0.1*pc.Width, 0.9*pc.Width
		g.lineHeight = 10
		return g
	}
	slices.Sort(heights)
	g.lineHeight = heights[len(heights)/2]
	mid := (g.left + g.right) / 2
	crossing := 0
	for _, l := range body {
		if l.box[0] < mid-10 && l.box[2] > mid+10 {
			crossing++
		}
	}
	g.twoColumns = crossing*10 < len(body)*3
	return g
}

// column is the horizontal extent a caption's figure or table takes: the
// whole text width, or the caption's column on a two-column page when the
// caption stays on its side of the middle.
func (g pageGeometry) column(box [4]float64) (float64, float64) {
	mid := (g.left + g.right) / 2
	switch {
	case !g.twoColumns || (box[0] < mid-10 && box[2] > mid+10):
		return g.left, g.right
	case (box[0]+box[2])/2 < mid:
		return g.left, mid
	default:
		return mid, g.right
	}
}

// findCaptions returns the captions on a page with their regions. A line
// opens a caption when it starts with a label (captionLabel) and does not
// carry on the sentence of the line above it ("as shown in / Figure 3.").
func findCaptions(pc PageChars) []Caption {
	if pc.Width <= 0 || pc.Height <= 0 || !maybeCaptions(pc.Text) {
		return nil
	}
	lines := linesOf(pc)
	g := geometryOf(pc, lines)
	var out []Caption
	starts := map[int]bool{}
	type found struct {
		at          int
		kind, label string
		strength    int
	}
	var cands []found
	for i, l := range lines {
		kind, label, s := captionLabel(l.text)
		if s == 0 || !l.drawn() || carriesOn(lines, i, g) {
			continue
		}
		cands = append(cands, found{i, kind, label, s})
		starts[i] = true
	}
	seen := map[string]bool{}
	var kept []found
	var boxes [][4]float64
	var texts []string
	for _, c := range cands {
		if seen[c.label] {
			continue // the same label twice on a page: the first is the caption
		}
		seen[c.label] = true
		box, text := captionBlock(lines, c.at, starts, g)
		kept, boxes, texts = append(kept, c), append(boxes, box), append(texts, text)
	}
	for k, c := range kept {
		box, text := boxes[k], texts[k]
		colL, colR := g.column(box)
		// Captions side by side (subfigures' own) share the column out.
		for j, o := range boxes {
			if j == k || o[3] < box[1] || o[1] > box[3] {
				continue
			}
			if o[2] <= box[0] {
				colL = math.Max(colL, (o[2]+box[0])/2)
			} else if o[0] >= box[2] {
				colR = math.Min(colR, (box[2]+o[0])/2)
			}
		}
		colL, colR = math.Min(colL, box[0]), math.Max(colR, box[2])
		var region [4]float64
		if c.kind == KindTable {
			region = tableRegion(lines, box, colL, colR, g, starts)
		} else {
			region = figureRegion(lines, box, colL, colR, g, starts)
		}
		out = append(out, Caption{
			Page: pc.Number, Kind: c.kind, Label: c.label, Text: truncate(text, maxCaptionText),
			Box: clampRect(box, g, 1), Region: clampRect(union(region, box), g, 3),
		})
	}
	return out
}

// carriesOn reports whether line i continues the sentence of the line
// just above it: that line is body text (wide), close above, in the same
// column, and does not end a sentence.
func carriesOn(lines []textLine, i int, g pageGeometry) bool {
	if i == 0 {
		return false
	}
	prev, l := lines[i-1], lines[i]
	if !prev.drawn() || prev.gappy || prev.width() < 0.3*g.width*columnShare(g) {
		return false
	}
	gap := l.box[1] - prev.box[3]
	if gap < -0.5*l.height() || gap > 0.8*math.Max(l.height(), prev.height()) {
		return false
	}
	if prev.box[2] < l.box[0] || l.box[2] < prev.box[0] {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(prev.text)
	return !strings.ContainsRune(".:;!?)", last)
}

// columnShare is the part of the page's width one column takes.
func columnShare(g pageGeometry) float64 {
	if g.twoColumns {
		return 0.5
	}
	return 1
}

// captionBlock is the box and text of the caption that starts at line
// at: that line and those below it set close under it, up to the next
// caption or maxCaptionText.
func captionBlock(lines []textLine, at int, starts map[int]bool, g pageGeometry) ([4]float64, string) {
	box := lines[at].box
	text := lines[at].text
	bottom, h := box[3], lines[at].height()
	// A caption set smaller than the body ends at a line of the body's size.
	least := h
	ended := strings.HasSuffix(text, ".") && len(text) > 12 && lines[at].width() < 0.85*(g.right-g.left)*columnShare(g)
	for j := at + 1; j < len(lines) && len(text) < maxCaptionText && !starts[j]; j++ {
		l := lines[j]
		if !l.drawn() {
			continue
		}
		gap := l.box[1] - bottom
		if gap < -0.5*h || gap > 0.8*math.Max(h, l.height()) || l.box[2] < box[0] || l.box[0] > box[2]+20 ||
			(least < 0.93*g.lineHeight && l.height() >= 0.97*g.lineHeight) {
			break
		}
		if ended {
			break
		}
		box = union(box, l.box)
		bottom, h = l.box[3], l.height()
		least = math.Min(least, h)
		// A line that ends a sentence short of the caption's right edge
		// ends its paragraph: what follows is the body's.
		ended = strings.HasSuffix(l.text, ".") && l.box[2] < box[2]-0.5*h
		if strings.HasSuffix(text, "-") {
			text = text[:len(text)-1] + l.text
		} else {
			text += " " + l.text
		}
	}
	return box, text
}

// inColumn reports whether most of line l lies between colL and colR.
func inColumn(l textLine, colL, colR float64) bool {
	over := math.Min(l.box[2], colR) - math.Max(l.box[0], colL)
	return l.drawn() && over > 0.5*l.width()
}

// bodyLine reports whether l is a line of a paragraph of the column:
// nearly as wide as the column, with another such line just above or
// below it. Text inside a figure (labels, legends) is short.
func bodyLine(lines []textLine, i int, colL, colR float64, g pageGeometry) bool {
	wide := func(l textLine) bool {
		return inColumn(l, colL, colR) && !l.gappy && l.width() >= 0.6*(colR-colL) && l.runes >= 20
	}
	l := lines[i]
	if !wide(l) {
		return false
	}
	for _, o := range lines {
		if o.box == l.box || !wide(o) {
			continue
		}
		d := math.Abs(o.box[1] - l.box[1])
		if d > 0.3*l.height() && d < 2*math.Max(l.height(), g.lineHeight) {
			return true
		}
	}
	return false
}

// figureRegion is the figure a caption labels: the area of its column
// from the nearest paragraph or other caption above the caption down to
// the caption, or, when the caption is right under text, from the
// caption down to the nearest paragraph below.
func figureRegion(lines []textLine, box [4]float64, colL, colR float64, g pageGeometry, starts map[int]bool) [4]float64 {
	top, bottom := 0.05*g.height, 0.95*g.height
	for i, l := range lines {
		if !inColumn(l, colL, colR) || !(starts[i] || bodyLine(lines, i, colL, colR, g)) {
			continue
		}
		if l.box[3] <= box[1]+1 {
			top = math.Max(top, l.box[3]+2)
		} else if l.box[1] >= box[3]-1 && !starts[i] {
			bottom = math.Min(bottom, l.box[1]-2)
		}
	}
	if box[1]-top >= 24 {
		return [4]float64{colL, top, colR, box[3]}
	}
	return [4]float64{colL, box[1], colR, math.Max(bottom, box[3])}
}

// tableRegion is the table a caption labels: the lines set close to each
// other on the side of the caption nearer to text (most tables have their
// caption above, some below), in the caption's column.
func tableRegion(lines []textLine, box [4]float64, colL, colR float64, g pageGeometry, starts map[int]bool) [4]float64 {
	var above, below []textLine
	prose := map[[4]float64]bool{}
	for i, l := range lines {
		if !inColumn(l, colL, colR) {
			continue
		}
		if starts[i] || bodyLine(lines, i, colL, colR, g) {
			prose[l.box] = true
		}
		switch {
		case l.box[3] <= box[1]+1:
			above = append(above, l)
		case l.box[1] >= box[3]-1:
			below = append(below, l)
		}
	}
	slices.SortFunc(below, func(a, b textLine) int { return cmpF(a.box[1], b.box[1]) })
	slices.SortFunc(above, func(a, b textLine) int { return cmpF(b.box[3], a.box[3]) })
	maxGap := math.Max(12, 1.4*g.lineHeight)
	gapBelow, gapAbove := math.Inf(1), math.Inf(1)
	if len(below) > 0 {
		gapBelow = below[0].box[1] - box[3]
	}
	if len(above) > 0 {
		gapAbove = box[1] - above[0].box[3]
	}
	// The table is on the nearer side, unless prose starts there and
	// not on the other.
	useBelow := gapBelow <= gapAbove
	if len(below) > 0 && len(above) > 0 && prose[below[0].box] != prose[above[0].box] {
		useBelow = !prose[below[0].box]
	}
	if useBelow && gapBelow <= 3*maxGap {
		end := box[3]
		for _, l := range below {
			if l.box[1]-end > math.Max(maxGap, gapBelow+2) || prose[l.box] {
				break
			}
			end = math.Max(end, l.box[3])
		}
		return [4]float64{colL, box[1], colR, end}
	}
	if gapAbove <= 3*maxGap {
		start := box[1]
		for _, l := range above {
			if start-l.box[3] > math.Max(maxGap, gapAbove+2) || prose[l.box] {
				break
			}
			start = math.Min(start, l.box[1])
		}
		return [4]float64{colL, start, colR, box[3]}
	}
	return box
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// clampRect pads a box and clamps it to the page, as a Rect.
func clampRect(b [4]float64, g pageGeometry, pad float64) Rect {
	x0, y0 := math.Max(0, b[0]-pad), math.Max(0, b[1]-pad)
	x1, y1 := math.Min(g.width, b[2]+pad), math.Min(g.height, b[3]+pad)
	r2 := func(v float64) float64 { return math.Round(v*10) / 10 }
	return Rect{X: r2(x0), Y: r2(y0), Width: r2(math.Max(0, x1-x0)), Height: r2(math.Max(0, y1-y0))}
}

// documentCaptions keeps one caption per label in a document: a label
// found on several pages (a caption, then a line of text that starts
// with it) is the caption where it reads most like one, the first of
// those.
func documentCaptions(all []Caption) []Caption {
	best := map[string]int{}
	for i, c := range all {
		j, ok := best[c.Label]
		if !ok || captionStrength(c) > captionStrength(all[j]) {
			best[c.Label] = i
		}
	}
	var out []Caption
	for i, c := range all {
		if best[c.Label] == i {
			out = append(out, c)
		}
	}
	return out
}

func captionStrength(c Caption) int {
	_, _, s := captionLabel(c.Text)
	return s
}
