package wrongput

import "testing"

// PutX has no *testing.T.
func PutX(a int) { Pos(a) }

// PutY takes its *testing.T second.
func PutY(a int, t *testing.T) {
	if Pos(a) != (a > 0) {
		t.Fatal(a)
	}
}

type suite struct{}

// PutZ is a method.
func (suite) PutZ(t *testing.T, a int) { Pos(a) }

func PutOK(t *testing.T, a int) {
	if Pos(a) != (a > 0) {
		t.Fatal(a)
	}
}

// Putter is not named like a PUT: no warning.
func Putter() {}
