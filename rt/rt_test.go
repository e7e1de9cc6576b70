package rt

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func begin(t *testing.T) {
	t.Helper()
	resetRun(0)
	on.Store(true)
	t.Cleanup(func() { on.Store(false) })
}

func TestOffIsNoOp(t *testing.T) {
	resetRun(0) // other tests leave their runs' events
	on.Store(false)
	if s := Bin(OpAdd, KInt64, 3, 1, 0, 2); s != 0 {
		t.Fatalf("Bin while off = %d, want 0", s)
	}
	if !Br(1, true, 5) || Br(1, false, 5) {
		t.Fatal("Br must return its condition")
	}
	if len(cur.events) != 0 {
		t.Fatalf("events recorded while off: %v", cur.events)
	}
}

func TestBinaryShadows(t *testing.T) {
	begin(t)
	x := mk(Node{Op: OpInput, K: KInt8, Val: 0})
	s := Bin(OpAdd, KInt8, x, 0, 0, uint64(0x1ff))
	n := cur.nodes[s]
	if n.Op != OpAdd || n.A != x || cur.nodes[n.B].Op != OpConst || cur.nodes[n.B].Val != 0xff {
		t.Fatalf("Bin node = %+v, const %+v; want add of x and 0xff (masked to int8)", n, cur.nodes[n.B])
	}
	if Bin(OpAdd, KInt8, 0, 1, 0, 2) != 0 {
		t.Fatal("two concrete operands must give no shadow")
	}
	c := Cmp(OpLt, KInt8, x, 0, 0, 5)
	if cur.nodes[c].K != KBool || cur.nodes[c].K2 != KInt8 {
		t.Fatalf("Cmp node = %+v", cur.nodes[c])
	}
	Br(7, true, c)
	if len(cur.events) != 1 || cur.events[0] != (Event{Site: 7, Taken: true, Cond: c}) {
		t.Fatalf("events = %+v", cur.events)
	}
}

func TestImplicitBranches(t *testing.T) {
	begin(t)
	i := mk(Node{Op: OpInput, K: KInt64})
	Index(3, KInt64, i, 2, 0, 5)
	// The bounds check, then the choice of i: i == 0 and i == 1 not taken,
	// i == 2 taken; exact, so no concretization.
	want := []bool{true, false, false, true}
	if len(cur.events) != len(want) || len(cur.conc) != 0 {
		t.Fatalf("Index: events %+v, concretized %+v; want bounds + choice of 2, no concretization", cur.events, cur.conc)
	}
	for k, ev := range cur.events {
		if !ev.Implicit || ev.Taken != want[k] {
			t.Fatalf("Index: event %d = %+v, want implicit, taken %v", k, ev, want[k])
		}
	}
	Index(8, KInt64, i, 2, 0, 3)
	if len(cur.events) != len(want)+1 {
		t.Fatalf("Index again with the same index: events %+v; want only its bounds check", cur.events[len(want):])
	}
	resetRun(0)
	big := mk(Node{Op: OpInput, K: KInt64})
	Index(3, KInt64, big, MaxPick+1, 0, 1000)
	if len(cur.events) != 2 || len(cur.conc) != 1 {
		t.Fatalf("Index beyond MaxPick: events %+v, concretized %+v; want bounds + pin, one concretization", cur.events, cur.conc)
	}
	resetRun(0)
	d := mk(Node{Op: OpInput, K: KInt32})
	Quo(4, OpQuo, KInt32, 0, 10, d, 0)
	if len(cur.events) != 1 || cur.events[0].Taken {
		t.Fatalf("division by a zero divisor must record the failing implicit branch: %+v", cur.events)
	}
	resetRun(0)
	Shift(5, OpShl, KInt64, 0, 1, KInt64, d, ^uint64(0))
	if len(cur.events) != 1 || cur.events[0].Taken {
		t.Fatalf("negative shift count must record the failing implicit branch: %+v", cur.events)
	}
}

func TestMemoryCellsCheckFingerprints(t *testing.T) {
	begin(t)
	var a [4]int
	s := mk(Node{Op: OpInput, K: KInt64})
	a[1] = 7
	St(uintptr(unsafe.Pointer(&a[1])), s, 7)
	if got := Ld(uintptr(unsafe.Pointer(&a[1])), 7); got != s {
		t.Fatalf("Ld = %d, want %d", got, s)
	}
	if got := Ld(uintptr(unsafe.Pointer(&a[1])), 8); got != 0 {
		t.Fatal("a cell whose value changed must yield no shadow")
	}
	var b [4]int
	Copy(uintptr(unsafe.Pointer(&b)), uintptr(unsafe.Pointer(&a)), unsafe.Sizeof(a))
	if got := Ld(uintptr(unsafe.Pointer(&b[1])), 7); got != s {
		t.Fatal("Copy must move cells")
	}
	St(uintptr(unsafe.Pointer(&a[1])), 0, 0)
	if got := Ld(uintptr(unsafe.Pointer(&a[1])), 7); got != 0 {
		t.Fatal("storing a concrete value must clear the cell")
	}
}

func TestCallRegisters(t *testing.T) {
	begin(t)
	s := mk(Node{Op: OpInput, K: KInt64})
	Call(42, Arg{}, Arg{S: s, F: 9})
	if Enter(43, 2) {
		t.Fatal("a frame for another function must not be taken")
	}
	Call(42, Arg{}, Arg{S: s, F: 9})
	if !Enter(42, 2) {
		t.Fatal("the announced frame must be taken")
	}
	if In(1, 9) != s || In(1, 10) != 0 || In(0, 0) != 0 {
		t.Fatal("In must check fingerprints")
	}
	if Enter(42, 2) {
		t.Fatal("a frame is taken once")
	}
	Ret(42, Arg{S: s, F: 3})
	if Res(42, 0, 3) != s || Res(41, 0, 3) != 0 || Res(42, 0, 4) != 0 {
		t.Fatal("Res must check the callee and the fingerprint")
	}
	Call(0, Arg{S: s, F: 1})
	if !Enter(77, 1) || In(0, 1) != s {
		t.Fatal("a dynamic call's frame is taken by whichever function enters next")
	}
}

// testLayout is the layout of (p P, x int, n *node, err error) for the
// types of TestLayoutLeavesAndBuild, written by hand as load would build it.
func testLayout(maxLen, depth int) *Layout {
	return &Layout{
		Params: []Param{{Name: "p", Shape: 0}, {Name: "x", Shape: 1}, {Name: "n", Shape: 6}, {Name: "err", Shape: 8}},
		Shapes: []Shape{
			{Kind: ShapeStruct, Type: "P", Fields: []Field{{"A", 0, 2}, {"Xs", 1, 4}, {"B", 2, 5}}},
			{Kind: ShapeScalar, Type: "int", K: KInt},
			{Kind: ShapeArray, Type: "[2]uint16", Len: 2, Elem: 3},
			{Kind: ShapeScalar, Type: "uint16", K: KUint16},
			{Kind: ShapeSlice, Type: "[]inner", Elem: 9},
			{Kind: ShapeScalar, Type: "bool", K: KBool},
			{Kind: ShapePointer, Type: "*node", Elem: 7},
			{Kind: ShapeStruct, Type: "node", Fields: []Field{{"v", 0, 1}, {"next", 1, 6}}},
			{Kind: ShapeError, Type: "error"},
			{Kind: ShapeStruct, Type: "inner", Fields: []Field{{"N", 0, 10}, {"s", 2, 11}}},
			{Kind: ShapeScalar, Type: "int8", K: KInt8},
			{Kind: ShapeScalar, Type: "string", K: KString},
		},
		MaxLen: maxLen,
		Depth:  depth,
	}
}

func TestLayoutLeavesAndBuild(t *testing.T) {
	type inner struct {
		N int8
		_ int
		s string
	}
	type P struct {
		A  [2]uint16
		Xs []inner
		B  bool
	}
	type node struct {
		v    int
		next *node
	}
	params := []reflect.Type{reflect.TypeOf(P{}), reflect.TypeOf(0), reflect.TypeOf(&node{}), reflect.TypeFor[error]()}
	l := testLayout(2, 2)
	if err := checkLayout(l, params, nil); err != nil {
		t.Fatal(err)
	}
	if err := checkLayout(l, []reflect.Type{params[0], params[1], params[0], params[3]}, nil); err == nil {
		t.Fatal("a layout with a pointer shape fits a struct type")
	}
	leaves, paths := leafPaths(t, l)
	want := []string{"p.A[0]", "p.A[1]", "len(p.Xs)", "p.Xs[0].N", "p.Xs[0].s", "p.Xs[1].N", "p.Xs[1].s", "p.B", "x",
		"n != nil", "n.v", "n.next != nil", "n.next.v", "err != nil", "err.Error()"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q", paths, want)
	}
	if n := l.CountLeaves(100); n != len(want) {
		t.Fatalf("CountLeaves = %d, want %d", n, len(want))
	}
	if n := testLayout(2, 5).CountLeaves(1000); n != len(want)+6 {
		t.Fatalf("depth 5 unfolds the list to 5 nodes: %d leaves, want %d", n, len(want)+6)
	}

	begin(t)
	vals := []Value{{Bits: 1}, {Bits: 0x1ffff}, {Bits: 1}, {Bits: 0xff}, {Str: "hi"}, {}, {}, {Bits: 1}, {Bits: ^uint64(0)},
		{Bits: 1}, {Bits: 7}, {Bits: 0}, {Bits: 9}, {Bits: 1}, {Str: "boom"}}
	for i, l := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: l.K, Val: uint64(i)}))
	}
	b := newBuilder(l, l.Choices(), nil, vals)
	pv, parg := b.arg(0, params[0])
	xv, xarg := b.arg(1, params[1])
	nv, _ := b.arg(2, params[2])
	ev, _ := b.arg(3, params[3])
	if b.next != len(leaves) {
		t.Fatalf("built from %d of %d leaves", b.next, len(leaves))
	}
	p := pv.Interface().(P)
	if p.A != [2]uint16{1, 0xffff} || len(p.Xs) != 1 || p.Xs[0].N != -1 || p.Xs[0].s != "hi" || !p.B {
		t.Fatalf("built %+v", p)
	}
	if xv.Int() != -1 || xarg.S != cur.inputs[8] || xarg.F != ^uint64(0) {
		t.Fatalf("x = %d, arg %+v", xv.Int(), xarg)
	}
	if parg.S != Agg {
		t.Fatal("a struct parameter is passed by address")
	}
	if Ld(pv.Field(0).Index(1).UnsafeAddr(), 0xffff) != cur.inputs[1] {
		t.Fatal("array elements carry their input shadows")
	}
	n := nv.Interface().(*node)
	if n == nil || n.v != 7 || n.next != nil {
		t.Fatalf("n = %+v, want a node 7 whose next is nil", n)
	}
	if Ld(uintptr(unsafe.Pointer(&n.v)), 7) != cur.inputs[10] {
		t.Fatal("the pointee's fields carry their input shadows")
	}
	if err, _ := ev.Interface().(error); err == nil || err.Error() != "boom" {
		t.Fatalf("err = %v, want boom", ev.Interface())
	}
	var choices []bool
	for _, e := range cur.events {
		if e.Site != InputSite {
			t.Fatalf("event %+v during building", e)
		}
		choices = append(choices, e.Taken)
	}
	if !reflect.DeepEqual(choices, []bool{true, false, true}) {
		t.Fatalf("choices recorded = %v, want n non-nil, n.next nil, err non-nil", choices)
	}
}

type counter struct{ n, max int }

func newCounter(max int) (*counter, error) {
	if max < 0 {
		return nil, errors.New("negative max")
	}
	return &counter{max: max}, nil
}

func (c *counter) add(k int) { c.n += k }

// A built input: the constructor, then the calls the choice leaves pick,
// recorded as branches; a constructor's error rejects the input.
func TestBuiltInput(t *testing.T) {
	l := &Layout{
		Params: []Param{{Name: "c", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeBuilt, Type: "*counter", Build: &Build{
				Ctor:    Func{Expr: "newCounter", Name: "newCounter", ParamNames: []string{"max"}, Params: []int{1}, Err: true},
				Methods: []Func{{Expr: "(*counter).add", Name: "add", ParamNames: []string{"k"}, Params: []int{1}}},
				Steps:   2,
			}},
			{Kind: ShapeScalar, Type: "int", K: KInt},
		},
		MaxLen: 2, Depth: 1,
	}
	funcs := map[string]reflect.Value{"newCounter": reflect.ValueOf(newCounter), "(*counter).add": reflect.ValueOf((*counter).add)}
	params := []reflect.Type{reflect.TypeOf(&counter{})}
	if err := checkLayout(l, params, funcs); err != nil {
		t.Fatal(err)
	}
	if err := checkLayout(l, params, nil); err == nil {
		t.Fatal("a build whose functions the worker lacks fits")
	}
	leaves, paths := leafPaths(t, l)
	want := []string{"c.newCounter(max)", "c.call[0]", "c.call[0].add(k)", "c.call[1]", "c.call[1].add(k)"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q", paths, want)
	}
	build := func(vals []Value) (*counter, *builder) {
		begin(t)
		for i, l := range leaves {
			cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: l.K, Val: uint64(i)}))
		}
		b := newBuilder(l, l.Choices(), funcs, vals)
		v, _ := b.arg(0, params[0])
		if b.next != len(leaves) {
			t.Fatalf("built from %d of %d leaves", b.next, len(leaves))
		}
		c, _ := v.Interface().(*counter)
		return c, b
	}
	c, b := build([]Value{{Bits: 3}, {Bits: 1}, {Bits: 4}, {Bits: 0}, {Bits: 9}})
	if b.rejected != "" || c == nil || *c != (counter{n: 4, max: 3}) {
		t.Fatalf("built %+v (rejected %q), want newCounter(3) then add(4)", c, b.rejected)
	}
	var taken []bool
	for _, e := range cur.events {
		if e.Site == InputSite {
			taken = append(taken, e.Taken)
		}
	}
	if !reflect.DeepEqual(taken, []bool{false, true, true}) {
		t.Errorf("choices recorded %v, want call 0: not none, add; call 1: none", taken)
	}
	if _, b := build([]Value{{Bits: uint64(1<<64 - 1)}, {}, {}, {}, {}}); !strings.Contains(b.rejected, "negative max") {
		t.Errorf("rejected = %q, want the constructor's error", b.rejected)
	}
}

// leafPaths flattens l and returns its leaves and their paths.
func leafPaths(t *testing.T, l *Layout) ([]Leaf, []string) {
	t.Helper()
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, l := range leaves {
		paths = append(paths, l.Path)
	}
	return leaves, paths
}

// A collection with fewer slots than MaxLen (a cut layout, Shape.Max) has
// that many element leaves in every walk: flattening, building, counting;
// its length leaf says so, and a length beyond its slots builds nil.
func TestCutCollectionSlots(t *testing.T) {
	type elem struct{ Xs []int8 }
	l := &Layout{
		Params: []Param{{Name: "p", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapeSlice, Type: "[]elem", Elem: 1},
			{Kind: ShapeStruct, Type: "elem", Fields: []Field{{Name: "Xs", Index: 0, Shape: 2}}},
			{Kind: ShapeSlice, Type: "[]int8", Elem: 3, Max: 1},
			{Kind: ShapeScalar, Type: "int8", K: KInt8},
		},
		MaxLen: 2,
		Depth:  2,
	}
	params := []reflect.Type{reflect.TypeFor[[]elem]()}
	if err := checkLayout(l, params, nil); err != nil {
		t.Fatal(err)
	}
	leaves, paths := leafPaths(t, l)
	want := []string{"len(p)", "len(p[0].Xs)", "p[0].Xs[0]", "len(p[1].Xs)", "p[1].Xs[0]"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q", paths, want)
	}
	if n := l.CountLeaves(100); n != len(want) {
		t.Fatalf("CountLeaves = %d, want %d", n, len(want))
	}
	if leaves[0].Cut || leaves[0].Max != 2 || !leaves[1].Cut || leaves[1].Max != 1 {
		t.Fatalf("length leaves %+v and %+v: want the outer one of 2 slots, the inner one cut to 1", leaves[0], leaves[1])
	}
	begin(t)
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	vals := []Value{{Bits: 2}, {Bits: 1}, {Bits: 5}, {Bits: 2}, {Bits: 7}}
	b := newBuilder(l, l.Choices(), nil, vals)
	pv, _ := b.arg(0, params[0])
	if b.next != len(leaves) {
		t.Fatalf("built from %d of %d leaves", b.next, len(leaves))
	}
	if got := pv.Interface().([]elem); !reflect.DeepEqual(got, []elem{{Xs: []int8{5}}, {}}) {
		t.Fatalf("built %+v, want [{[5]} {nil}] (a length beyond the slots is nil)", got)
	}
}

// A copy of a shape (Shape.Of) counts as the shape in the unfolding of
// recursive types: the nodes held by a cut collection of a node do not
// unfold deeper than the node itself.
func TestCopiesCountAsTheirShape(t *testing.T) {
	l := &Layout{
		Params: []Param{{Name: "n", Shape: 0}},
		Shapes: []Shape{
			{Kind: ShapePointer, Type: "*Node", Elem: 1},
			{Kind: ShapeStruct, Type: "Node", Fields: []Field{{Name: "Next", Index: 0, Shape: 0}, {Name: "Kids", Index: 1, Shape: 2}}},
			{Kind: ShapeSlice, Type: "[]*Node", Elem: 3},
			{Kind: ShapePointer, Type: "*Node", Elem: 4, Of: 1},
			{Kind: ShapeStruct, Type: "Node", Fields: []Field{{Name: "Next", Index: 0, Shape: 3}, {Name: "Kids", Index: 1, Shape: 5}}, Of: 2},
			{Kind: ShapeSlice, Type: "[]*Node", Elem: 3, Max: 1, Of: 3},
		},
		MaxLen: 2,
		Depth:  1,
	}
	_, paths := leafPaths(t, l)
	want := []string{"n != nil", "len(n.Kids)"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q (a kid is a Node one level down: nil at depth 1)", paths, want)
	}
	if n := l.CountLeaves(100); n != len(want) {
		t.Fatalf("CountLeaves = %d, want %d", n, len(want))
	}
}
