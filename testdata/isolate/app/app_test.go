package app

import "testing"

func PutAdmit(t *testing.T, n int) {
	if s := Admit(n); s == "" {
		t.Error("no answer")
	}
}

func PutPrice(t *testing.T, n int) {
	if s := Price(n); s == "" {
		t.Error("no answer")
	}
}
