package sym

import (
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// subChain is x - d - d - ... (n times), as the argument of a recursive
// call f(n-1) at depth n.
func subChain(c *Context, x, d *Expr, n int) *Expr {
	for range n {
		x = c.Binary(rt.OpSub, x, d)
	}
	return x
}

func TestSimplifications(t *testing.T) {
	c := NewContext()
	x, y := c.Input(0, rt.KInt32), c.Input(1, rt.KInt32)
	u := c.Input(2, rt.KUint8)
	b := c.Input(3, rt.KBool)
	s := c.Input(4, rt.KString)
	i32 := func(v int64) *Expr { return c.Const(rt.KInt32, uint64(v)) }
	u8 := func(v uint64) *Expr { return c.Const(rt.KUint8, v) }
	n := func(v int64) *Expr { return c.Const(rt.KInt, uint64(v)) }
	tests := []struct {
		name string
		got  *Expr
		want string
	}{
		{"x+0", c.Binary(rt.OpAdd, x, i32(0)), "in[0]"},
		{"0+x", c.Binary(rt.OpAdd, i32(0), x), "in[0]"},
		{"constant moves right", c.Binary(rt.OpAdd, i32(3), x), "in[0] + 3"},
		{"constants gather", c.Binary(rt.OpAdd, c.Binary(rt.OpAdd, x, i32(3)), i32(-5)), "in[0] + -2"},
		{"x-x", c.Binary(rt.OpSub, x, x), "0"},
		{"(x+13)-13", c.Binary(rt.OpSub, c.Binary(rt.OpAdd, x, i32(13)), i32(13)), "in[0]"},
		{"(x+13)-3", c.Binary(rt.OpSub, c.Binary(rt.OpAdd, x, i32(13)), i32(3)), "in[0] + 10"},
		{"(x-1)-1", c.Binary(rt.OpSub, c.Binary(rt.OpSub, x, i32(1)), i32(1)), "in[0] - 2"},
		{"(x-2)+2", c.Binary(rt.OpAdd, c.Binary(rt.OpSub, x, i32(2)), i32(2)), "in[0]"},
		{"(x-5)+2", c.Binary(rt.OpAdd, c.Binary(rt.OpSub, x, i32(5)), i32(2)), "in[0] - 3"},
		{"x-1 a thousand times", subChain(c, x, i32(1), 1000), "in[0] - 1000"},
		{"0-x", c.Binary(rt.OpSub, i32(0), x), "-in[0]"},
		{"x*1", c.Binary(rt.OpMul, x, i32(1)), "in[0]"},
		{"x*0", c.Binary(rt.OpMul, x, i32(0)), "0"},
		{"x*-1", c.Binary(rt.OpMul, x, i32(-1)), "-in[0]"},
		{"x/1", c.Binary(rt.OpQuo, x, i32(1)), "in[0]"},
		{"x%-1", c.Binary(rt.OpRem, x, i32(-1)), "0"},
		{"u/255 stays", c.Binary(rt.OpQuo, u, u8(255)), "in[2] / 255"},
		{"x&0", c.Binary(rt.OpAnd, x, i32(0)), "0"},
		{"x&-1", c.Binary(rt.OpAnd, x, i32(-1)), "in[0]"},
		{"x|x", c.Binary(rt.OpOr, x, x), "in[0]"},
		{"x^x", c.Binary(rt.OpXor, x, x), "0"},
		{"x^-1", c.Binary(rt.OpXor, x, i32(-1)), "^in[0]"},
		{"x&^x", c.Binary(rt.OpAndNot, x, x), "0"},
		{"x<<0", c.Binary(rt.OpShl, x, u8(0)), "in[0]"},
		{"x<<32", c.Binary(rt.OpShl, x, u8(32)), "0"},
		{"x>>32 signed keeps sign", c.Binary(rt.OpShr, x, u8(40)), "in[0] >> 40"},
		{"u>>8", c.Binary(rt.OpShr, u, u8(8)), "0"},
		{"--x", c.Neg(c.Neg(x)), "in[0]"},
		{"^^x", c.Cpl(c.Cpl(x)), "in[0]"},
		{"fold wrap", c.Binary(rt.OpAdd, u8(200), u8(100)), "44"},
		{"fold MinInt32/-1", c.Binary(rt.OpQuo, i32(-1<<31), i32(-1)), "-0x80000000"},
		{"fold -7/2", c.Binary(rt.OpQuo, i32(-7), i32(2)), "-3"},
		{"fold -7%2", c.Binary(rt.OpRem, i32(-7), i32(2)), "-1"},
		{"fold -8>>9", c.Binary(rt.OpShr, i32(-8), u8(200)), "-1"},
		{"fold conversion", c.Conv(rt.KInt8, c.Const(rt.KUint16, 0x1ff)), "-1"},
		{"!!b", c.Not(c.Not(b)), "in[3]"},
		{"!(x<y)", c.Not(c.Compare(rt.OpLt, x, y)), "in[0] >= in[1]"},
		{"!(x==y)", c.Not(c.Compare(rt.OpEq, x, y)), "in[0] != in[1]"},
		{"De Morgan", c.Not(c.And(c.Compare(rt.OpLt, x, y), b)), "in[0] >= in[1] || !in[3]"},
		{"constant comparison", c.Compare(rt.OpLt, i32(-1), i32(0)), "true"},
		{"x<x", c.Compare(rt.OpLt, x, x), "false"},
		{"x<=x", c.Compare(rt.OpLe, x, x), "true"},
		{"constant left mirrors", c.Compare(rt.OpLt, i32(5), x), "in[0] > 5"},
		{"u<0", c.Compare(rt.OpLt, u, u8(0)), "false"},
		{"u<=255", c.Compare(rt.OpLe, u, u8(255)), "true"},
		{"x>MaxInt32", c.Compare(rt.OpGt, x, i32(1<<31-1)), "false"},
		{"b==true", c.Compare(rt.OpEq, b, c.True()), "in[3]"},
		{"b==false", c.Compare(rt.OpEq, b, c.False()), "!in[3]"},
		{"x+3==10", c.Compare(rt.OpEq, c.Binary(rt.OpAdd, x, i32(3)), i32(10)), "in[0] == 7"},
		{"x^5!=1", c.Compare(rt.OpNe, c.Binary(rt.OpXor, x, i32(5)), i32(1)), "in[0] != 4"},
		{"int32(u)==300", c.Compare(rt.OpEq, c.Conv(rt.KInt32, u), i32(300)), "false"},
		{"int32(u)==65", c.Compare(rt.OpEq, c.Conv(rt.KInt32, u), i32(65)), "in[2] == 65"},
		{"uint8(int32(u))", c.Conv(rt.KUint8, c.Conv(rt.KInt32, u)), "in[2]"},
		{"b&&true", c.And(b, c.True()), "in[3]"},
		{"b&&!b", c.And(b, c.Not(b)), "false"},
		{"x<y||x>=y", c.Or(c.Compare(rt.OpLt, x, y), c.Compare(rt.OpGe, x, y)), "true"},
		{"ite true", c.Ite(c.True(), x, y), "in[0]"},
		{"ite same", c.Ite(b, x, x), "in[0]"},
		{"ite bool", c.Ite(b, c.True(), c.False()), "in[3]"},
		{"ite not", c.Ite(c.Not(b), x, y), "ite(in[3], in[1], in[0])"},
		{"len const", c.Len(c.Str("dowse")), "5"},
		{"len concat", c.Len(c.Concat(s, c.Str("!!"))), "len(in[4]) + 2"},
		{"s==\"\"", c.Compare(rt.OpEq, s, c.Str("")), "len(in[4]) == 0"},
		{"s<\"\"", c.Compare(rt.OpLt, s, c.Str("")), "false"},
		{"index const", c.Index(c.Str("dowse"), n(1)), "111"},
		{"slice const", c.Slice(c.Str("dowse"), n(1), n(3)), `"ow"`},
		{"slice whole", c.Slice(s, n(0), c.Len(s)), "in[4]"},
		{"concat empty", c.Concat(c.Str(""), s), "in[4]"},
		{"concat consts", c.Concat(c.Str("do"), c.Str("wse")), `"dowse"`},
		{"from constant list", c.FromList([]*Expr{u8('h'), u8('i')}), `"hi"`},
		{"byte list == one-byte string", c.Compare(rt.OpEq, c.FromList([]*Expr{c.Index(s, n(0))}), c.Str(">")), "in[4][0] == '>'"},
		{"byte list == string", c.Compare(rt.OpEq, c.FromList([]*Expr{c.Index(s, n(0)), u}), c.Str("=>")), "in[4][0] == '=' && in[2] == 62"},
		{"byte list != string", c.Compare(rt.OpNe, c.Str("=>"), c.FromList([]*Expr{c.Index(s, n(0)), u})), "in[4][0] != '=' || in[2] != 62"},
		{"index of a slice", c.Index(c.Slice(s, n(1), c.Len(s)), n(2)), "in[4][3]"},
		{"index of a slice of a slice", c.Index(c.Slice(c.Slice(s, n(1), c.Len(s)), n(2), n(5)), c.Const(rt.KUint8, 1)), "in[4][4]"},
		{"slice of a slice", c.Slice(c.Slice(s, n(1), c.Len(s)), n(2), n(5)), "in[4][3:6]"},
		{"slice of a slice, symbolic bound", c.Slice(c.Slice(s, n(1), c.Len(s)), n(2), c.Len(s)), "in[4][1:][2:len(in[4])]"},
		{"lengths differ", c.Compare(rt.OpEq, c.FromList([]*Expr{c.Index(s, n(0)), u}), c.Str(">")), "false"},
		{"slice of known length", c.Compare(rt.OpNe, c.Slice(s, n(1), n(3)), c.Str(">")), "true"},
		{"unknown length stays", c.Compare(rt.OpEq, c.Slice(s, n(1), c.Len(s)), c.Str(">")), `in[4][1:] == ">"`},
		{"from list index", c.Index(c.FromList([]*Expr{u, u8('i')}), n(0)), "in[2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.got.String(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestInterning(t *testing.T) {
	c := NewContext()
	build := func() *Expr {
		x := c.Input(0, rt.KInt64)
		return c.Compare(rt.OpLt, c.Binary(rt.OpMul, x, c.Const(rt.KInt64, 3)), c.Len(c.Input(1, rt.KString)))
	}
	a, b := build(), build()
	if a != b {
		t.Fatalf("structurally equal terms are different pointers: %v, %v", a, b)
	}
	if got, want := a.Vars(), []int{0, 1}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Vars = %v, want %v", got, want)
	}
	arena := []rt.Node{{},
		{Op: rt.OpInput, K: rt.KInt64, Val: 0},
		{Op: rt.OpConst, K: rt.KInt64, Val: 3},
		{Op: rt.OpMul, K: rt.KInt64, A: 1, B: 2},
		{Op: rt.OpInput, K: rt.KString, Val: 1},
		{Op: rt.OpLen, K: rt.KInt, A: 4},
		{Op: rt.OpLt, K: rt.KBool, K2: rt.KInt64, A: 3, B: 5},
	}
	for run := range 2 {
		terms, err := c.Decode(arena)
		if err != nil {
			t.Fatal(err)
		}
		if terms[6] != a {
			t.Errorf("run %d: decoded %v is not the built term", run, terms[6])
		}
	}
	other := NewContext()
	if d, _ := other.Decode(arena); d[6] == a || d[6].Hash() != a.Hash() {
		t.Errorf("another context: pointer-equal %v or hash differs %x != %x", d[6] == a, d[6].Hash(), a.Hash())
	}
}

func TestDecodeRejectsMalformedArenas(t *testing.T) {
	tests := []struct {
		name  string
		nodes []rt.Node
	}{
		{"forward reference", []rt.Node{{}, {Op: rt.OpNeg, K: rt.KInt8, A: 2}, {Op: rt.OpConst, K: rt.KInt8}}},
		{"self reference", []rt.Node{{}, {Op: rt.OpNeg, K: rt.KInt8, A: 1}}},
		{"missing operand", []rt.Node{{}, {Op: rt.OpConst, K: rt.KInt8}, {Op: rt.OpAdd, K: rt.KInt8, A: 1}}},
		{"kind mismatch", []rt.Node{{}, {Op: rt.OpConst, K: rt.KInt8}, {Op: rt.OpConst, K: rt.KInt16}, {Op: rt.OpAdd, K: rt.KInt8, A: 1, B: 2}}},
		{"ordered bools", []rt.Node{{}, {Op: rt.OpConst, K: rt.KBool}, {Op: rt.OpLt, K: rt.KBool, K2: rt.KBool, A: 1, B: 1}}},
		{"index of int", []rt.Node{{}, {Op: rt.OpConst, K: rt.KInt64}, {Op: rt.OpIndex, K: rt.KUint8, K2: rt.KInt64, A: 1, B: 1}}},
		{"list of int16", []rt.Node{{}, {Op: rt.OpConst, K: rt.KInt16}, {Op: rt.OpFromList, K: rt.KString, List: []rt.S{1}}}},
		{"unknown operator", []rt.Node{{}, {Op: 200, K: rt.KInt8}}},
		{"bool string constant", []rt.Node{{}, {Op: rt.OpStr, K: rt.KBool}}},
	}
	c := NewContext()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.Decode(tt.nodes); err == nil {
				t.Error("Decode accepted a malformed arena")
			}
		})
	}
}

func TestFormat(t *testing.T) {
	c := NewContext()
	leaves := []rt.Leaf{{Path: "a[0]", K: rt.KInt64}, {Path: "a[3]", K: rt.KInt64}, {Path: "s", K: rt.KString}, {Path: "x", K: rt.KUint32}}
	a0, a3 := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	s, x := c.Input(2, rt.KString), c.Input(3, rt.KUint32)
	n := func(v int64) *Expr { return c.Const(rt.KInt, uint64(v)) }
	tests := []struct {
		e    *Expr
		want string
	}{
		{c.And(c.Compare(rt.OpLt, a0, a3), c.Compare(rt.OpEq, c.Len(s), n(6))), "a[0] < a[3] && len(s) == 6"},
		{c.Compare(rt.OpEq, x, c.Const(rt.KUint32, 0x5eedf00d)), "x == 0x5eedf00d"},
		{c.Compare(rt.OpEq, c.Index(s, n(0)), c.Const(rt.KUint8, 'G')), "s[0] == 'G'"},
		{c.Binary(rt.OpMul, c.Binary(rt.OpAdd, a0, a3), a0), "(a[0] + a[3]) * a[0]"},
		{c.Binary(rt.OpSub, a0, c.Binary(rt.OpSub, a3, a0)), "a[0] - (a[3] - a[0])"},
		{c.Or(c.And(c.Compare(rt.OpLt, a0, n(0)), c.Compare(rt.OpGt, a3, n(0))), c.Compare(rt.OpEq, a0, a3)), "a[0] < 0 && a[3] > 0 || a[0] == a[3]"},
		{c.And(c.Or(c.Compare(rt.OpLt, a0, n(0)), c.Compare(rt.OpGt, a3, n(0))), c.Compare(rt.OpEq, a0, a3)), "(a[0] < 0 || a[3] > 0) && a[0] == a[3]"},
		{c.Compare(rt.OpEq, c.Slice(s, n(1), c.Len(s)), c.Str("ok")), `s[1:] == "ok"`},
		{c.Compare(rt.OpEq, c.Conv(rt.KUint8, a0), c.Index(c.Concat(s, s), n(2))), "uint8(a[0]) == (s + s)[2]"},
		{c.Neg(c.Binary(rt.OpAdd, a0, a3)), "-(a[0] + a[3])"},
		{c.Compare(rt.OpLe, a0, c.Const(rt.KInt64, uint64(1<<63))), "a[0] <= -0x8000000000000000"},
		{c.Compare(rt.OpEq, c.Input(9, rt.KBool), c.Input(8, rt.KBool)), "in[9] == in[8]"},
	}
	for _, tt := range tests {
		if got := Format(tt.e, leaves); got != tt.want {
			t.Errorf("Format = %s, want %s", got, tt.want)
		}
	}
	conds := []*Expr{c.Compare(rt.OpLt, a0, a3), c.Compare(rt.OpNe, x, c.Const(rt.KUint32, 0))}
	if got, want := FormatAll(conds, leaves), "a[0] < a[3] && x != 0"; got != want {
		t.Errorf("FormatAll = %s, want %s", got, want)
	}
}

// TestDivisionByConstant checks the rewrites of x/d1/d2 and of x/d op e
// against Go's truncated division, for every 8-bit x, signed and
// unsigned, positive divisors and comparison constants in range.
func TestDivisionByConstant(t *testing.T) {
	skipRaceCopy(t)
	c := NewContext()
	ops := []rt.Op{rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe}
	for _, k := range []rt.Kind{rt.KInt8, rt.KUint8} {
		x := c.Input(0, k)
		for _, d := range []uint64{1, 2, 3, 10, 63, 64, 127} {
			q := c.Binary(rt.OpQuo, x, c.Const(k, d))
			for _, d2 := range []uint64{2, 10, 127} {
				qq := c.Binary(rt.OpQuo, q, c.Const(k, d2))
				for v := uint64(0); v < 256; v++ {
					got, err := Eval(qq, []rt.Value{{Bits: v}})
					want, _ := arith(rt.OpQuo, k, 0, truncate(k, mustArith(t, rt.OpQuo, k, v, d)), d2)
					if err != nil || got.Bits != want {
						t.Fatalf("%v: (x/%d)/%d at x=%d: %d (%v), want %d (as %v)", k, d, d2, v, got.Bits, err, want, qq)
					}
				}
			}
			for _, e := range []uint64{0, 1, 2, 9, 12, 63, 64, 126, 127, 255} {
				if k.Signed() && e > 127 {
					continue
				}
				for _, op := range ops {
					cmp := c.Compare(op, q, c.Const(k, e))
					for v := uint64(0); v < 256; v++ {
						got, err := Eval(cmp, []rt.Value{{Bits: v}})
						want, _ := compare(op, k, rt.Value{Bits: mustArith(t, rt.OpQuo, k, v, d)}, rt.Value{Bits: e})
						if err != nil || (got.Bits == 1) != want {
							t.Fatalf("%v: x/%d %v %d at x=%d: %d (%v), want %v (as %v)", k, d, op, e, v, got.Bits, err, want, cmp)
						}
					}
				}
			}
		}
	}
	// The rewrite applies: no division is left.
	x := c.Input(0, rt.KInt64)
	ten := c.Const(rt.KInt64, 10)
	if got := c.Compare(rt.OpNe, c.Binary(rt.OpQuo, c.Binary(rt.OpQuo, x, ten), ten), c.Const(rt.KInt64, 0)).String(); got != "!(in[0] > -100 && in[0] < 100)" && got != "in[0] <= -100 || in[0] >= 100" {
		t.Errorf("x/10/10 != 0 = %s", got)
	}
}

func mustArith(t *testing.T, op rt.Op, k rt.Kind, a, b uint64) uint64 {
	t.Helper()
	v, err := arith(op, k, 0, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
