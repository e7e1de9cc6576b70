// Package p has a file that uses cgo beside plain Go.
package p

// Sign classifies x.
func Sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
