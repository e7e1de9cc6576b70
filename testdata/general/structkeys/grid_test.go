package grid

import "testing"

func PutLandmark(t *testing.T, x, y int) {
	if Landmark(x, y) == "tower" {
		t.Error("the tower is out of bounds")
	}
}

func PutBoard(t *testing.T, x1, y1, x2, y2 int, c byte) {
	b := NewBoard()
	b.Set(1, 2, '#')
	b.Set(x1, y1, c)
	if b.At(x2, y2) == '#' && x2 > 5 {
		t.Error("a wall outside the walls")
	}
}

func PutClear(t *testing.T, x1, y1, x2, y2 int) {
	b := NewBoard()
	b.Set(x1, y1, '.')
	b.Set(2, 3, '.')
	b.Clear(x2, y2)
	if b.Len() == 0 {
		t.Error("the board is empty")
	}
}

func PutDigrams(t *testing.T, s string) {
	if Digrams(s)[digram{'o', 'k'}] == 2 {
		t.Error("ok twice")
	}
}
