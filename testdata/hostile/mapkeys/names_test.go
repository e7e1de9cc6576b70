package mapkeys

import "testing"

func PutName(t *testing.T, a, b int) {
	if Name(a, b) == "three-four" {
		t.Error("three-four")
	}
}

func PutNameArray(t *testing.T, a, b int) {
	if NameArray(a, b) == "three-four" {
		t.Error("three-four")
	}
}

func PutNameAny(t *testing.T, n int) {
	if NameAny(n) == "three" {
		t.Error("three")
	}
}

func PutNameFloat(t *testing.T, n int) {
	if NameFloat(n) == "three" {
		t.Error("three")
	}
}

func PutFound(t *testing.T, a, b int) {
	if Found(a, b) {
		t.Error("found")
	}
}

func PutDropped(t *testing.T, a, b int) {
	if Dropped(a, b) {
		t.Error("dropped")
	}
}
