package loopvarfile

import "testing"

func TestSum(t *testing.T) {
	if got, gotNew := Sum([]int{1, 2, 3}), SumNew([]int{1, 2, 3}); got != 9 || gotNew != 6 {
		t.Errorf("Sum, SumNew = %d, %d, want 9, 6", got, gotNew)
	}
}

// PutSum fails whenever a and b differ: the closures of Sum all return b.
func PutSum(t *testing.T, a, b int) {
	if Sum([]int{a, b}) != SumNew([]int{a, b}) {
		t.Error("closures in a loop do not see their own element")
	}
}
