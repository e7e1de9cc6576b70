package p

import "testing"

// PutPlatform is built on linux only (the file name says so).
func PutPlatform(t *testing.T, x int) {
	if Platform(x) == "" {
		t.Error("empty")
	}
}
