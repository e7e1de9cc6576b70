package keptstale

import "testing"

func PutA(t *testing.T, x int) {
	if Pos(x) != (x > 0) {
		t.Fatal(x)
	}
}

func PutB(t *testing.T, x int) {
	if x > 3 && !Pos(x) {
		t.Fatal(x)
	}
}
