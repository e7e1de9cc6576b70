package lexer

import "testing"

func PutKinds(t *testing.T, s string) {
	if Kinds(s) == "Udsl" {
		t.Fatal("upper, digit, space, lower")
	}
}
