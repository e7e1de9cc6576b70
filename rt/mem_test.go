package rt

import (
	"math/rand"
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
