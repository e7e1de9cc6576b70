package right

import "testing"

func PutLabel(t *testing.T, n int) {
	if Label(n) == "high" && n == 95 {
		t.Fatal("95 is high")
	}
}
