package solver

import (
	"fmt"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// The magic-value tests solve conditions that random testing practically
// never satisfies, and check each model with Go's own operators.

func TestMagicValues(t *testing.T) {
	c := sym.NewContext()
	n := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	u8 := func(v int) *sym.Expr { return c.Const(rt.KUint8, uint64(v)) }
	// b is a []byte input: a length leaf and 8 element leaves.
	bytesLeaves := []rt.Leaf{{Path: "len(b)", K: rt.KInt, IsLen: true, Max: 8}}
	for i := range 8 {
		bytesLeaves = append(bytesLeaves, rt.Leaf{Path: "b[" + string(rune('0'+i)) + "]", K: rt.KUint8})
	}
	blen := c.Input(0, rt.KInt)
	b := func(i int) *sym.Expr { return c.Input(1+i, rt.KUint8) }
	wide := func(i int) *sym.Expr { return c.Conv(rt.KInt, b(i)) }

	tests := []struct {
		name   string
		leaves []rt.Leaf
		conds  []*sym.Expr
		check  func(m []rt.Value) bool // Go's view of the model
	}{
		{
			name:   "x == 0x5eedf00d",
			leaves: []rt.Leaf{{Path: "x", K: rt.KUint32}},
			conds:  []*sym.Expr{c.Compare(rt.OpEq, c.Input(0, rt.KUint32), c.Const(rt.KUint32, 0x5eedf00d))},
			check:  func(m []rt.Value) bool { return uint32(m[0].Bits) == 0x5eedf00d },
		},
		{
			name:   "x*7+3 == 0x5eedf00d (int32, wrapping)",
			leaves: []rt.Leaf{{Path: "x", K: rt.KInt32}},
			conds: []*sym.Expr{c.Compare(rt.OpEq,
				c.Binary(rt.OpAdd, c.Binary(rt.OpMul, c.Input(0, rt.KInt32), c.Const(rt.KInt32, 7)), c.Const(rt.KInt32, 3)),
				c.Const(rt.KInt32, 0x5eedf00d))},
			check: func(m []rt.Value) bool { x := int32(m[0].Bits); return x*7+3 == 0x5eedf00d },
		},
		{
			name:   "a+b < a (uint64 overflow)",
			leaves: []rt.Leaf{{Path: "a", K: rt.KUint64}, {Path: "b", K: rt.KUint64}},
			conds: []*sym.Expr{c.Compare(rt.OpLt,
				c.Binary(rt.OpAdd, c.Input(0, rt.KUint64), c.Input(1, rt.KUint64)), c.Input(0, rt.KUint64))},
			check: func(m []rt.Value) bool { a, b := m[0].Bits, m[1].Bits; return a+b < a },
		},
		{
			name:   "a+b < a (int8 overflow with b > 0)",
			leaves: []rt.Leaf{{Path: "a", K: rt.KInt8}, {Path: "b", K: rt.KInt8}},
			conds: []*sym.Expr{
				c.Compare(rt.OpGt, c.Input(1, rt.KInt8), c.Const(rt.KInt8, 0)),
				c.Compare(rt.OpLt, c.Binary(rt.OpAdd, c.Input(0, rt.KInt8), c.Input(1, rt.KInt8)), c.Input(0, rt.KInt8))},
			check: func(m []rt.Value) bool { a, b := int8(m[0].Bits), int8(m[1].Bits); return b > 0 && a+b < a },
		},
		{
			name:   `s == "dowse!"`,
			leaves: []rt.Leaf{{Path: "s", K: rt.KString, Max: 6}},
			conds:  []*sym.Expr{c.Compare(rt.OpEq, c.Input(0, rt.KString), c.Str("dowse!"))},
			check:  func(m []rt.Value) bool { return m[0].Str == "dowse!" },
		},
		{
			name:   "length-prefixed header",
			leaves: bytesLeaves,
			// len(b) >= 4 && b[0] == 'D' && b[1] == 'W' && int(b[2])<<8|int(b[3]) == len(b)-4 && len(b) > 5
			conds: []*sym.Expr{
				c.Compare(rt.OpGe, blen, n(4)),
				c.Compare(rt.OpEq, b(0), u8('D')),
				c.Compare(rt.OpEq, b(1), u8('W')),
				c.Compare(rt.OpEq, c.Binary(rt.OpOr, c.Binary(rt.OpShl, wide(2), u8(8)), wide(3)), c.Binary(rt.OpSub, blen, n(4))),
				c.Compare(rt.OpGt, blen, n(5)),
			},
			check: func(m []rt.Value) bool {
				l := int(m[0].Bits)
				buf := make([]byte, 8)
				for i := range buf {
					buf[i] = byte(m[1+i].Bits)
				}
				buf = buf[:l]
				return len(buf) > 5 && buf[0] == 'D' && buf[1] == 'W' && int(buf[2])<<8|int(buf[3]) == len(buf)-4
			},
		},
		{
			name:   "3-byte checksum (b0+b1)%256 == b2 with both large",
			leaves: bytesLeaves[1:4],
			conds: []*sym.Expr{
				c.Compare(rt.OpGt, c.Input(0, rt.KUint8), u8(200)),
				c.Compare(rt.OpGt, c.Input(1, rt.KUint8), u8(200)),
				c.Compare(rt.OpEq, c.Binary(rt.OpAdd, c.Input(0, rt.KUint8), c.Input(1, rt.KUint8)), c.Input(2, rt.KUint8)),
			},
			check: func(m []rt.Value) bool {
				b0, b1, b2 := uint8(m[0].Bits), uint8(m[1].Bits), uint8(m[2].Bits)
				return b0 > 200 && b1 > 200 && b0+b1 == b2
			},
		},
		{
			name:   "signed division and remainder",
			leaves: []rt.Leaf{{Path: "x", K: rt.KInt16}},
			conds: []*sym.Expr{
				c.Compare(rt.OpEq, c.Binary(rt.OpQuo, c.Input(0, rt.KInt16), c.Const(rt.KInt16, 7)), c.Const(rt.KInt16, uint64(0xffff&-300))),
				c.Compare(rt.OpEq, c.Binary(rt.OpRem, c.Input(0, rt.KInt16), c.Const(rt.KInt16, 7)), c.Const(rt.KInt16, uint64(0xffff&-4))),
			},
			check: func(m []rt.Value) bool { x := int16(m[0].Bits); return x/7 == -300 && x%7 == -4 },
		},
		{
			name:   "shift by a wide count",
			leaves: []rt.Leaf{{Path: "x", K: rt.KInt32}, {Path: "n", K: rt.KUint64}},
			conds: []*sym.Expr{
				c.Compare(rt.OpLt, c.Input(0, rt.KInt32), c.Const(rt.KInt32, 0)),
				c.Compare(rt.OpGt, c.Input(1, rt.KUint64), c.Const(rt.KUint64, 1<<40)),
				c.Compare(rt.OpEq, c.Binary(rt.OpShr, c.Input(0, rt.KInt32), c.Input(1, rt.KUint64)), c.Const(rt.KInt32, 0xffffffff)),
			},
			check: func(m []rt.Value) bool {
				x, s := int32(m[0].Bits), m[1].Bits
				return x < 0 && s > 1<<40 && x>>s == -1
			},
		},
	}
	for _, tt := range tests {
		for _, simple := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/simple=%v", tt.name, simple), func(t *testing.T) {
				chain := New(Config{Options: Options{Simple: simple}})
				defer chain.Close()
				seed := make([]rt.Value, len(tt.leaves))
				q := Query{Constraints: tt.conds, Leaves: tt.leaves, Seed: seed}
				r := mustSolve(t, chain, q)
				checkModel(t, q, r)
				if !tt.check(r.Model) {
					t.Errorf("model %+v fails the Go check", r.Model)
				}
			})
		}
	}
}

func TestUnsat(t *testing.T) {
	c := sym.NewContext()
	x := c.Input(0, rt.KInt64)
	u := c.Input(1, rt.KUint8)
	s := c.Input(2, rt.KString)
	l := c.Input(3, rt.KInt)
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "u", K: rt.KUint8}, {Path: "s", K: rt.KString, Max: 3}, {Path: "len(xs)", K: rt.KInt, IsLen: true, Max: 4}}
	n := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	tests := []struct {
		name  string
		conds []*sym.Expr
	}{
		{"empty interval", []*sym.Expr{c.Compare(rt.OpGt, x, n(5)), c.Compare(rt.OpLt, x, n(3))}},
		{"uint8 cannot reach 256", []*sym.Expr{c.Compare(rt.OpEq, c.Conv(rt.KInt64, u), n(256))}},
		{"x*2 is even", []*sym.Expr{c.Compare(rt.OpEq, c.Binary(rt.OpMul, x, n(2)), n(7))}},
		{"string longer than its bound", []*sym.Expr{c.Compare(rt.OpGt, c.Len(s), n(3))}},
		{"slice length beyond its bound", []*sym.Expr{c.Compare(rt.OpGt, l, n(4))}},
		{"negative slice length", []*sym.Expr{c.Compare(rt.OpLt, l, n(0))}},
		{"x != x+0", []*sym.Expr{c.Compare(rt.OpNe, c.Binary(rt.OpAdd, x, c.Binary(rt.OpMul, n(0), x)), x)}},
		{"constant false", []*sym.Expr{c.False()}},
		{"unsat group next to a sat one", []*sym.Expr{c.Compare(rt.OpEq, u, c.Const(rt.KUint8, 9)), c.Compare(rt.OpGt, x, n(5)), c.Compare(rt.OpLt, x, n(3))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chain := New(Config{})
			defer chain.Close()
			seed := []rt.Value{{}, {}, {Str: "ab"}, {Bits: 2}}
			r := mustSolve(t, chain, Query{Constraints: tt.conds, Leaves: leaves, Seed: seed})
			if r.Status != Unsat {
				t.Errorf("%s: %v %+v, want unsat", sym.FormatAll(tt.conds, leaves), r.Status, r.Model)
			}
		})
	}
}
