// Package q is imported by p's tests, for -instrument-module.
package q

// Twice doubles x.
func Twice(x int) int { return 2 * x }
