// Package recursion counts down by recursion, as deep as its input says.
package recursion

// Down counts down from n, one call per step.
func Down(n int) int {
	if n <= 0 {
		return 0
	}
	return Down(n-1) + 1
}
