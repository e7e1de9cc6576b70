//go:build !mytag

package p

// Mode says whether the tag is set.
func Mode(x int) int { return 0 }
