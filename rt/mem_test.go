package rt

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"unsafe"
)

// evalTable evaluates a table shadow for input 0 = x: the node kinds table
// writes (constants, the input, conversions, +, *, unsigned <=, ite).
func evalTable(t *testing.T, s S, x uint64) uint64 {
	t.Helper()
	n := cur.nodes[s]
	switch n.Op {
	case OpConst:
		return n.Val
	case OpInput:
		return x
	case OpConv:
		return mask(n.K, evalTable(t, n.A, x))
	case OpAdd:
		return mask(n.K, evalTable(t, n.A, x)+evalTable(t, n.B, x))
	case OpMul:
		return mask(n.K, evalTable(t, n.A, x)*evalTable(t, n.B, x))
	case OpLe:
		if evalTable(t, n.A, x) <= evalTable(t, n.B, x) {
			return 1
		}
		return 0
	case OpIte:
		if evalTable(t, n.A, x) != 0 {
			return evalTable(t, n.B, x)
		}
		return evalTable(t, n.C, x)
	}
	t.Fatalf("node %d: unexpected op %v", s, n.Op)
	return 0
}

// TestTable checks the lookup-table shadow against the table at every
// index, and that tables it must not model get none.
func TestTable(t *testing.T) {
	var hex [256]byte
	for i := range hex {
		hex[i] = 255
	}
	for i, c := range "0123456789abcdef" {
		hex[c] = byte(i)
	}
	for i, c := range "ABCDEF" {
		hex[c] = byte(10 + i)
	}
	down := make([]int16, 300)
	for i := range down {
		down[i] = int16(1000 - 7*i)
		if i > 200 {
			down[i] = -3
		}
	}
	begin(t)
	i := mk(Node{Op: OpInput, K: KUint8})
	s := table(KUint8, i, uint64(len(hex)), unsafe.Pointer(&hex[0]), 1, KUint8)
	if s == 0 {
		t.Fatal("no shadow for a hexadecimal digit table")
	}
	for k := range hex {
		if got := evalTable(t, s, uint64(k)); got != uint64(hex[k]) {
			t.Errorf("hex[%d]: shadow says %d, table %d", k, got, hex[k])
		}
	}

	j := mk(Node{Op: OpInput, K: KInt})
	s = table(KInt, j, uint64(len(down)), unsafe.Pointer(&down[0]), 2, KInt16)
	if s == 0 {
		t.Fatal("no shadow for a table going down by 7")
	}
	for k := range down {
		if got := evalTable(t, s, uint64(k)); got != mask(KInt16, uint64(down[k])) {
			t.Errorf("down[%d]: shadow says %d, table %d", k, int16(got), down[k])
		}
	}

	noise := make([]uint32, 100)
	rnd := rand.New(rand.NewSource(1))
	for k := range noise {
		noise[k] = rnd.Uint32()
	}
	if s := table(KInt, j, uint64(len(noise)), unsafe.Pointer(&noise[0]), 4, KUint32); s != 0 {
		t.Error("a shadow for a table of random values (more segments than the limit)")
	}

	// An element with a shadow of its own: the table is not constant.
	cur.mem[uintptr(unsafe.Pointer(&hex[7]))] = cell{s: i, fp: uint64(hex[7])}
	if s := table(KUint8, i, uint64(len(hex)), unsafe.Pointer(&hex[0]), 1, KUint8); s != 0 {
		t.Error("a table shadow although an element has a shadow")
	}
}

// TestWindow checks the branches that choose a window of a long slice:
// one per window boundary below the index, false, and the window's end,
// true; none again for the same index expression in the run.
func TestWindow(t *testing.T) {
	begin(t)
	i := mk(Node{Op: OpInput, K: KInt})
	lo, hi := window(7, KInt, i, 130, 200)
	if lo != 128 || hi != 192 {
		t.Fatalf("window of 130 among 200 = [%d, %d), want [128, 192)", lo, hi)
	}
	var got []string
	for _, ev := range cur.events {
		got = append(got, fmt.Sprintf("%s %v", ExprString(cur.nodes, ev.Cond), ev.Taken))
	}
	want := []string{"(uint64(in0) < 64) false", "(uint64(in0) < 128) false", "(uint64(in0) < 192) true"}
	if !slices.Equal(got, want) {
		t.Errorf("branches %q, want %q", got, want)
	}
	if lo, hi := window(7, KInt, i, 130, 200); lo != 128 || hi != 192 || len(cur.events) != len(want) {
		t.Errorf("second window of the same index: [%d, %d), %d branches; want [128, 192) and no new branch", lo, hi, len(cur.events))
	}
	// The last window has no upper branch.
	j := mk(Node{Op: OpInput, K: KInt, Val: 1})
	before := len(cur.events)
	if lo, hi := window(7, KInt, j, 199, 200); lo != 192 || hi != 200 || len(cur.events)-before != 3 {
		t.Errorf("window of 199 among 200: [%d, %d), %d branches; want [192, 200) and 3", lo, hi, len(cur.events)-before)
	}
}

// TestSelectDepth checks the nesting selectDepth sees and determined's
// view of indexes computed from chosen ones.
func TestSelectDepth(t *testing.T) {
	begin(t)
	x := mk(Node{Op: OpInput, K: KInt})
	sel := mk(Node{Op: OpIte, K: KUint8, A: Cmp(OpEq, KInt, x, 3, 0, 1), B: constant(KUint8, 1), C: constant(KUint8, 2)})
	setSelectDepth(sel, 1)
	off := Bin(OpAdd, KInt, Conv(KInt, KUint8, sel), 1, 0, 4)
	if d := selectDepth(x); d != 0 {
		t.Errorf("depth of an input = %d, want 0", d)
	}
	if d := selectDepth(off); d != 1 {
		t.Errorf("depth of an offset computed from a selection = %d, want 1", d)
	}
	if determined(off) {
		t.Error("an offset computed from an input is determined before any choice")
	}
	choose(9, KInt, x, 3)
	if !determined(Bin(OpAdd, KInt, x, 3, 0, 1)) {
		t.Error("x+1 is not determined after x was chosen")
	}
	n := len(cur.events)
	choose(9, KInt, Bin(OpMul, KInt, x, 3, 0, 2), 6)
	if len(cur.events) != n {
		t.Errorf("choosing 2*x after x recorded %d branches, want none", len(cur.events)-n)
	}
}

// A string's cell is not the shadow of a slice read from the same memory
// through unsafe.Pointer: the empty string (nil data) and an empty slice
// both fingerprinted 0, and the string's shadow became the slice
// length's, a string where an int belongs.
func TestStringCellIsNoSliceLength(t *testing.T) {
	begin(t)
	type header struct {
		s   string
		cap int
	}
	h := &header{}
	s := mk(Node{Op: OpInput, K: KString})
	St(uintptr(unsafe.Pointer(&h.s)), s, FS(h.s))
	b := *(*[]byte)(unsafe.Pointer(h))
	if got := Ld(uintptr(unsafe.Pointer(h)), uint64(len(b))); got != 0 {
		t.Fatalf("the slice's length has shadow %d (%v), the string's; want none", got, cur.nodes[got].K)
	}
	if got := Ld(uintptr(unsafe.Pointer(&h.s)), FS(h.s)); got != s {
		t.Fatalf("the string's shadow = %d, want %d", got, s)
	}
}

// ClearCells drops the cells of the bytes it is given and no others.
func TestClearCells(t *testing.T) {
	begin(t)
	s := make([]int, 3)
	Escape(&s)
	for i := range s {
		St(uintptr(unsafe.Pointer(&s[i])), mk(Node{Op: OpInput, K: KInt, Val: uint64(i)}), 0)
	}
	ClearCells(unsafe.Pointer(&s[0]), 2*unsafe.Sizeof(s[0]))
	if Ld(uintptr(unsafe.Pointer(&s[0])), 0) != 0 || Ld(uintptr(unsafe.Pointer(&s[1])), 0) != 0 {
		t.Fatal("a cleared element kept its cell")
	}
	if Ld(uintptr(unsafe.Pointer(&s[2])), 0) == 0 {
		t.Fatal("the element after the cleared ones lost its cell")
	}
}
