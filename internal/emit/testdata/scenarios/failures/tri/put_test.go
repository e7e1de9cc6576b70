package tri

import "testing"

func PutClassify(t *testing.T, a, b, c int) {
	if a <= 0 {
		t.Skip("assumes a > 0")
	}
	if k := Classify(a, b, c); k != Equilateral {
		t.Errorf("Classify(%d, %d, %d) = %d, want Equilateral", a, b, c, k)
	}
}

func PutRemove(t *testing.T, elems []int, k Kind) {}

func PutRemoveFailures(t *testing.T) {}
