package namecollide

import "testing"

// TestDowsePutMax is a hand-written test that happens to have the name
// dowse would give PutMax's generated test.
func TestDowsePutMax(t *testing.T) {
	if Max(1, 2) != 2 {
		t.Fatal("Max(1, 2) != 2")
	}
}
