package solver

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// floatSamples are float64 operands where IEEE arithmetic is easy to get
// wrong: signed zeros, infinities, NaN, subnormals, the extremes, ties.
var floatSamples = []float64{
	0, math.Copysign(0, -1), 1, -1.5, 0.1, 3, 1e308, -1e-310, math.SmallestNonzeroFloat64,
	math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 0x1p53 + 2, 1 + 0x1p-52, 2147483647.5,
}

// sameFloat is the bool term "e is exactly the float r": e != e for a
// NaN, else e == r with the sign of a zero told apart by 1/e.
func sameFloat(c *sym.Context, k rt.Kind, e *sym.Expr, r uint64) *sym.Expr {
	x := floatValue(k, r)
	if math.IsNaN(x) {
		return c.Compare(rt.OpNe, e, e)
	}
	rc := c.Const(k, r)
	eq := c.Compare(rt.OpEq, e, rc)
	if x != 0 {
		return eq
	}
	one := c.Const(k, bitsOfFloat(k, 1))
	return c.And(eq, c.Compare(rt.OpEq, c.Binary(rt.OpQuo, one, e), c.Binary(rt.OpQuo, one, rc)))
}

// TestFloatOperatorsMatchGo pins two float inputs to sample values and
// requires that "op(x, y) is not Go's result" be Unsat in Z3's
// floating-point theory, for both widths and every operator, comparison
// and conversion: the encoding then computes exactly what Go computes.
func TestFloatOperatorsMatchGo(t *testing.T) {
	c := sym.NewContext()
	core := NewZ3(Options{ContextQueries: 64, Timeout: 20 * time.Second})
	defer core.Close()
	for _, k := range []rt.Kind{rt.KFloat32, rt.KFloat64} {
		bk := rt.KUint64
		if k == rt.KFloat32 {
			bk = rt.KUint32
		}
		leaves, seed := layout(bk, bk)
		in0, in1 := c.Input(0, bk), c.Input(1, bk)
		x, y := c.FromBits(k, in0), c.FromBits(k, in1)
		terms := map[string]*sym.Expr{
			"add": c.Binary(rt.OpAdd, x, y), "sub": c.Binary(rt.OpSub, x, y),
			"mul": c.Binary(rt.OpMul, x, y), "quo": c.Binary(rt.OpQuo, x, y), "neg": c.Neg(x),
			"lt": c.Compare(rt.OpLt, x, y), "le": c.Compare(rt.OpLe, x, y), "eq": c.Compare(rt.OpEq, x, y),
			"ne": c.Compare(rt.OpNe, x, y), "gt": c.Compare(rt.OpGt, x, y), "ge": c.Compare(rt.OpGe, x, y),
			"notlt": c.Not(c.Compare(rt.OpLt, x, y)),
		}
		other := rt.KFloat64
		if k == rt.KFloat64 {
			other = rt.KFloat32
		}
		terms["conv"] = c.Conv(other, x)
		for i, a := range floatSamples {
			b := floatSamples[(i*5+3)%len(floatSamples)]
			pins := []*sym.Expr{
				c.Compare(rt.OpEq, in0, c.Const(bk, bitsOfFloat(k, a))),
				c.Compare(rt.OpEq, in1, c.Const(bk, bitsOfFloat(k, b))),
			}
			in := []rt.Value{{Bits: bitsOfFloat(k, a)}, {Bits: bitsOfFloat(k, b)}}
			for name, e := range terms {
				want, err := sym.Eval(e, in)
				if err != nil {
					t.Fatal(err)
				}
				var differs *sym.Expr
				switch {
				case e.Kind() == rt.KBool:
					differs = c.Compare(rt.OpNe, e, c.Bool(want.Bits == 1))
				default:
					differs = c.Not(sameFloat(c, e.Kind(), e, want.Bits))
				}
				q := Query{Constraints: append(append([]*sym.Expr(nil), pins...), differs), Leaves: leaves, Seed: seed}
				if r := mustSolve(t, core, q); r.Status != Unsat {
					t.Errorf("%v %s on %v, %v: Z3 says %v (%s) to %s, Go gives %#x", k, name, a, b, r.Status, r.Why, sym.Format(differs, leaves), want.Bits)
				}
			}
		}
	}
}

// TestFloatConstraintsSolved asks the whole chain, validating every
// model by evaluation, for inputs that real code branches on: a range, a
// product under a bound, a NaN, an infinity, a conversion to an integer,
// a sum that only rounding makes equal; and for an impossible one.
func TestFloatConstraintsSolved(t *testing.T) {
	c := sym.NewContext()
	ch := New(Config{Validate: ValidateSat})
	defer ch.Close()
	leaves, seed := layout(rt.KUint64, rt.KUint32)
	x := c.FromBits(rt.KFloat64, c.Input(0, rt.KUint64))
	f := c.FromBits(rt.KFloat32, c.Input(1, rt.KUint32))
	k64 := func(v float64) *sym.Expr { return c.Const(rt.KFloat64, math.Float64bits(v)) }
	k32 := func(v float32) *sym.Expr { return c.Const(rt.KFloat32, uint64(math.Float32bits(v))) }
	lt, gt, eq, ne := func(a, b *sym.Expr) *sym.Expr { return c.Compare(rt.OpLt, a, b) },
		func(a, b *sym.Expr) *sym.Expr { return c.Compare(rt.OpGt, a, b) },
		func(a, b *sym.Expr) *sym.Expr { return c.Compare(rt.OpEq, a, b) },
		func(a, b *sym.Expr) *sym.Expr { return c.Compare(rt.OpNe, a, b) }
	inInt64 := c.And(c.Compare(rt.OpGe, x, k64(-0x1p63)), lt(x, k64(0x1p63)))
	cases := []struct {
		name string
		cs   []*sym.Expr
		want Status
	}{
		{"range and product", []*sym.Expr{gt(x, k64(0.5)), lt(c.Binary(rt.OpMul, x, k64(3)), k64(2))}, Sat},
		{"nan", []*sym.Expr{ne(x, x)}, Sat},
		{"not nan yet unordered", []*sym.Expr{eq(x, x), c.Not(lt(x, k64(0))), c.Not(c.Compare(rt.OpGe, x, k64(0)))}, Unsat},
		{"infinity", []*sym.Expr{eq(c.Binary(rt.OpMul, x, k64(2)), x), ne(x, k64(0))}, Sat},
		{"float32 rounding", []*sym.Expr{eq(c.Binary(rt.OpAdd, f, k32(1)), k32(1)), gt(f, k32(0))}, Sat},
		{"to int64", []*sym.Expr{inInt64, eq(c.Conv(rt.KInt64, x), c.Const(rt.KInt64, 1<<62+1)), ne(x, k64(1<<62))}, Unsat},
		{"to int64 truncates", []*sym.Expr{inInt64, eq(c.Conv(rt.KInt64, x), c.Const(rt.KInt64, uint64(1<<64-7))), lt(x, k64(-7))}, Sat},
		{"division by zero", []*sym.Expr{lt(c.Binary(rt.OpQuo, k64(1), x), k64(-1e300)), eq(x, k64(0))}, Sat},
	}
	for _, tc := range cases {
		q := Query{Constraints: tc.cs, Leaves: leaves, Seed: seed}
		r, err := ch.Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Status != tc.want {
			t.Errorf("%s: %s: %v (%s), want %v", tc.name, sym.FormatAll(tc.cs, leaves), r.Status, r.Why, tc.want)
			continue
		}
		if r.Status == Sat {
			checkModel(t, q, r)
		}
	}
	st := ch.Stats()
	if st.FloatQueries == 0 {
		t.Errorf("no query reached the floating-point theory: %+v", st)
	}
	t.Logf("%d groups: %d answered by the candidates' search, %d checked in Z3 in %v", st.Groups, st.FloatSearched, st.FloatQueries, st.FloatTime)
}
