package meter

import "testing"

func PutClamp(t *testing.T, v float64) {
	if c := Clamp(v, 0, 100); !(c >= 0 && c <= 100) {
		t.Error("clamped value outside [0, 100]")
	}
}

func PutMicros(t *testing.T, sec float64) {
	us, err := Micros(sec)
	if err == nil && us == 1500000 && sec != 1.5 {
		t.Error("another time reads as 1.5 s")
	}
}

func PutLevel(t *testing.T, x float32) {
	if Level(x) == "mid" && x*3 > 1.99 {
		t.Error("a mid reading at the top of the range")
	}
}

func PutRatio(t *testing.T, part, whole float64) {
	if r := Ratio(part, whole); r != r {
		t.Error("ratio is NaN")
	}
}
