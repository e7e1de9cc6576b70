package app

import "testing"

func PutPrice(t *testing.T, code string) {
	if Price(code) > 1000 {
		t.Fatal("expensive")
	}
}
