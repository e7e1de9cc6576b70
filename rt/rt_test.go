package rt

import (
	"reflect"
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
	if len(cur.events) != 2 || !cur.events[0].Implicit || !cur.events[0].Taken || len(cur.conc) != 1 {
		t.Fatalf("Index: events %+v, concretized %+v; want bounds + pin, one concretization", cur.events, cur.conc)
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

func TestFlattenAndBuild(t *testing.T) {
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
	leaves, err := Flatten([]reflect.Type{reflect.TypeOf(P{}), reflect.TypeOf(0)}, []string{"p", "x"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, l := range leaves {
		paths = append(paths, l.Path)
	}
	want := []string{"p.A[0]", "p.A[1]", "len(p.Xs)", "p.Xs[0].N", "p.Xs[0].s", "p.Xs[1].N", "p.Xs[1].s", "p.B", "x"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("leaves = %q, want %q", paths, want)
	}
	if _, err := Flatten([]reflect.Type{reflect.TypeOf(&P{})}, nil, 2); err == nil {
		t.Fatal("pointers are unsupported in this version")
	}

	begin(t)
	vals := []Value{{Bits: 1}, {Bits: 0x1ffff}, {Bits: 1}, {Bits: 0xff}, {Str: "hi"}, {}, {}, {Bits: 1}, {Bits: ^uint64(0)}}
	for i, l := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: l.K, Val: uint64(i)}))
	}
	b := &builder{vals: vals, leaves: leaves, maxLen: 2}
	pv, parg := b.arg(reflect.TypeOf(P{}))
	xv, xarg := b.arg(reflect.TypeOf(0))
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
}
