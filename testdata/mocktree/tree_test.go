package mocktree

import "testing"

// PutShape fails for a root with two leaves, and for trees of more than
// three nodes, which -max-len 3's node bound leaves out of the domain
// (the nesting depth alone would allow seven).
func PutShape(t *testing.T, tr Tree) {
	switch s := Shape(tr); {
	case len(s) > 6:
		t.Fatalf("%s: more than three nodes", s)
	case s == "(()())":
		t.Fatalf("%s: a root with two leaves", s)
	}
}
