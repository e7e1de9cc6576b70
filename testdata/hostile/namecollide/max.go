// Package namecollide declares, by hand, tests named as dowse would
// name its generated ones.
package namecollide

// Max returns the larger of a and b, wrongly when a is 7.
func Max(a, b int) int {
	if a > b || a == 7 {
		return a
	}
	return b
}
