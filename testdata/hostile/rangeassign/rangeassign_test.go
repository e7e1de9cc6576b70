package rangeassign

import "testing"

type cursor struct{ v int }

// PutIntoField ranges over its input with the element assigned to a
// struct field: it fails when an element is 42.
func PutIntoField(t *testing.T, xs []int) {
	var c cursor
	for _, c.v = range xs {
		if c.v == 42 {
			t.Error("42")
		}
	}
}
