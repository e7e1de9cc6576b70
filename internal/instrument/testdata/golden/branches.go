// Package golden holds small functions whose instrumented form is kept
// next to them (x.go.golden), to show what the rewrite does.
package golden

// Sign branches on comparisons of an integer with constants.
func Sign(x int) int {
	if x < 0 {
		return -1
	}
	if x == 0 {
		return 0
	}
	return 1
}

// Both compares two inputs and combines the comparisons with &&.
func Both(a, b int8) bool {
	return a+1 > b && b != 3
}
