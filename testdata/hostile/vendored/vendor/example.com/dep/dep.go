// Package dep is a vendored dependency.
package dep

// Limit is the largest value Clamp keeps.
const Limit = 10

// Clamp limits n to [0, Limit].
func Clamp(n int) int {
	if n < 0 {
		return 0
	}
	if n > Limit {
		return Limit
	}
	return n
}
