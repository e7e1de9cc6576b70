package p

import xos "os"

// CheckRenamed exits when x is over 100, through a renamed import.
func CheckRenamed(x int) int {
	if x > 100 {
		xos.Exit(4)
	}
	return x
}
