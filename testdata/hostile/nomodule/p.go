// Package p is not in a module.
package p

// F is positive for a above 1.
func F(a int) int {
	if a > 1 {
		return 1
	}
	return 0
}
