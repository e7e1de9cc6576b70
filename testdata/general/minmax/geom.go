// Package geom computes with axis-aligned rectangles.
package geom

// Rect is an axis-aligned rectangle: its corner and size.
type Rect struct{ X, Y, W, H int }

// Overlap is the intersection of a and b, and whether they intersect.
func Overlap(a, b Rect) (Rect, bool) {
	x1 := max(a.X, b.X)
	y1 := max(a.Y, b.Y)
	x2 := min(a.X+a.W, b.X+b.W)
	y2 := min(a.Y+a.H, b.Y+b.H)
	if x1 < x2 && y1 < y2 {
		return Rect{x1, y1, x2 - x1, y2 - y1}, true
	}
	return Rect{}, false
}

// Clamp limits v to [lo, hi].
func Clamp(v, lo, hi int16) int16 {
	return min(max(v, lo), hi)
}

// First is the name that sorts first of the three.
func First(a, b, c string) string {
	return min(a, b, c)
}
