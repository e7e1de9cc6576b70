package shared

import "testing"

// PutGrade makes shared a package explored itself: its files are then
// rewritten for its own binary too (the loader shares their syntax trees
// between the package and its test variant).
func PutGrade(t *testing.T, n int) {
	if Grade(n) == 1 && n == 77 {
		t.Fatal("77 is mid")
	}
}
