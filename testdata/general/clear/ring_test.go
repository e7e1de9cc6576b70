package ring

import "testing"

func PutReset(t *testing.T, a, b int) {
	r := New(2)
	r.Push(a)
	r.Push(b)
	r.Reset()
	if r.Sum() != 0 {
		t.Error("samples left after a reset")
	}
}
