//go:build mytag

package p

// Mode says whether the tag is set.
func Mode(x int) int {
	if x == 7 {
		return 70
	}
	return 1
}
