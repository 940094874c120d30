package citation

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Region is a rectangle of a page in PDF points from the top-left corner of
// the page as shown (rotation applied): the figure or table a citation
// points at, as the index finds them (index.Rect) and context_read's mode
// "image" takes them. In a URI it is written x,y,width,height with at most
// one decimal.
type Region struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// MaxSide is the longest side of any PDF page, in points (200 inches, the
// limit of PDF's user space): no region of a page reaches past it.
const MaxSide = 14_400

// IsZero reports whether r is no region.
func (r Region) IsZero() bool { return r == Region{} }

// regionNumber is one coordinate as a URI writes it: a number of points
// with at most one decimal, no sign, no exponent.
var regionNumber = regexp.MustCompile(`^[0-9]{1,5}(\.[0-9])?$`)

// ParseRegion reads a region as a URI writes it, "x,y,width,height". Text
// that is not four such numbers is an error (ErrInvalid); a region that can
// lie on no page (empty, or reaching past MaxSide) is not: ok is false and
// the citation keeps its page without it.
func ParseRegion(s string) (r Region, ok bool, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return Region{}, false, invalid("its region must be four numbers: x,y,width,height")
	}
	var v [4]float64
	for i, p := range parts {
		if !regionNumber.MatchString(p) {
			return Region{}, false, invalid("its region must be four numbers: x,y,width,height")
		}
		v[i], _ = strconv.ParseFloat(p, 64)
	}
	r = Region{X: v[0], Y: v[1], Width: v[2], Height: v[3]}
	if r.Width <= 0 || r.Height <= 0 || r.X+r.Width > MaxSide || r.Y+r.Height > MaxSide {
		return Region{}, false, nil
	}
	return r, true, nil
}

// Rounded is r with each coordinate to a tenth of a point, as a URI
// carries it; a region that could lie on no page is zero.
func (r Region) Rounded() Region {
	round := func(v float64) float64 { return math.Round(v*10) / 10 }
	out := Region{X: round(r.X), Y: round(r.Y), Width: round(r.Width), Height: round(r.Height)}
	if !(out.X >= 0 && out.Y >= 0 && out.Width > 0 && out.Height > 0 && out.X+out.Width <= MaxSide && out.Y+out.Height <= MaxSide) {
		return Region{}
	}
	return out
}

// String writes r as a URI's fragment holds it: "x,y,width,height".
func (r Region) String() string {
	r = r.Rounded()
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return f(r.X) + "," + f(r.Y) + "," + f(r.Width) + "," + f(r.Height)
}

// Inside reports whether r lies on a page width × height points, give or
// take slack points at each edge (a figure's outline may overrun the page
// by its stroke).
func (r Region) Inside(width, height, slack float64) bool {
	return !r.IsZero() && r.X >= 0 && r.Y >= 0 && r.X+r.Width <= width+slack && r.Y+r.Height <= height+slack
}

// WithRegion is u citing region r of its page: r rounded as the URI
// writes it; none for a URI without a page, or an r that could lie on no
// page.
func (u URI) WithRegion(r Region) URI {
	if u.Page == 0 || u.URL != "" {
		r = Region{}
	}
	u.Region = r.Rounded()
	return u
}

// OnPage is u with its region dropped when it does not lie on its page,
// width × height points: a region is where the citation says the figure
// is, never trusted past the page it is on.
func (u URI) OnPage(width, height float64) URI {
	if !u.Region.IsZero() && !u.Region.Inside(width, height, 1) {
		u.Region = Region{}
	}
	return u
}
