// Package terrain finds features of a height map.
package terrain

// Point is a cell's coordinates.
type Point struct{ X, Y int }

// Peak reports whether the cell at p is higher than its four neighbours
// (cells missing from heights are at height 0).
func Peak(heights map[Point]int, p Point) bool {
	h, ok := heights[p]
	if !ok {
		return false
	}
	for _, d := range []Point{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
		if heights[Point{p.X + d.X, p.Y + d.Y}] >= h {
			return false
		}
	}
	return true
}

// Span is a range of columns on a row.
type Span [3]int16

// Covered reports whether the column x of the row y is in one of the
// spans that are switched on.
func Covered(on map[Span]bool, x, y int16) bool {
	for s, lit := range on {
		if lit && s[0] == y && s[1] <= x && x < s[2] {
			return true
		}
	}
	return false
}
