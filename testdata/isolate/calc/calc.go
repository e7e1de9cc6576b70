// Package calc is pure: its calls stay real.
package calc

// Clamp returns x within [lo, hi].
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
