package resources

import "testing"

// PutBuffer passes on every input, given the memory.
func PutBuffer(t *testing.T, n uint8) {
	if Buffer(n) < 0 {
		t.Error("negative")
	}
}

// PutWait passes on every input, given the time.
func PutWait(t *testing.T, n uint8) {
	if Wait(n) < 0 && n != 100 {
		t.Error("negative")
	}
}
