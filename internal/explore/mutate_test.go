package explore

import (
	"slices"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// TestMutantsStayInTheDomain checks that mutants respect the leaves'
// domains (string and slice lengths within their bounds, bools and
// choices 0 or 1, integers within their width), that a byte slice's
// elements beyond its length are zero, and that mutation is
// deterministic.
func TestMutantsStayInTheDomain(t *testing.T) {
	leaves := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 5},
		{Path: "n", K: rt.KInt8},
		{Path: "ok", K: rt.KBool},
		{Path: "len(b)", Param: 3, K: rt.KInt, IsLen: true, Max: 3},
		{Path: "b[0]", Param: 3, K: rt.KUint8},
		{Path: "b[1]", Param: 3, K: rt.KUint8},
		{Path: "b[2]", Param: 3, K: rt.KUint8},
		{Path: "p != nil", K: rt.KBool, Choice: true},
	}
	run := func() [][]rt.Value {
		m := newMutator(1)
		m.keep([]rt.Value{{Str: "ab"}, {Bits: 5}, {Bits: 1}, {Bits: 2}, {Bits: 'x'}, {Bits: 'y'}, {}, {Bits: 1}})
		m.ints = []uint64{42, 0x7f}
		m.strs = []string{"GET", "=="}
		var all [][]rt.Value
		for range 200 {
			all = append(all, m.batch(leaves)...)
		}
		return all
	}
	all := run()
	for _, in := range all {
		if len(in[0].Str) > 5 || in[1].Bits > 0xff || in[2].Bits > 1 || in[3].Bits > 3 || in[7].Bits > 1 {
			t.Fatalf("mutant outside the domain: %v", in)
		}
		for k := int(in[3].Bits); k < 3; k++ {
			if in[4+k].Bits != 0 {
				t.Fatalf("byte %d beyond len(b)=%d is %d: %v", k, in[3].Bits, in[4+k].Bits, in)
			}
		}
	}
	again := run()
	if !slices.EqualFunc(all, again, func(a, b []rt.Value) bool { return slices.Equal(a, b) }) {
		t.Error("mutation is not deterministic")
	}
	dictionary := false
	for _, in := range all {
		if in[1].Bits == 42 || in[1].Bits == 41 || in[1].Bits == 43 || len(in[0].Str) >= 3 && (in[0].Str[:3] == "GET" || in[0].Str[len(in[0].Str)-3:] == "GET") {
			dictionary = true
		}
	}
	if !dictionary {
		t.Error("no mutant used the dictionary")
	}
}

// TestNoLeavesNoMutants: a target without inputs has nothing to mutate
// (this used to panic in the random source).
func TestNoLeavesNoMutants(t *testing.T) {
	m := newMutator(1)
	m.keep(nil)
	if got := m.batch(nil); got != nil {
		t.Errorf("batch without leaves = %v, want none", got)
	}
}
