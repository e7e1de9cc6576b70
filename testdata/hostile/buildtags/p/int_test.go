// +build integration

package p

import "testing"

// PutMode is built with the integration tag only (an old-style
// constraint, which the go command honours in a file without
// //go:build).
func PutMode(t *testing.T, x int) {
	if Mode(x) < 0 {
		t.Error("negative")
	}
}
