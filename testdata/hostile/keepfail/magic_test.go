package keepfail

import "testing"

func PutCheck(t *testing.T, a, b int) {
	if !Check(a, b) {
		t.Errorf("Check(%d, %d) is false", a, b)
	}
}

func PutBoom(t *testing.T, a int) {
	_ = Boom(a)
}
