package geom

import "testing"

func PutOverlap(t *testing.T, a, b Rect) {
	if a.W <= 0 || a.H <= 0 || b.W <= 0 || b.H <= 0 || a.W > 100 || a.H > 100 || b.W > 100 || b.H > 100 {
		t.Skip("rectangles of sizes 1 to 100")
	}
	if r, ok := Overlap(a, b); ok && r.W*r.H == 6 && r.X > 0 {
		t.Error("an overlap of area 6")
	}
}

func PutClamp(t *testing.T, v int16) {
	if Clamp(v, -5, 20) == -5 {
		t.Error("clamped to the floor")
	}
}

func PutFirst(t *testing.T, a, b string) {
	if First(a, b, "m") == "go" {
		t.Error("go first")
	}
}
