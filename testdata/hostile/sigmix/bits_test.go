package sigmix

import "testing"

func PutEasy(t *testing.T, a int) {
	if Easy(a) == 3 {
		t.Fatal("3")
	}
}

func PutMix(t *testing.T, a, b uint64) {
	if Mix(a, b) == 17 {
		t.Fatal("17")
	}
}
