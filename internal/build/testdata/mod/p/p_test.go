package p

import "testing"

// dowsert collides with the harness's preferred import name.
var dowsert = 1

func PutAbs(t *testing.T, x int) {
	if Abs(x) < 0 {
		t.Error("negative")
	}
}

func PutMap(t *testing.T, m map[[2]float64]int) {}

func TestAnswer(t *testing.T) { t.Logf("answer %d", Answer()) }
