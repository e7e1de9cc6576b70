package rt

import (
	"testing"
	"unsafe"
)

type boxPair struct{ A, B int }

type boxOne struct{ A int }

type boxPtr struct{ p *int }

// Box gives the copy an interface holds the cells of the value it was
// converted from, BoxArg hands them to a value receiver, and Unbox to
// the target of an assertion that holds.
func TestBoxKeepsCells(t *testing.T) {
	begin(t)
	v := &boxPair{A: 300, B: 2}
	Escape(v) // cells need a stable address
	sh := mk(Node{Op: OpInput, K: KInt, Val: 0})
	St(uintptr(unsafe.Pointer(&v.A)), sh, 300)
	var a any = *v
	Box(1, a, v, "boxed")
	if len(cur.conc) != 0 {
		t.Fatalf("concretizations %v, want none", cur.conc)
	}
	arg := BoxArg(a)
	if arg.S != Agg || arg.N != unsafe.Sizeof(*v) || Ld(uintptr(arg.F), 300) != sh {
		p, n, sh2 := boxedCopy(a)
		t.Fatalf("BoxArg = %+v, want the copy's address with the cell of A; on %v p %#x n %d shared %v src %p conc %v", arg, on.Load(), p, n, sh2, v, cur.conc)
	}
	var out boxPair
	Unbox(&out, a)
	if got := Ld(uintptr(unsafe.Pointer(&out.A)), 300); got != sh {
		t.Errorf("after Unbox, A has shadow %d, want %d", got, sh)
	}
	var other [2]int
	Unbox(&other, a) // a holds no [2]int: an assertion that failed
	if cellsIn(uintptr(unsafe.Pointer(&other)), unsafe.Sizeof(other)) {
		t.Error("Unbox to another type copied cells")
	}
}

// A pointer-shaped value is stored in the interface's data word itself:
// it gets no cells, and their loss is recorded.
func TestBoxPointerShaped(t *testing.T) {
	begin(t)
	x := 1
	v := &boxPtr{p: &x}
	Escape(v)
	St(uintptr(unsafe.Pointer(&v.p)), mk(Node{Op: OpInput, K: KInt, Val: 0}), 1)
	var a any = *v
	Box(1, a, v, "boxed")
	if len(cur.conc) != 1 {
		t.Errorf("concretizations %v, want one", cur.conc)
	}
	if arg := BoxArg(a); arg.S != 0 {
		t.Errorf("BoxArg = %+v, want none", arg)
	}
}

// Small values share the runtime's static copy: the first one boxed keeps
// its cells there, a second one boxed to the same copy (which no one can
// tell apart from the first) takes them away, and the loss is recorded.
func TestBoxSharedSmallValue(t *testing.T) {
	begin(t)
	v := &boxOne{A: 7}
	Escape(v)
	sh := mk(Node{Op: OpInput, K: KInt, Val: 0})
	St(uintptr(unsafe.Pointer(&v.A)), sh, 7)
	var a any = *v
	if _, _, shared := boxedCopy(a); !shared {
		t.Fatal("a boxOne{7} is not in the runtime's table of small values")
	}
	Box(1, a, v, "boxed")
	if len(cur.conc) != 0 {
		t.Fatalf("concretizations %v, want none", cur.conc)
	}
	arg := BoxArg(a)
	if arg.S != Agg || Ld(uintptr(arg.F), 7) != sh {
		t.Fatalf("BoxArg = %+v, want the cell of A", arg)
	}
	w := &boxOne{A: 7} // no cells
	Escape(w)
	var b any = *w
	Box(2, b, w, "boxed")
	if len(cur.conc) != 1 {
		t.Errorf("concretizations %v, want one", cur.conc)
	}
	if arg := BoxArg(a); arg.S != 0 {
		t.Errorf("after a second box, BoxArg = %+v, want none", arg)
	}
}

// A method promoted from an embedded field and called through an
// interface holding the outer struct takes a receiver of another size
// than the copy BoxArg announces: it gets none of the copy's cells.
func TestBoxArgOtherSize(t *testing.T) {
	begin(t)
	v := &boxPair{A: 300, B: 2}
	St(uintptr(unsafe.Pointer(&v.A)), mk(Node{Op: OpInput, K: KInt, Val: 0}), 300)
	var a any = *v
	Box(1, a, v, "boxed")
	recv := new(boxOne)
	Escape(recv)
	Call(0, BoxArg(a))
	if Enter(7, 1) {
		InAgg(0, uintptr(unsafe.Pointer(recv)), unsafe.Sizeof(*recv))
	}
	if cellsIn(uintptr(unsafe.Pointer(recv)), unsafe.Sizeof(*recv)) {
		t.Error("a receiver of another size took the boxed copy's cells")
	}
	same := new(boxPair)
	Escape(same)
	Call(0, BoxArg(a))
	if Enter(7, 1) {
		InAgg(0, uintptr(unsafe.Pointer(same)), unsafe.Sizeof(*same))
	}
	if !cellsIn(uintptr(unsafe.Pointer(same)), unsafe.Sizeof(*same)) {
		t.Error("a receiver of the boxed type did not take the copy's cells")
	}
}
