package rt

import (
	"fmt"
	"testing"
)

// A symbolic key looked up in a map with more keys than a key is compared
// with is pinned to its value: the implicit branch key == value, whose
// constant has the key's kind. For a string key that is the string, not
// a number (the string's fingerprint made an integer constant of kind
// string, an arena the coordinator could not decode).
func TestMapKeyPinnedToItsValue(t *testing.T) {
	t.Run("string", func(t *testing.T) {
		begin(t)
		m := map[string]int{}
		for i := range maxMapEntries + 1 {
			m[fmt.Sprint("k", i)] = i
		}
		ks := mk(Node{Op: OpInput, K: KString})
		MapKeyI(9, m, "k3", ks, false)
		checkPin(t, ks, KString, func(n Node) bool { return n.Op == OpStr && n.Str == "k3" })
	})
	t.Run("int", func(t *testing.T) {
		begin(t)
		m := map[int16]bool{}
		for i := range maxMapEntries + 1 {
			m[int16(-i)] = true
		}
		ks := mk(Node{Op: OpInput, K: KInt16})
		MapKeyI(9, m, int16(-3), ks, false)
		checkPin(t, ks, KInt16, func(n Node) bool { return n.Op == OpConst && n.K == KInt16 && n.Val == 0xfffd })
	})
}

// checkPin checks that the run pinned key ks of kind k, with a
// concretization, to the constant value accepts.
func checkPin(t *testing.T, ks S, k Kind, value func(Node) bool) {
	t.Helper()
	if len(cur.events) != 1 || len(cur.conc) != 1 {
		t.Fatalf("events %+v, concretized %+v; want one pin and its concretization", cur.events, cur.conc)
	}
	ev := cur.events[0]
	eq := cur.nodes[ev.Cond]
	if !ev.Implicit || !ev.Taken || eq.Op != OpEq || eq.K2 != k || eq.A != ks {
		t.Fatalf("pin = %+v, node %+v; want the implicit branch key == value, taken", ev, eq)
	}
	if c := cur.nodes[eq.B]; !value(c) {
		t.Fatalf("pinned to %+v (%s), want the key's value as a constant of kind %v", c, ExprString(cur.nodes, ev.Cond), k)
	}
}
