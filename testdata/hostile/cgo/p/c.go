package p

// static int twice(int x) { return 2 * x; }
import "C"

// Twice doubles x in C, and refuses large numbers.
func Twice(x int) int {
	if x > 100 {
		return -1
	}
	return int(C.twice(C.int(x)))
}
