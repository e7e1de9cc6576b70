// Package geom measures shapes and tallies them by area.
package geom

// Shape is a plane figure with an area.
type Shape interface {
	Area() int
}

// Square is a square of side Side.
type Square struct{ Side int }

// Area is the square's area.
func (s Square) Area() int { return s.Side * s.Side }

// Rect is a W by H rectangle.
type Rect struct{ W, H int }

// Area is the rectangle's area.
func (r Rect) Area() int { return r.W * r.H }

var dozens map[int]int

// Tally measures a square of side a, or, for kind 1, an a by b
// rectangle, and counts the shapes of a dozen square units.
func Tally(kind, a, b int) int {
	var s Shape = Square{a}
	if kind == 1 {
		s = Rect{a, b}
	}
	area := s.Area()
	if area == 12 {
		dozens[area]++ // dozens is never made: a write to a nil map
	}
	return area
}

// Width is the width of a rectangle, the side of a square.
func Width(kind, a, b int) string {
	var s Shape = Square{a}
	if kind == 1 {
		s = Rect{a, b}
	}
	if r, ok := s.(Rect); ok && r.W > r.H {
		return "landscape"
	}
	switch x := s.(type) {
	case Square:
		if x.Side == 9 {
			return "nine"
		}
	}
	return "other"
}
