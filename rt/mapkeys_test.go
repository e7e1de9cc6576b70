package rt

import (
	"reflect"
	"testing"
	"unsafe"
)

// tagged is a composite key: its leaves are X, Tag and P (the blank
// field is no leaf, as == leaves it out).
type tagged struct {
	X   int
	_   int
	Tag string
	P   *int
}

// A composite key reaches the entry whose leaves all equal its own: a
// leaf compared concretely that differs (a string, a pointer) rules an
// entry out on every input, with no branch; the symbolic leaf's equality
// is the one branch recorded, and the blank field is not compared. Its
// shadow is read from the cells of the key's leaves (KeyOf).
func TestMapKeyComparesLeaves(t *testing.T) {
	begin(t)
	n := 0
	m := map[tagged]int{{X: 1, Tag: "a"}: 1, {X: 3, Tag: "b", P: &n}: 2, {X: 3, Tag: "b"}: 3}
	xs := mk(Node{Op: OpInput, K: KInt})
	k := &tagged{X: 3, Tag: "b"}
	Escape(k) // cells need a stable address, as instrumented code's do
	St(uintptr(unsafe.Pointer(&k.X)), xs, 3)
	ks := KeyOf(k)
	if len(ks) != 3 || ks[0] != xs || ks[1] != 0 || ks[2] != 0 {
		t.Fatalf("KeyOf = %v, want [%d 0 0]: one shadow per leaf, the cell of X", ks, xs)
	}
	if got := MapKeyT(9, m, *k, ks, false); got != *k {
		t.Fatalf("MapKeyT returned %+v, want the key", got)
	}
	if len(cur.events) != 1 {
		t.Fatalf("events %+v, want one: X == 3 for the entry whose other leaves are equal", cur.events)
	}
	ev := cur.events[0]
	eq := cur.nodes[ev.Cond]
	if !ev.Implicit || !ev.Taken || eq.Op != OpEq || eq.A != xs || cur.nodes[eq.B].Val != 3 {
		t.Fatalf("branch %+v: %s, want the implicit branch X == 3, taken", ev, ExprString(cur.nodes, ev.Cond))
	}
	if len(cur.conc) != 0 {
		t.Fatalf("concretized %+v, want nothing", cur.conc)
	}
}

// A lookup with a symbolic composite key in a map whose table holds
// another symbolic composite key branches on the conjunction of the
// leaves' equalities, and the value stored under the key keeps its
// shadow.
func TestMapKeyConjunction(t *testing.T) {
	begin(t)
	in := func(i uint64) S { return mk(Node{Op: OpInput, K: KInt, Val: i}) }
	x1, y1, x2, y2, v := in(0), in(1), in(2), in(3), in(4)
	m := map[[2]int]int{}
	MapKeyT(1, m, [2]int{5, 6}, KS{x1, y1}, true)
	m[[2]int{5, 6}] = 7
	MapStT(m, [2]int{5, 6}, KS{x1, y1}, v, 7)
	MapKeyT(2, m, [2]int{5, 6}, KS{x2, y2}, false)
	if len(cur.events) != 1 {
		t.Fatalf("events %+v, want one", cur.events)
	}
	ev := cur.events[0]
	if got, want := ExprString(cur.nodes, ev.Cond), ExprString(cur.nodes, and(mk(Node{Op: OpEq, K: KBool, K2: KInt, A: x2, B: x1}), mk(Node{Op: OpEq, K: KBool, K2: KInt, A: y2, B: y1}))); got != want || !ev.Taken {
		t.Fatalf("branch %s (taken %v), want %s, taken", got, ev.Taken, want)
	}
	if sh := MapLdSh(m, [2]int{5, 6}); sh.At(7) != v {
		t.Fatalf("value shadow %+v, want %d", sh, v)
	}
}

// A composite key compared with more keys than the bound is pinned to
// its value leaf by leaf, with a concretization.
func TestMapKeyCompositePinned(t *testing.T) {
	begin(t)
	m := map[tagged]bool{}
	for i := 0; i <= maxMapEntries; i++ {
		m[tagged{X: i, Tag: "t"}] = true
	}
	xs := mk(Node{Op: OpInput, K: KInt})
	ts := mk(Node{Op: OpInput, K: KString, Val: 1})
	MapKeyT(9, m, tagged{X: 3, Tag: "t"}, KS{xs, ts, 0}, false)
	if len(cur.events) != 1 || len(cur.conc) != 1 {
		t.Fatalf("events %+v, concretized %+v; want one pin and its concretization", cur.events, cur.conc)
	}
	got := ExprString(cur.nodes, cur.events[0].Cond)
	want := ExprString(cur.nodes, and(mk(Node{Op: OpEq, K: KBool, K2: KInt, A: xs, B: constant(KInt, 3)}), mk(Node{Op: OpEq, K: KBool, K2: KString, A: ts, B: strConst("t")})))
	if got != want {
		t.Fatalf("pin %s, want %s", got, want)
	}
}

// Keys of more leaves than the tables follow keep no table: a symbolic
// value stored under one is a concretization.
func TestMapKeyTooManyLeaves(t *testing.T) {
	begin(t)
	m := map[[maxKeyLeaves + 1]int]int{}
	var k [maxKeyLeaves + 1]int
	m[k] = 1
	MapStT(m, k, nil, mk(Node{Op: OpInput, K: KInt}), 1)
	if len(cur.conc) != 1 {
		t.Fatalf("concretized %+v, want the value stored under an untracked key", cur.conc)
	}
}

// A range loop's key gets the shadows of its table entry in its leaves'
// cells (MapKeyKS, KeySt), and a key without shadows clears what the
// cells held before.
func TestMapKeyRangeShadows(t *testing.T) {
	begin(t)
	xs := mk(Node{Op: OpInput, K: KInt})
	m := map[tagged]int{}
	k := tagged{X: 4, Tag: "t"}
	MapKeyT(1, m, k, KS{xs, 0, 0}, true)
	m[k] = 1
	MapStT(m, k, KS{xs, 0, 0}, 0, 0)
	v := new(tagged)
	Escape(v)
	for key := range m {
		*v = key
		KeySt(v, MapKeyKS(m, *v))
	}
	if got := KeyOf(v); len(got) != 3 || got[0] != xs {
		t.Fatalf("the range key's shadow %v, want X's %d", got, xs)
	}
	KeySt(v, nil)
	if got := KeyOf(v); got != nil {
		t.Fatalf("after KeySt(nil) the key's shadow is %v, want none", got)
	}
}

// xy is a struct map key of an input.
type xy struct{ X, Y int }

// A map input with struct keys stores its slots in order, each key
// compared with the keys before it leaf by leaf (equal keys make a
// smaller map), the table gets the keys' leaf shadows, and the map
// flattens back with its keys in the order of their leaves.
func TestMapInputStructKeys(t *testing.T) {
	begin(t)
	l := &Layout{
		Params: []Param{{Name: "m", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeMap, Type: "map[xy]int", Key: 1, Elem: 2},
			{Kind: ShapeStruct, Type: "xy", Fields: []Field{{Name: "X", Index: 0, Shape: 2}, {Name: "Y", Index: 1, Shape: 2}}},
			{Kind: ShapeScalar, Type: "int", K: KInt},
		},
		MaxLen: 2,
	}
	types := []reflect.Type{reflect.TypeFor[map[xy]int]()}
	if err := checkLayout(l, types, nil); err != nil {
		t.Fatal(err)
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 7 || leaves[1].Path != "key(m, 0).X" {
		t.Fatalf("leaves %+v, want len(m) and 2 × (X, Y, value)", leaves)
	}
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	vals := []Value{{Bits: 2}, {Bits: 5}, {Bits: 6}, {Bits: 1}, {Bits: 5}, {Bits: 6}, {Bits: 2}}
	b := newBuilder(l, l.Choices(), nil, vals)
	v, _ := b.arg(0, types[0])
	m := v.Interface().(map[xy]int)
	if len(m) != 1 || m[xy{5, 6}] != 2 {
		t.Fatalf("map %v, want the second slot's value under the one key", m)
	}
	var conds []string
	for _, ev := range cur.events {
		conds = append(conds, ExprString(cur.nodes, ev.Cond))
	}
	last := len(cur.events) - 1
	if last < 0 || !cur.events[last].Taken || conds[last] != "((in4 == in1) && (in5 == in2))" {
		t.Fatalf("events %q, want the length choice, then key 1 == key 0, leaf by leaf, taken", conds)
	}
	if ks := MapKeyKS(m, xy{5, 6}); len(ks) != 2 || ks[0] == 0 || ks[1] == 0 {
		t.Fatalf("the table's key shadow %v, want both leaves'", ks)
	}
}
