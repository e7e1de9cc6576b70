package loop

import (
	"slices"
	"testing"
)

// The tests state what Go 1.21 does; an instrumented build must agree.

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 9 {
		t.Errorf("Sum = %d, want 9 (every closure sees the last element)", got)
	}
}

func TestRunes(t *testing.T) {
	if got := string(Runes("abc")); got != "ccc" {
		t.Errorf("Runes = %q, want ccc", got)
	}
}

func TestKeys(t *testing.T) {
	got := Keys(map[string]int{"a": 1, "b": 2, "c": 3})
	if len(got) != 3 || got[0] != got[1] || got[1] != got[2] {
		t.Errorf("Keys = %q, want one key three times", got)
	}
}

func TestReceived(t *testing.T) {
	c := make(chan int, 3)
	c <- 1
	c <- 2
	c <- 3
	close(c)
	if got := Received(c); !slices.Equal(got, []int{3, 3, 3}) {
		t.Errorf("Received = %v, want [3 3 3]", got)
	}
}

func TestCounted(t *testing.T) {
	if got := Counted(3); !slices.Equal(got, []int{3, 3, 3}) {
		t.Errorf("Counted = %v, want [3 3 3]", got)
	}
}

func TestTotal(t *testing.T) {
	if got := Total([]int{1, 2, 3}); got != 9 {
		t.Errorf("Total = %d, want 9", got)
	}
}

// PutSum fails whenever a and b differ: the closures all return b.
func PutSum(t *testing.T, a, b int) {
	if Sum([]int{a, b}) != a+b {
		t.Error("closures in a loop do not see their own element")
	}
}

// PutTotal is PutSum through a package that is not instrumented.
func PutTotal(t *testing.T, a, b int) {
	if Total([]int{a, b}) != a+b {
		t.Error("closures in a loop do not see their own element")
	}
}

// PutSumIs20 fails when b is 10: the solver must see what the closures
// return.
func PutSumIs20(t *testing.T, a, b int) {
	if Sum([]int{a, b}) == 20 {
		t.Error("the closures return 10")
	}
}
