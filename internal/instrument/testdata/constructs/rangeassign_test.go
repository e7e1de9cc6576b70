package constructs

import (
	"slices"
	"testing"
)

func TestRangeIntoMemory(t *testing.T) {
	a, last, runes := RangeIntoMemory([]int{5, 6, 7})
	if !slices.Equal(a, []int{6, 7, 0, 0}) || last.v != 8 || runes != 'h'+'é'+'l'+'l'+'o'+2 {
		t.Errorf("RangeIntoMemory = %v, %v, %d", a, last, runes)
	}
}
