package p

import . "os"

// CheckDot exits when x is 7, through a dot import.
func CheckDot(x int) int {
	if x == 7 {
		Exit(5)
	}
	return x
}
