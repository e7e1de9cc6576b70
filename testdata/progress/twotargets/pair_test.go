package pair

import "testing"

func PutParse(t *testing.T, s string) {
	k, v, ok := Parse(s)
	if ok && k+"="+v != s {
		t.Errorf("Parse(%q) = %q, %q", s, k, v)
	}
}

func PutWeight(t *testing.T, s string) {
	if Weight(s) > 2*len(s) {
		t.Errorf("Weight(%q) = %d", s, Weight(s))
	}
}
