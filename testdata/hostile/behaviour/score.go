// Package behaviour changes what Score returns between two runs of dowse
// gen: the regression rows' expectations change, and dowse says so.
package behaviour

// Score rates x.
func Score(x int) int {
	if x > 10 {
		return 99
	}
	return x
}
