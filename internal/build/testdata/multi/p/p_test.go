package p

import (
	"testing"

	"example.com/multi/q"
)

func PutAbs(t *testing.T, x int) {
	if Abs(q.Twice(x)) < 0 {
		t.Error("negative")
	}
}
