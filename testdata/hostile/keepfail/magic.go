// Package keepfail has a bug that only a search of more than one run
// finds: a later run with -max-runs 1 must not lose it.
package keepfail

// Check is wrong for one pair of inputs.
func Check(a, b int) bool {
	if a == 12345 && b == 678 {
		return false
	}
	return true
}

// Boom panics for one input.
func Boom(a int) int {
	if a == 4242 {
		var p *int
		return *p
	}
	return a
}
