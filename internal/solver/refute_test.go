package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// TestRefute lists queries the layer must refute and satisfiable ones it
// must pass on.
func TestRefute(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "key", K: rt.KInt64}, {Path: "n", K: rt.KInt64}, {Path: "k2", K: rt.KInt64}, {Path: "u", K: rt.KUint64}, {Path: "hi", K: rt.KUint8}, {Path: "lo", K: rt.KUint8}}
	key, n, k2, u := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64), c.Input(2, rt.KInt64), c.Input(3, rt.KUint64)
	hi, lo := c.Input(4, rt.KUint8), c.Input(5, rt.KUint8)
	field := c.Binary(rt.OpOr, c.Binary(rt.OpShl, c.Conv(rt.KUint16, hi), c.Const(rt.KUint16, 8)), c.Conv(rt.KUint16, lo)) // big-endian
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	u64 := func(v uint64) *sym.Expr { return c.Const(rt.KUint64, v) }
	cmp := c.Compare
	rem := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpRem, a, b) }
	add := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpAdd, a, b) }
	sub := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpSub, a, b) }
	mul := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpMul, a, b) }
	quo := func(a, b *sym.Expr) *sym.Expr { return c.Binary(rt.OpQuo, a, b) }
	asU := func(a *sym.Expr) *sym.Expr { return c.Conv(rt.KUint64, a) }
	// The decimal digits of x from 10^2 down, the top one without % 10
	// when top is set, as a formatter writes them.
	digits := func(x *sym.Expr, top bool) *sym.Expr {
		var bs []*sym.Expr
		for p := 100; p >= 1; p /= 10 {
			d := c.Binary(rt.OpQuo, x, c.Const(x.Kind(), uint64(p)))
			if !top || p != 100 {
				d = c.Binary(rt.OpRem, d, c.Const(x.Kind(), 10))
			}
			bs = append(bs, c.Binary(rt.OpAdd, c.Conv(rt.KUint8, d), c.Const(rt.KUint8, '0')))
		}
		return c.FromList(bs)
	}
	// class is a character class's shape: lo in first..last or in
	// ' '..'!'.
	class := func(first, last uint64) *sym.Expr {
		r := c.Conv(rt.KInt32, lo)
		i32 := func(v uint64) *sym.Expr { return c.Const(rt.KInt32, v) }
		in := func(a, b uint64) *sym.Expr { return c.And(cmp(rt.OpGe, r, i32(a)), cmp(rt.OpLe, r, i32(b))) }
		return c.Or(in(first, last), in(' ', '!'))
	}
	tests := []struct {
		name    string
		cons    []*sym.Expr
		refuted bool
	}{
		{"a bucket choice the path fixed", []*sym.Expr{cmp(rt.OpEq, rem(key, i64(4)), i64(3)), cmp(rt.OpEq, rem(key, i64(4)), i64(0))}, true},
		{"another bucket", []*sym.Expr{cmp(rt.OpNe, rem(key, i64(4)), i64(3)), cmp(rt.OpEq, rem(key, i64(4)), i64(0))}, false},
		{"every bucket excluded", []*sym.Expr{cmp(rt.OpGe, rem(key, i64(2)), i64(0)), cmp(rt.OpNe, rem(key, i64(2)), i64(0)), cmp(rt.OpNe, rem(key, i64(2)), i64(1))}, true},
		{"a bounds check after a constant remainder", []*sym.Expr{cmp(rt.OpGe, rem(key, i64(4)), i64(0)), cmp(rt.OpGe, asU(rem(key, i64(4))), u64(4))}, true},
		{"a negative remainder shifted into range", []*sym.Expr{cmp(rt.OpLt, rem(key, i64(4)), i64(0)), cmp(rt.OpGe, asU(add(rem(key, i64(4)), i64(4))), u64(4))}, true},
		{"a bounds check after a remainder by an input", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpGe, rem(key, n), i64(0)), cmp(rt.OpGe, asU(rem(key, n)), asU(n))}, true},
		{"the bounds check the path took", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpGe, rem(key, n), i64(0)), cmp(rt.OpLt, asU(rem(key, n)), asU(n))}, false},
		{"a negative remainder by an input shifted into range", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpLt, rem(key, n), i64(0)), cmp(rt.OpGe, asU(add(rem(key, n), n)), asU(n))}, true},
		{"residues of two moduli", []*sym.Expr{cmp(rt.OpEq, rem(key, i64(2)), i64(1)), cmp(rt.OpEq, rem(key, i64(4)), i64(2))}, true},
		{"residues of two moduli that agree", []*sym.Expr{cmp(rt.OpEq, rem(key, i64(2)), i64(1)), cmp(rt.OpEq, rem(key, i64(4)), i64(3))}, false},
		{"a sign and a residue", []*sym.Expr{cmp(rt.OpEq, rem(key, i64(2)), i64(0)), cmp(rt.OpEq, rem(key, i64(4)), i64(-1))}, true},
		{"a table size grown past its bound", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpLe, n, i64(1)), cmp(rt.OpGt, mul(mul(n, i64(2)), i64(2)), i64(0x10000))}, true},
		{"a product that may wrap", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpLt, mul(n, i64(4)), i64(0))}, false},
		{"x + 1 < x wraps", []*sym.Expr{cmp(rt.OpLt, add(key, i64(1)), key)}, false},
		{"equal and unequal", []*sym.Expr{cmp(rt.OpEq, key, k2), cmp(rt.OpNe, k2, key)}, true},
		{"less and not less", []*sym.Expr{cmp(rt.OpLt, key, k2), c.Not(cmp(rt.OpLt, key, k2))}, true},
		{"less and greater", []*sym.Expr{cmp(rt.OpLt, key, k2), cmp(rt.OpGt, key, k2)}, true},
		{"less or equal and greater or equal", []*sym.Expr{cmp(rt.OpLe, key, k2), cmp(rt.OpGe, key, k2)}, false},
		{"unsigned order", []*sym.Expr{cmp(rt.OpGt, u, u64(1<<63)), cmp(rt.OpLt, u, u64(10))}, true},
		{"unsigned order, satisfiable", []*sym.Expr{cmp(rt.OpGt, u, u64(1<<63)), cmp(rt.OpLt, u, u64(1<<63+10))}, false},
		{"a table size fixed between two thresholds", []*sym.Expr{cmp(rt.OpGe, n, i64(0)), cmp(rt.OpGe, mul(n, i64(3)), i64(4)), cmp(rt.OpLt, mul(n, i64(3)), i64(8)), cmp(rt.OpLe, n, i64(0x10000)), cmp(rt.OpGt, mul(n, i64(2)), i64(0x10000))}, true},
		{"residues by a fixed table size", []*sym.Expr{cmp(rt.OpGt, n, i64(1)), cmp(rt.OpLe, n, i64(2)), cmp(rt.OpEq, rem(key, n), i64(1)), cmp(rt.OpEq, rem(key, mul(n, i64(2))), i64(2))}, true},
		{"residues by a fixed table size that agree", []*sym.Expr{cmp(rt.OpGt, n, i64(1)), cmp(rt.OpLe, n, i64(2)), cmp(rt.OpEq, rem(key, n), i64(1)), cmp(rt.OpEq, rem(key, mul(n, i64(2))), i64(3))}, false},
		{"two equal keys in different buckets", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpEq, rem(key, n), i64(0)), cmp(rt.OpEq, rem(k2, n), i64(7)), cmp(rt.OpEq, key, k2)}, true},
		{"two equal keys in one bucket", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpEq, rem(key, n), i64(7)), cmp(rt.OpEq, rem(k2, n), i64(7)), cmp(rt.OpEq, key, k2)}, false},
		{"two equal keys on either side of zero", []*sym.Expr{cmp(rt.OpGt, n, i64(0)), cmp(rt.OpLt, rem(key, n), i64(0)), cmp(rt.OpGe, rem(k2, n), i64(0)), cmp(rt.OpEq, k2, key)}, true},
		{"keys equal through a third", []*sym.Expr{cmp(rt.OpEq, key, n), cmp(rt.OpEq, k2, n), cmp(rt.OpEq, rem(key, i64(4)), i64(1)), cmp(rt.OpEq, rem(k2, i64(4)), i64(2))}, true},
		{"a mask", []*sym.Expr{cmp(rt.OpGt, c.Binary(rt.OpAnd, key, i64(7)), i64(7))}, true},
		{"an offset checked against a length from both sides", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(0xffff)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, add(key, i64(26)), n), cmp(rt.OpGe, asU(add(key, i64(24))), asU(n))}, true},
		{"an offset checked against a length from both sides, satisfiable", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(0xffff)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, add(key, i64(24)), n), cmp(rt.OpGe, asU(add(key, i64(24))), asU(n))}, false},
		{"a cycle of three differences", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(9)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(9)), cmp(rt.OpGe, k2, i64(0)), cmp(rt.OpLe, k2, i64(9)), cmp(rt.OpLt, key, n), cmp(rt.OpLt, n, add(k2, i64(-1))), cmp(rt.OpLe, k2, add(key, i64(1)))}, true},
		{"a 16-bit field below 256 read as a byte", []*sym.Expr{cmp(rt.OpEq, c.Binary(rt.OpShr, field, c.Const(rt.KUint16, 8)), c.Const(rt.KUint16, 0)), cmp(rt.OpNe, field, c.Const(rt.KUint16, 2)), cmp(rt.OpEq, c.Conv(rt.KUint8, field), c.Const(rt.KUint8, 2))}, true},
		{"a 16-bit field that may exceed 255 read as a byte", []*sym.Expr{cmp(rt.OpEq, c.Binary(rt.OpShr, field, c.Const(rt.KUint16, 9)), c.Const(rt.KUint16, 0)), cmp(rt.OpNe, field, c.Const(rt.KUint16, 2)), cmp(rt.OpEq, c.Conv(rt.KUint8, field), c.Const(rt.KUint8, 2))}, false},
		{"a position past a length byte before the position", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(0xffff)), cmp(rt.OpGt, asU(add(key, i64(1))), asU(add(add(key, i64(1)), c.Conv(rt.KInt64, lo))))}, true},
		{"a position past a length byte at the position", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(0xffff)), cmp(rt.OpGe, asU(add(key, i64(1))), asU(add(add(key, i64(1)), c.Conv(rt.KInt64, lo))))}, false},
		{"a position past a length byte that may wrap", []*sym.Expr{cmp(rt.OpGt, add(key, i64(1)), add(add(key, i64(1)), c.Conv(rt.KInt64, lo)))}, false},
		{"a comparison unequal to itself written the other way", []*sym.Expr{cmp(rt.OpNe, cmp(rt.OpEq, key, n), cmp(rt.OpEq, n, key))}, true},
		{"an order unequal to its mirror", []*sym.Expr{cmp(rt.OpNe, cmp(rt.OpLt, key, n), cmp(rt.OpGt, n, key))}, true},
		{"a sum less than itself written the other way", []*sym.Expr{cmp(rt.OpLt, add(key, n), add(n, key))}, true},
		{"a comparison unequal to another", []*sym.Expr{cmp(rt.OpNe, cmp(rt.OpEq, key, n), cmp(rt.OpEq, n, k2))}, false},
		{"an order unequal to its converse", []*sym.Expr{cmp(rt.OpNe, cmp(rt.OpLt, key, n), cmp(rt.OpLt, n, key))}, false},
		{"the rest after a position, none left and none of 1 to 3", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(9)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(40)),
			cmp(rt.OpLe, asU(add(key, i64(1))), asU(n)), cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(0)), cmp(rt.OpLe, sub(n, add(key, i64(1))), i64(3)),
			cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(1)), cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(2)), cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(3))}, true},
		{"the rest after a position, 1 to 3 left", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(9)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(40)),
			cmp(rt.OpLe, asU(add(key, i64(1))), asU(n)), cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(0)), cmp(rt.OpLe, sub(n, add(key, i64(1))), i64(3)),
			cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(1)), cmp(rt.OpNe, sub(n, add(key, i64(1))), i64(2))}, false},
		{"differences and the terms' intervals, a cycle through 0", []*sym.Expr{cmp(rt.OpGt, key, i64(10)), cmp(rt.OpLt, key, n), cmp(rt.OpLt, n, k2), cmp(rt.OpLt, k2, i64(13))}, true},
		{"differences and the terms' intervals, satisfiable", []*sym.Expr{cmp(rt.OpGt, key, i64(10)), cmp(rt.OpLt, key, n), cmp(rt.OpLt, n, k2), cmp(rt.OpLt, k2, i64(14))}, false},
		{"differences of terms that may wrap", []*sym.Expr{cmp(rt.OpLe, add(key, i64(26)), n), cmp(rt.OpGe, add(key, i64(24)), n)}, false},
		{"a digit that is not a digit", []*sym.Expr{cmp(rt.OpGe, key, i64(1000)), cmp(rt.OpEq, c.Conv(rt.KUint8, rem(quo(key, i64(100)), i64(10))), c.Const(rt.KUint8, 252))}, true},
		{"a digit of a value that may be negative", []*sym.Expr{cmp(rt.OpGe, key, i64(-1000)), cmp(rt.OpEq, c.Conv(rt.KUint8, rem(quo(key, i64(100)), i64(10))), c.Const(rt.KUint8, 252))}, false},
		{"a quotient by a negative divisor below its least", []*sym.Expr{cmp(rt.OpGe, key, i64(10)), cmp(rt.OpLe, key, i64(20)), cmp(rt.OpGe, n, i64(-3)), cmp(rt.OpLe, n, i64(-1)), cmp(rt.OpLt, quo(key, n), i64(-20))}, true},
		{"a quotient by a negative divisor at its least", []*sym.Expr{cmp(rt.OpGe, key, i64(10)), cmp(rt.OpLe, key, i64(20)), cmp(rt.OpGe, n, i64(-3)), cmp(rt.OpLe, n, i64(-1)), cmp(rt.OpLe, quo(key, n), i64(-20))}, false},
		{"a quotient by a negative divisor at its greatest", []*sym.Expr{cmp(rt.OpGe, key, i64(10)), cmp(rt.OpLe, key, i64(20)), cmp(rt.OpGe, n, i64(-3)), cmp(rt.OpLe, n, i64(-1)), cmp(rt.OpGe, quo(key, n), i64(-3))}, false},
		{"a formatter's digits against the unsigned ones", []*sym.Expr{cmp(rt.OpGe, key, i64(100)), cmp(rt.OpLe, key, i64(999)), cmp(rt.OpNe, digits(key, true), digits(asU(key), false))}, true},
		{"a formatter's digits against the unsigned ones, past the top digit", []*sym.Expr{cmp(rt.OpGe, key, i64(100)), cmp(rt.OpLe, key, i64(1000)), cmp(rt.OpNe, digits(key, true), digits(asU(key), false))}, false},
		{"a formatter's digits against the unsigned ones of a value that may be negative", []*sym.Expr{cmp(rt.OpGe, key, i64(-999)), cmp(rt.OpLe, key, i64(999)), cmp(rt.OpNe, digits(key, false), digits(asU(key), false))}, false},
		{"a byte widened again against the value", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(255)), cmp(rt.OpNe, c.Conv(rt.KInt64, c.Conv(rt.KUint8, key)), key)}, true},
		{"a byte widened again against a value that may not fit", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(256)), cmp(rt.OpNe, c.Conv(rt.KInt64, c.Conv(rt.KUint8, key)), key)}, false},
		{"a value's low byte and low 16 bits, each modulo 100", []*sym.Expr{cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLe, key, i64(70000)), cmp(rt.OpNe, asU(c.Binary(rt.OpRem, c.Conv(rt.KUint8, key), c.Const(rt.KUint8, 100))), asU(c.Binary(rt.OpRem, c.Conv(rt.KUint16, key), c.Const(rt.KUint16, 100))))}, false},
		{"a disjunction one side of which is ruled out", []*sym.Expr{cmp(rt.OpLt, key, i64(0)), cmp(rt.OpGt, key, i64(-1000)), c.Or(cmp(rt.OpLe, key, i64(-100)), cmp(rt.OpGe, key, i64(100))), cmp(rt.OpLt, c.Neg(key), i64(50))}, true},
		{"a disjunction one side of which is ruled out, satisfiable", []*sym.Expr{cmp(rt.OpLt, key, i64(0)), cmp(rt.OpGt, key, i64(-1000)), c.Or(cmp(rt.OpLe, key, i64(-100)), cmp(rt.OpGe, key, i64(100))), cmp(rt.OpLt, c.Neg(key), i64(200))}, false},
		{"a false conjunction one side of which holds", []*sym.Expr{cmp(rt.OpGe, key, i64(5)), c.Not(c.And(cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLt, key, i64(10)))), cmp(rt.OpGt, c.Neg(key), i64(-8))}, true},
		{"a false conjunction one side of which holds, satisfiable", []*sym.Expr{cmp(rt.OpGe, key, i64(5)), c.Not(c.And(cmp(rt.OpGe, key, i64(0)), cmp(rt.OpLt, key, i64(10)))), cmp(rt.OpGt, c.Neg(key), i64(-18))}, false},
		{"a quotient by a divisor that may be 0", []*sym.Expr{cmp(rt.OpGe, key, i64(10)), cmp(rt.OpLe, key, i64(20)), cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(1)), cmp(rt.OpLt, quo(key, n), i64(0))}, false},
		{"no bits outside a mask and a value past it", []*sym.Expr{cmp(rt.OpEq, c.Binary(rt.OpAndNot, key, i64(7)), i64(0)), cmp(rt.OpGe, asU(key), u64(10))}, true},
		{"no bits outside a mask and a value in it", []*sym.Expr{cmp(rt.OpEq, c.Binary(rt.OpAndNot, key, i64(7)), i64(0)), cmp(rt.OpGe, asU(key), u64(7))}, false},
		{"a slice's end checked against its start, the start cancelling", []*sym.Expr{cmp(rt.OpGe, key, i64(10)), cmp(rt.OpLe, key, i64(100)), cmp(rt.OpGt, asU(sub(sub(key, sub(key, i64(5))), i64(1))), asU(key))}, true},
		{"a slice's end checked against its start, satisfiable", []*sym.Expr{cmp(rt.OpGe, key, i64(3)), cmp(rt.OpLe, key, i64(100)), cmp(rt.OpGt, asU(sub(sub(key, sub(key, i64(5))), i64(1))), asU(key))}, false},
		{"a remaining length that bounds a position", []*sym.Expr{cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(10)), cmp(rt.OpGe, key, i64(-1)), cmp(rt.OpLe, key, i64(100)), cmp(rt.OpEq, sub(sub(n, i64(1)), add(key, i64(1))), i64(8)), cmp(rt.OpGt, mul(key, key), i64(4))}, true},
		{"a remaining length that bounds a position, satisfiable", []*sym.Expr{cmp(rt.OpGe, n, i64(0)), cmp(rt.OpLe, n, i64(10)), cmp(rt.OpGe, key, i64(-1)), cmp(rt.OpLe, key, i64(100)), cmp(rt.OpEq, sub(sub(n, i64(1)), add(key, i64(1))), i64(8)), cmp(rt.OpLe, mul(key, key), i64(0))}, false},
		{"a byte difference that wraps around", []*sym.Expr{cmp(rt.OpNe, sub(add(lo, c.Const(rt.KUint8, 200)), lo), c.Const(rt.KUint8, 200))}, true},
		{"an unsigned difference below zero", []*sym.Expr{cmp(rt.OpNe, sub(u, add(u, u64(3))), u64(1<<64-3))}, true},
		{"an unsigned difference below zero, satisfiable", []*sym.Expr{cmp(rt.OpNe, sub(u, add(u, u64(3))), u64(1<<64-4))}, false},
		{"a byte's class tested again", []*sym.Expr{c.Not(class(9, 10)), class(9, 10)}, true},
		{"a byte's class tested again, another class", []*sym.Expr{c.Not(class(9, 10)), class(9, 11)}, false},
	}
	core := NewZ3(Options{})
	defer core.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
			called := false
			m := &Metrics{}
			r, err := NewRefute(record{&called}, m).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if got := !called; got != tt.refuted {
				t.Fatalf("%s: refuted %v, want %v", sym.FormatAll(tt.cons, leaves), got, tt.refuted)
			}
			if tt.refuted && (r.Status != Unsat || m.Snapshot().Refuted != 1) {
				t.Fatalf("refuted with %v (%d counted)", r.Status, m.Snapshot().Refuted)
			}
			want, err := core.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if tt.refuted && want.Status != Unsat {
				t.Fatalf("Z3 says %v", want.Status)
			}
		})
	}
}

// TestRefuteAgreesWithZ3 builds random queries of remainders, quotients,
// masks, sums, products and conversions compared with constants and with each
// other: every query the layer refutes, Z3 must find unsatisfiable.
func TestRefuteAgreesWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "y", K: rt.KInt64}, {Path: "d", K: rt.KInt64}, {Path: "u", K: rt.KUint64}, {Path: "h", K: rt.KInt16}}
	x, y, d, u, h := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64), c.Input(2, rt.KInt64), c.Input(3, rt.KUint64), c.Input(4, rt.KInt16)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	small := func() int64 { return int64(rng.IntN(19)) - 9 }
	ops := comparisons
	// term returns an int64 term.
	var term func(depth int) *sym.Expr
	term = func(depth int) *sym.Expr {
		if depth == 0 {
			switch rng.IntN(4) {
			case 0:
				return x
			case 1:
				return y
			case 2:
				return d
			}
			return c.Conv(rt.KInt64, h)
		}
		a := term(depth - 1)
		switch rng.IntN(10) {
		case 7:
			return c.Binary(rt.OpQuo, a, c.Const(rt.KInt64, uint64(small()|1)))
		case 8:
			return c.Binary(rt.OpQuo, a, d) // d != 0 is part of every query
		case 9:
			return c.Binary(rt.OpAndNot, a, c.Const(rt.KInt64, uint64(rng.IntN(16))))
		case 0:
			return c.Binary(rt.OpRem, a, c.Const(rt.KInt64, uint64(1+rng.IntN(8))))
		case 1:
			return c.Binary(rt.OpRem, a, d) // d != 0 is part of every query
		case 2:
			return c.Binary(rt.OpAnd, a, c.Const(rt.KInt64, uint64(1<<rng.IntN(4)-1)))
		case 3:
			return c.Binary(rt.OpAdd, a, c.Const(rt.KInt64, uint64(small())))
		case 4:
			return c.Binary(rt.OpMul, a, c.Const(rt.KInt64, uint64(small())))
		case 5:
			return c.Binary(rt.OpAdd, a, term(depth-1))
		}
		return c.Conv(rt.KInt64, c.Conv(rt.KInt16, a))
	}
	constraint := func() *sym.Expr {
		op := ops[rng.IntN(len(ops))]
		switch rng.IntN(4) {
		case 0:
			return c.Compare(op, term(rng.IntN(3)), term(rng.IntN(2)))
		case 1:
			return c.Compare(op, c.Conv(rt.KUint64, term(rng.IntN(3))), u)
		case 2:
			return c.Compare(op, u, c.Const(rt.KUint64, uint64(small())))
		}
		return c.Compare(op, term(rng.IntN(3)), c.Const(rt.KInt64, uint64(small())))
	}
	refuted := 0
	for range 600 {
		cons := []*sym.Expr{c.Compare(rt.OpNe, d, c.Const(rt.KInt64, 0))}
		if rng.IntN(2) == 0 {
			// A divisor the query fixes by two comparisons.
			v := c.Const(rt.KInt64, uint64(1+rng.IntN(6)))
			cons = append(cons, c.Compare(rt.OpGe, d, v), c.Compare(rt.OpLe, d, v))
		}
		for range 1 + rng.IntN(5) {
			cons = append(cons, constraint())
		}
		if refutedAsZ3Agrees(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}) {
			refuted++
		}
	}
	wantRefuted(t, refuted, 600)
}

// TestRefuteLogicAgreesWithZ3 asks Z3 about every refutation among random
// queries over the bytes and length of a string in the shapes string
// models produce: searches (chains of if-then-else over byte
// comparisons), counts (sums of ite(..., 1, 0)), conjunctions and
// disjunctions of byte comparisons, conversions, and a count compared
// with itself plus one.
func TestRefuteLogicAgreesWithZ3(t *testing.T) {
	c := sym.NewContext()
	const size = 4
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: size}}
	s := c.Input(0, rt.KString)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(5, 6))
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	ops := comparisons
	bytes := []uint64{'.', 'x', '0', '9', 128}
	at := func(i int) *sym.Expr { return c.Index(s, n(i)) }
	atom := func() *sym.Expr {
		i := rng.IntN(size)
		switch rng.IntN(5) {
		case 0:
			return c.Compare(ops[rng.IntN(len(ops))], c.Len(s), n(rng.IntN(size+1)))
		case 1:
			return c.And(c.Compare(rt.OpGt, c.Len(s), n(i)), c.Compare(rt.OpEq, at(i), c.Const(rt.KUint8, bytes[rng.IntN(len(bytes))])))
		case 2:
			return c.Compare(ops[rng.IntN(len(ops))], c.Conv(rt.KInt32, at(i)), c.Const(rt.KInt32, bytes[rng.IntN(len(bytes))]))
		}
		op := rt.OpEq
		if rng.IntN(3) == 0 {
			op = rt.OpNe
		}
		return c.Compare(op, at(i), c.Const(rt.KUint8, bytes[rng.IntN(len(bytes))]))
	}
	search := func() *sym.Expr { // the position of the first match, or size
		b := c.Const(rt.KUint8, bytes[rng.IntN(2)])
		r := n(size)
		for i := size - 1; i >= 0; i-- {
			r = c.Ite(c.Compare(rt.OpEq, at(i), b), n(i), r)
		}
		return r
	}
	count := func() *sym.Expr {
		b := c.Const(rt.KUint8, bytes[rng.IntN(2)])
		r := n(0)
		for i := range size {
			r = c.Binary(rt.OpAdd, r, c.Ite(c.Compare(rt.OpEq, at(i), b), n(1), n(0)))
		}
		return r
	}
	constraint := func() *sym.Expr {
		switch rng.IntN(6) {
		case 0:
			return c.Compare(ops[rng.IntN(len(ops))], search(), n(rng.IntN(size+1)))
		case 1:
			return c.Compare(ops[rng.IntN(len(ops))], count(), n(rng.IntN(3)))
		case 2:
			return c.Or(atom(), atom())
		case 3:
			return c.And(atom(), atom())
		case 4:
			k := count()
			return c.Compare(ops[rng.IntN(len(ops))], c.Conv(rt.KUint64, k), c.Conv(rt.KUint64, c.Binary(rt.OpAdd, k, n(rng.IntN(3)-1))))
		}
		return c.Not(atom())
	}
	refuted := 0
	const queries = 800
	for range queries {
		cons := conjunction(rng, 1, 5, constraint)
		if refutedAsZ3Agrees(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}) {
			refuted++
		}
	}
	wantRefuted(t, refuted, queries)
}

// refutedAsZ3Agrees reports whether the refutation layer refutes q, and
// fails the test if it does and Z3 finds q satisfiable.
func refutedAsZ3Agrees(t *testing.T, core *Z3, q Query) bool {
	t.Helper()
	called := false
	if _, err := NewRefute(record{&called}, nil).Solve(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if called {
		return false
	}
	want, err := core.Solve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if want.Status != Unsat {
		t.Fatalf("%s: refuted, Z3 says %v with %v", sym.FormatAll(q.Constraints, q.Leaves), want.Status, want.Model)
	}
	return true
}

// wantRefuted logs how many of a test's random queries the layer refuted
// and fails t if fewer than a tenth: queries the layer never refutes
// check nothing.
func wantRefuted(t *testing.T, refuted, queries int) {
	t.Helper()
	t.Logf("refuted %d of %d", refuted, queries)
	if refuted < queries/10 {
		t.Errorf("the layer refuted %d of %d random queries", refuted, queries)
	}
}

// conjunction is a random query of least to least+spread-1 constraints
// that constraint builds.
func conjunction(rng *rand.Rand, least, spread int, constraint func() *sym.Expr) []*sym.Expr {
	cons := make([]*sym.Expr, 0, least+spread)
	for range least + rng.IntN(spread) {
		cons = append(cons, constraint())
	}
	return cons
}

// TestMergedInputsAgreeWithZ3 builds random queries over three int8
// inputs and a divisor that state some of the inputs equal and compare
// their remainders, sums and differences with constants and with each
// other: the layer's verdict must be Z3's and its models must satisfy
// the original query.
func TestMergedInputsAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt8}, {Path: "b", K: rt.KInt8}, {Path: "c", K: rt.KInt8}, {Path: "n", K: rt.KInt8}}
	in := []*sym.Expr{c.Input(0, rt.KInt8), c.Input(1, rt.KInt8), c.Input(2, rt.KInt8)}
	n := c.Input(3, rt.KInt8)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(13, 14))
	ops := comparisons
	i8 := func(v int64) *sym.Expr { return c.Const(rt.KInt8, uint64(v)) }
	term := func() *sym.Expr {
		x := in[rng.IntN(len(in))]
		switch rng.IntN(4) {
		case 0:
			return c.Binary(rt.OpRem, x, n)
		case 1:
			return c.Binary(rt.OpAdd, x, i8(int64(rng.IntN(9))-4))
		case 2:
			return c.Binary(rt.OpSub, x, in[rng.IntN(len(in))])
		}
		return x
	}
	constraint := func() *sym.Expr {
		switch rng.IntN(5) {
		case 0:
			a, b := in[rng.IntN(len(in))], in[rng.IntN(len(in))]
			return c.Compare(rt.OpEq, a, b)
		case 1:
			return c.Compare(ops[rng.IntN(len(ops))], term(), term())
		}
		return c.Compare(ops[rng.IntN(len(ops))], term(), i8(int64(rng.IntN(13))-6))
	}
	merged := 0
	const queries = 500
	for range queries {
		cons := append([]*sym.Expr{c.Compare(rt.OpGt, n, i8(0)), c.Compare(rt.OpLe, n, i8(int64(1+rng.IntN(8))))}, conjunction(rng, 2, 5, constraint)...)
		q := Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		if _, ok := mergeEqualInputs(sym.NewContext(), q); ok {
			merged++
		}
		layerAgreesWithZ3(t, core, q)
	}
	if merged < queries/4 {
		t.Errorf("inputs merged in %d of %d queries", merged, queries)
	}
	t.Logf("inputs merged in %d of %d queries", merged, queries)
}

// TestMergeEqualInputs checks what the rewriting merges and what it
// leaves alone.
func TestMergeEqualInputs(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KInt64}, {Path: "b", K: rt.KInt64}, {Path: "f", K: rt.KUint64, Float: true}, {Path: "g", K: rt.KUint64, Float: true}}
	a, b, f, g := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64), c.Input(2, rt.KUint64), c.Input(3, rt.KUint64)
	one := c.Const(rt.KInt64, 1)
	eq := c.Compare(rt.OpEq, b, a)
	last := c.Compare(rt.OpGt, b, one)
	q := Query{Constraints: []*sym.Expr{eq, c.Compare(rt.OpLt, c.Binary(rt.OpAdd, b, one), a), last}, Leaves: leaves}
	got, ok := mergeEqualInputs(c, q)
	if !ok {
		t.Fatal("nothing merged")
	}
	want := "b == a && a + 1 < a && a > 1"
	if s := sym.FormatAll(got.Constraints, leaves); s != want {
		t.Errorf("merged: %s, want %s", s, want)
	}
	floats := Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, f, g), c.Compare(rt.OpNe, g, c.Const(rt.KUint64, 0))}, Leaves: leaves}
	if _, ok := mergeEqualInputs(c, floats); ok {
		t.Error("floating-point inputs merged")
	}
}

// TestDifferencesAgreeWithZ3 builds random queries comparing terms offset
// by constants — bytes widened to int64, a length, an int8 that may wrap,
// some through conversions to uint64 — with each other: every query the
// layer refutes is unsatisfiable for Z3, and the differences refute
// queries the other arguments do not.
func TestDifferencesAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KUint8}, {Path: "b", K: rt.KUint8}, {Path: "len(xs)", K: rt.KInt, IsLen: true, Max: 40}, {Path: "i", K: rt.KInt8}}
	terms := []*sym.Expr{c.Conv(rt.KInt64, c.Input(0, rt.KUint8)), c.Conv(rt.KInt64, c.Input(1, rt.KUint8)), c.Conv(rt.KInt64, c.Input(2, rt.KInt))}
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(21, 22))
	side := func() *sym.Expr {
		e := terms[rng.IntN(3)]
		if rng.IntN(6) == 0 {
			e = c.Input(3, rt.KInt8) // may wrap: i + 100
			e = c.Binary(rt.OpAdd, e, c.Const(rt.KInt8, uint64(rng.IntN(120))))
			return c.Conv(rt.KInt64, e)
		}
		if k := rng.IntN(21) - 10; k != 0 {
			e = c.Binary(rt.OpAdd, e, c.Const(rt.KInt64, uint64(int64(k))))
		}
		return e
	}
	constraint := func() *sym.Expr {
		a, b := side(), side()
		op := comparisons[rng.IntN(len(comparisons))]
		switch rng.IntN(6) {
		case 0, 1:
			return c.Compare(op, c.Conv(rt.KUint64, a), c.Conv(rt.KUint64, b))
		case 2: // a difference compared with a constant (the rest of a string)
			return c.Compare(op, c.Binary(rt.OpSub, a, b), c.Const(rt.KInt64, uint64(int64(rng.IntN(9)-2))))
		case 3: // the same in uint64, where it wraps below 0
			return c.Compare(op, c.Binary(rt.OpSub, c.Conv(rt.KUint64, a), c.Conv(rt.KUint64, b)), c.Const(rt.KUint64, uint64(rng.IntN(6))))
		}
		return c.Compare(op, a, b)
	}
	const queries = 400
	refuted, byDiff := 0, 0
	for range queries {
		q := Query{Constraints: conjunction(rng, 4, 5, constraint), Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		if !refutedAsZ3Agrees(t, core, q) {
			continue
		}
		refuted++
		if iv, byIv := byIntervals(q); !byIv && !byRelations(q) && byDifferences(q, iv) {
			byDiff++
		}
	}
	t.Logf("refuted %d of %d, %d by differences alone", refuted, queries, byDiff)
	if byDiff < queries/20 {
		t.Errorf("differences refuted %d of %d random queries", byDiff, queries)
	}
}

// TestFieldsAgreeWithZ3 builds random queries in the shapes a binary
// parser's path takes: 16-bit fields read big-endian from two bytes
// (uint16(a) << 8 | uint16(b)), shifted right and truncated to a byte,
// compared with constants; positions past a length byte (p + 1 +
// int64(b)) compared with the position they started from, some
// through conversions to uint64. Every query the layer refutes is
// unsatisfiable for Z3 (the TestRefute rows on fields and label
// positions check that the two rules refute their shapes).
func TestFieldsAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "a", K: rt.KUint8}, {Path: "b", K: rt.KUint8}, {Path: "p", K: rt.KInt64}, {Path: "s", K: rt.KInt8}}
	a, b, p, s := c.Input(0, rt.KUint8), c.Input(1, rt.KUint8), c.Input(2, rt.KInt64), c.Input(3, rt.KInt8)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(31, 32))
	u16 := func(v uint64) *sym.Expr { return c.Const(rt.KUint16, v) }
	i64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	field := func() *sym.Expr {
		hi, lo := c.Conv(rt.KUint16, a), c.Conv(rt.KUint16, b)
		if rng.IntN(2) == 0 {
			hi, lo = lo, hi
		}
		return c.Binary(rt.OpOr, c.Binary(rt.OpShl, hi, u16(8)), lo)
	}
	consts16 := []uint64{0, 1, 2, 3, 0xff, 0x100, 0x101, 0x1ff, 0xffff}
	fieldConstraint := func() *sym.Expr {
		op := comparisons[rng.IntN(len(comparisons))]
		x := field()
		switch rng.IntN(4) {
		case 0:
			n := uint64(1 + rng.IntN(15))
			return c.Compare(op, c.Binary(rt.OpShr, x, u16(n)), u16(consts16[rng.IntN(4)]))
		case 1:
			return c.Compare(op, c.Conv(rt.KUint8, x), c.Const(rt.KUint8, consts16[rng.IntN(5)]))
		case 2:
			// An arithmetic shift of a signed byte.
			return c.Compare(op, c.Binary(rt.OpShr, s, c.Const(rt.KUint8, uint64(rng.IntN(8)))), c.Const(rt.KInt8, uint64(rng.IntN(5)-2)))
		}
		return c.Compare(op, x, u16(consts16[rng.IntN(len(consts16))]))
	}
	position := func() *sym.Expr {
		e := p
		if rng.IntN(2) == 0 {
			e = c.Binary(rt.OpAdd, e, i64(int64(rng.IntN(3))))
		}
		switch rng.IntN(4) {
		case 0:
			return e
		case 1:
			return c.Binary(rt.OpAdd, e, c.Conv(rt.KInt64, b))
		case 2:
			return c.Binary(rt.OpSub, e, c.Conv(rt.KInt64, a))
		}
		return c.Binary(rt.OpAdd, c.Conv(rt.KInt64, s), e)
	}
	positionConstraint := func() *sym.Expr {
		op := comparisons[rng.IntN(len(comparisons))]
		x, y := position(), position()
		if rng.IntN(2) == 0 {
			return c.Compare(op, c.Conv(rt.KUint64, x), c.Conv(rt.KUint64, y))
		}
		return c.Compare(op, x, y)
	}
	const queries = 600
	refuted := 0
	for range queries {
		var cons []*sym.Expr
		if rng.IntN(3) > 0 {
			// The position within a message, or anywhere (sums may wrap).
			cons = append(cons, c.Compare(rt.OpGe, p, i64(0)), c.Compare(rt.OpLt, p, i64(512)))
		}
		cons = append(cons, conjunction(rng, 1, 4, func() *sym.Expr {
			if rng.IntN(2) == 0 {
				return fieldConstraint()
			}
			return positionConstraint()
		})...)
		if refutedAsZ3Agrees(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}) {
			refuted++
		}
	}
	wantRefuted(t, refuted, queries)
}

// TestRememberedIntervalsAreCurrent checks what the layer remembers
// across narrowings: after the intervals of random queries (searches and
// counts over a string's bytes, fields read from two bytes, sums) are
// computed and narrowed to a fixed point, every interval still
// remembered must be the one computing it afresh gives. A narrowing that
// forgot too little would leave wider intervals above the term narrowed,
// and refute less.
func TestRememberedIntervalsAreCurrent(t *testing.T) {
	c := sym.NewContext()
	const size = 5
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: size}, {Path: "p", K: rt.KInt64}}
	s, p := c.Input(0, rt.KString), c.Input(1, rt.KInt64)
	rng := rand.New(rand.NewPCG(41, 42))
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	at := func(i int) *sym.Expr { return c.Index(s, n(i)) }
	bytes := []uint64{'.', '0', '9', 1, 2}
	b := func() *sym.Expr { return c.Const(rt.KUint8, bytes[rng.IntN(len(bytes))]) }
	search := func() *sym.Expr {
		x, r := b(), n(size)
		for i := size - 1; i >= 0; i-- {
			r = c.Ite(c.Compare(rt.OpEq, at(i), x), n(i), r)
		}
		return r
	}
	count := func() *sym.Expr {
		x, r := b(), n(0)
		for i := range size {
			r = c.Binary(rt.OpAdd, r, c.Ite(c.Compare(rt.OpEq, at(i), x), n(1), n(0)))
		}
		return r
	}
	field := func() *sym.Expr {
		i := rng.IntN(size - 1)
		return c.Binary(rt.OpOr, c.Binary(rt.OpShl, c.Conv(rt.KUint16, at(i)), c.Const(rt.KUint16, 8)), c.Conv(rt.KUint16, at(i+1)))
	}
	constraint := func() *sym.Expr {
		op := comparisons[rng.IntN(len(comparisons))]
		switch rng.IntN(6) {
		case 0:
			return c.Compare(op, search(), n(rng.IntN(size+1)))
		case 1:
			return c.Compare(op, count(), n(rng.IntN(3)))
		case 2:
			return c.Compare(op, c.Binary(rt.OpShr, field(), c.Const(rt.KUint16, 8)), c.Const(rt.KUint16, uint64(rng.IntN(3))))
		case 3:
			return c.Compare(op, c.Conv(rt.KUint8, field()), b())
		case 4:
			return c.Compare(op, c.Binary(rt.OpAdd, p, c.Conv(rt.KInt64, at(rng.IntN(size)))), c.Const(rt.KInt64, uint64(rng.IntN(300))))
		}
		return c.Compare(op, c.Len(s), n(rng.IntN(size+1)))
	}
	remembered := 0
	for range 300 {
		q := Query{Constraints: conjunction(rng, 2, 6, constraint), Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		iv, _ := byIntervals(q)
		if iv.contradiction {
			continue // the intervals above an empty one are not meant to be exact
		}
		type kept struct {
			e *sym.Expr
			r ival
		}
		var before []kept
		for i, e := range iv.terms {
			if iv.has[i] {
				before = append(before, kept{e, iv.known[i]})
			}
		}
		clear(iv.has)
		iv.computed = 0
		for _, k := range before {
			if got := iv.interval(k.e); got != k.r {
				t.Fatalf("%s: remembered %v for %s, computed afresh %v", sym.FormatAll(q.Constraints, leaves), k.r, sym.Format(k.e, leaves), got)
			}
		}
		remembered += len(before)
		iv.release()
	}
	if remembered < 1000 {
		t.Errorf("%d intervals remembered in all: the test checks too little", remembered)
	}
}

// TestEqualStringsAgreeWithZ3 builds random queries over two strings of
// different bounds that some constraints state equal, with their bytes
// and lengths compared with constants: the layer (which solves for one
// string of each equal pair and copies it) must give Z3's verdict and
// models that satisfy the original query and the bounds, also where the
// copy would not fit the shorter string's bound.
func TestEqualStringsAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 4}, {Path: "t", K: rt.KString, Max: 2}, {Path: "u", K: rt.KString, Max: 4}}
	strs := []*sym.Expr{c.Input(0, rt.KString), c.Input(1, rt.KString), c.Input(2, rt.KString)}
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(51, 52))
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	pick := func() *sym.Expr { return strs[rng.IntN(len(strs))] }
	constraint := func() *sym.Expr {
		op := comparisons[rng.IntN(len(comparisons))]
		switch rng.IntN(4) {
		case 0:
			return c.Compare(rt.OpEq, pick(), pick())
		case 1:
			return c.Compare(op, c.Len(pick()), n(rng.IntN(5)))
		case 2:
			s, i := pick(), rng.IntN(3)
			return c.And(c.Compare(rt.OpGt, c.Len(s), n(i)), c.Compare(op, c.Index(s, n(i)), c.Const(rt.KUint8, uint64('a'+rng.IntN(3)))))
		}
		return c.Compare(op, pick(), c.Str([]string{"", "a", "ab", "abc"}[rng.IntN(4)]))
	}
	copied := 0
	const queries = 200
	for range queries {
		q := Query{Constraints: conjunction(rng, 2, 4, constraint), Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		if _, copies := withoutEqualities(q); copies != nil {
			copied++
		}
		layerAgreesWithZ3(t, core, q) // verdict, model and bounds
	}
	if copied < queries/10 {
		t.Errorf("equal strings left out in %d of %d queries", copied, queries)
	}
	t.Logf("equal strings left out in %d of %d queries", copied, queries)
}

// TestEqualValuesAgreeWithZ3 builds random integer terms of one input
// (quotients, remainders, sums, products and conversions, the shapes of
// a formatter's digits) and a twin of each written in other kinds (the
// input converted to uint64 or int32, a remainder by a bound the value
// may or may not stay below), then states the input's range and that the
// two differ, as integers or as the strings of their bytes: every query
// the layer refutes, Z3 must find unsatisfiable.
func TestEqualValuesAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "v", K: rt.KInt64}}
	v := c.Input(0, rt.KInt64)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(41, 42))
	kinds := []rt.Kind{rt.KInt64, rt.KUint64, rt.KInt32, rt.KUint8}
	// build applies the same random steps to x and to its twin y, the
	// twin's steps in another kind where the step allows.
	type step struct {
		op rt.Op
		c  uint64
		k  rt.Kind
	}
	steps := func() []step {
		var out []step
		for range 1 + rng.IntN(4) {
			ops := []rt.Op{rt.OpQuo, rt.OpRem, rt.OpAdd, rt.OpMul, rt.OpConv}
			out = append(out, step{ops[rng.IntN(len(ops))], uint64(1 + rng.IntN(12)), kinds[rng.IntN(len(kinds))]})
		}
		return out
	}
	apply := func(x *sym.Expr, st []step, twin bool) *sym.Expr {
		for _, s := range st {
			if twin && rng.IntN(3) == 0 && x.Kind().Integer() {
				x = c.Conv(kinds[rng.IntN(2)], x) // to int64 or uint64
			}
			if twin && rng.IntN(4) == 0 {
				x = c.Binary(rt.OpRem, x, c.Const(x.Kind(), uint64(5+rng.IntN(20))))
			}
			if twin && rng.IntN(4) == 0 && x.Kind() != rt.KUint8 {
				x = c.Conv(x.Kind(), c.Conv(rt.KUint8, x)) // its low byte, widened again
			}
			switch s.op {
			case rt.OpConv:
				x = c.Conv(s.k, x)
			default:
				x = c.Binary(s.op, x, c.Const(x.Kind(), s.c))
			}
		}
		return x
	}
	refuted := 0
	const queries = 500
	for range queries {
		lo := int64(rng.IntN(40)) - 10
		cons := []*sym.Expr{c.Compare(rt.OpGe, v, c.Const(rt.KInt64, uint64(lo))), c.Compare(rt.OpLe, v, c.Const(rt.KInt64, uint64(lo+int64(rng.IntN(30)))))}
		x := v
		if rng.IntN(2) == 0 {
			x = c.Conv(rt.KUint64, v)
		}
		var a, b *sym.Expr
		if rng.IntN(2) == 0 {
			st := steps()
			a, b = apply(v, st, false), apply(x, st, true)
			if a.Kind() != b.Kind() {
				b = c.Conv(a.Kind(), b)
			}
		} else {
			// Strings of bytes.
			var as, bs []*sym.Expr
			for range 1 + rng.IntN(3) {
				st := steps()
				as = append(as, c.Conv(rt.KUint8, apply(v, st, false)))
				bs = append(bs, c.Conv(rt.KUint8, apply(x, st, true)))
			}
			a, b = c.FromList(as), c.FromList(bs)
		}
		cons = append(cons, c.Compare(rt.OpNe, a, b))
		if refutedAsZ3Agrees(t, core, Query{Constraints: cons, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}) {
			refuted++
		}
	}
	wantRefuted(t, refuted, queries)
}

// TestNegationsAgreeWithZ3 builds random conjunctions and disjunctions of
// comparisons of two int8 inputs, with each other and with constants,
// and asks each with its negation — as the simplifier writes it, or
// written out with comparisons mirrored and operands swapped at random
// — or with the negation of a formula that differs in one comparison
// (its constant, operand or operator): byNegations must find every
// negation, and every query it refutes Z3 must find unsatisfiable.
func TestNegationsAgreeWithZ3(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt8}, {Path: "y", K: rt.KInt8}}
	x, y := c.Input(0, rt.KInt8), c.Input(1, rt.KInt8)
	core := NewZ3(Options{})
	defer core.Close()
	rng := rand.New(rand.NewPCG(71, 72))
	// formula returns a formula and one that differs from it in one
	// comparison.
	var formula func(depth int) (*sym.Expr, *sym.Expr)
	formula = func(depth int) (*sym.Expr, *sym.Expr) {
		if depth == 0 || rng.IntN(4) == 0 {
			op := comparisons[rng.IntN(len(comparisons))]
			a := []*sym.Expr{x, y}[rng.IntN(2)]
			b := c.Const(rt.KInt8, uint64(int64(rng.IntN(41))-20))
			if rng.IntN(4) == 0 {
				b = []*sym.Expr{x, y}[rng.IntN(2)]
			}
			switch rng.IntN(3) {
			case 0:
				return c.Compare(op, a, b), c.Compare(op, a, c.Binary(rt.OpAdd, b, c.Const(rt.KInt8, 1)))
			case 1:
				return c.Compare(op, a, b), c.Compare(op, b, a)
			}
			return c.Compare(op, a, b), c.Compare(comparisons[rng.IntN(len(comparisons))], a, b)
		}
		a, a2 := formula(depth - 1)
		b, b2 := formula(depth - 1)
		join := c.And
		if rng.IntN(2) == 0 {
			join = c.Or
		}
		if rng.IntN(2) == 0 {
			return join(a, b), join(a2, b)
		}
		return join(a, b), join(a, b2)
	}
	// negation writes !f out, mirroring comparisons and swapping
	// operands at random.
	var negation func(f *sym.Expr) *sym.Expr
	negation = func(f *sym.Expr) *sym.Expr {
		switch op := f.Op(); {
		case op == rt.OpLAnd || op == rt.OpLOr:
			a, b := negation(f.Arg(0)), negation(f.Arg(1))
			if rng.IntN(2) == 0 {
				a, b = b, a
			}
			if op == rt.OpLAnd {
				return c.Or(a, b)
			}
			return c.And(a, b)
		case isComparison(op) && rng.IntN(2) == 0:
			return c.Compare(sym.Mirror(sym.Negate(op)), f.Arg(1), f.Arg(0))
		}
		return c.Not(f)
	}
	found, refuted := 0, 0
	for range 600 {
		f, other := formula(3)
		if f.Op() != rt.OpLAnd && f.Op() != rt.OpLOr {
			continue
		}
		var g *sym.Expr
		asked := rng.IntN(3)
		switch asked {
		case 0:
			g = c.Not(f)
		case 1:
			g = negation(f)
		default:
			g = c.Not(other)
		}
		q := Query{Constraints: []*sym.Expr{f, g}, Leaves: leaves, Seed: make([]rt.Value, len(leaves))}
		if asked < 2 && g.Op() != rt.OpConst {
			if !byNegations(q) {
				t.Fatalf("%s: the negation not found", sym.FormatAll(q.Constraints, leaves))
			}
			found++
		}
		if refutedAsZ3Agrees(t, core, q) {
			refuted++
		}
	}
	if found < 150 {
		t.Errorf("%d negations asked: the test checks too little", found)
	}
	t.Logf("%d negations, %d refuted in all", found, refuted)
}
