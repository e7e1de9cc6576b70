package namecollide

import "testing"

func PutMax(t *testing.T, a, b int) {
	if m := Max(a, b); m < a || m < b {
		t.Errorf("Max(%d, %d) = %d", a, b, m)
	}
}
