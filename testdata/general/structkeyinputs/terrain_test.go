package terrain

import "testing"

func PutPeak(t *testing.T, heights map[Point]int, p Point) {
	if Peak(heights, p) && heights[p] > 100 {
		t.Error("a peak above 100")
	}
}

func PutCovered(t *testing.T, on map[Span]bool) {
	if Covered(on, 5, 2) {
		t.Error("5, 2 is covered")
	}
}
