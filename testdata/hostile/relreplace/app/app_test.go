package app

import "testing"

func TestAllowed(t *testing.T) {
	t.Setenv("SIZE_FILE", "")
	if Allowed() {
		t.Fatal("a missing file is allowed")
	}
}
