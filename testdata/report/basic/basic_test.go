package basic

import "testing"

func PutKind(t *testing.T, b []byte) {
	if Kind(b) == "b" && len(b) == 3 && b[2] == '!' {
		t.Error("a bang after a B")
	}
}
