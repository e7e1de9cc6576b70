package stalefile

import "testing"

func PutMin(t *testing.T, a, b int) {
	if m := Min(a, b); m > a || m > b {
		t.Errorf("Min(%d, %d) = %d", a, b, m)
	}
}
