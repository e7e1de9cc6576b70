// Package a is a module of a workspace.
package a

// Sign classifies x.
func Sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
