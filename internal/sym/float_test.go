package sym

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// specials64 are the float64 values where IEEE arithmetic is most often
// got wrong: zeros of both signs, infinities, NaNs, subnormals, the
// extremes, values at the edges of the integer kinds.
var specials64 = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, -2.5, 3, math.Inf(1), math.Inf(-1), math.NaN(),
	math.Float64frombits(0x7ff4000000000001), // a signaling NaN
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1060, math.MaxFloat64, -math.MaxFloat64,
	0x1p63, -0x1p63, 0x1p64, 127.9, 128, -128.9, -129, 255.5, 256, 2147483647.5, -2147483648.9, 4294967295.9,
	math.Nextafter(0x1p63, 0), 1e300, 1e-300,
}

func floatCases(rng *rand.Rand, n int) []float64 {
	vs := append([]float64(nil), specials64...)
	for range n {
		switch rng.IntN(3) {
		case 0:
			vs = append(vs, math.Float64frombits(rng.Uint64()))
		case 1:
			vs = append(vs, float64(math.Float32frombits(rng.Uint32())))
		default:
			vs = append(vs, (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(40)-20)))
		}
	}
	return vs
}

// TestFloatEvalMatchesGo evaluates float terms over two inputs on special
// and random values and compares the bits with what Go computes, for
// both widths, every arithmetic operator, comparison and conversion; the
// same terms built over constants must fold to the same bits.
func TestFloatEvalMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := floatCases(rng, 300)
	c := NewContext()
	x64 := c.FromBits(rt.KFloat64, c.Input(0, rt.KUint64))
	y64 := c.FromBits(rt.KFloat64, c.Input(1, rt.KUint64))
	x32 := c.FromBits(rt.KFloat32, c.Input(0, rt.KUint32))
	y32 := c.FromBits(rt.KFloat32, c.Input(1, rt.KUint32))
	type bin struct {
		op  rt.Op
		f64 func(a, b float64) float64
		f32 func(a, b float32) float32
	}
	bins := []bin{
		{rt.OpAdd, func(a, b float64) float64 { return a + b }, func(a, b float32) float32 { return a + b }},
		{rt.OpSub, func(a, b float64) float64 { return a - b }, func(a, b float32) float32 { return a - b }},
		{rt.OpMul, func(a, b float64) float64 { return a * b }, func(a, b float32) float32 { return a * b }},
		{rt.OpQuo, func(a, b float64) float64 { return a / b }, func(a, b float32) float32 { return a / b }},
	}
	cmps := []struct {
		op rt.Op
		f  func(a, b float64) bool
	}{
		{rt.OpEq, func(a, b float64) bool { return a == b }},
		{rt.OpNe, func(a, b float64) bool { return a != b }},
		{rt.OpLt, func(a, b float64) bool { return a < b }},
		{rt.OpLe, func(a, b float64) bool { return a <= b }},
		{rt.OpGt, func(a, b float64) bool { return a > b }},
		{rt.OpGe, func(a, b float64) bool { return a >= b }},
	}
	check := func(what string, e *Expr, in []rt.Value, want uint64) {
		t.Helper()
		got, err := Eval(e, in)
		if err != nil || got.Bits != want {
			t.Fatalf("%s on %#x, %#x: got %#x (%v), want %#x", what, in[0].Bits, in[1].Bits, got.Bits, err, want)
		}
	}
	for i := 0; i < len(vals); i++ {
		a, b := vals[i], vals[(i*7+3)%len(vals)]
		a32, b32 := float32(a), float32(b)
		in64 := []rt.Value{{Bits: math.Float64bits(a)}, {Bits: math.Float64bits(b)}}
		in32 := []rt.Value{{Bits: uint64(math.Float32bits(a32))}, {Bits: uint64(math.Float32bits(b32))}}
		for _, o := range bins {
			want64 := math.Float64bits(o.f64(a, b))
			check(opName(o.op)+" float64", c.Binary(o.op, x64, y64), in64, want64)
			folded := c.Binary(o.op, c.Const(rt.KFloat64, in64[0].Bits), c.Const(rt.KFloat64, in64[1].Bits))
			if !folded.IsConst() || folded.Bits() != want64 {
				t.Fatalf("%s float64 folded on %v, %v: %v", opName(o.op), a, b, folded)
			}
			check(opName(o.op)+" float32", c.Binary(o.op, x32, y32), in32, uint64(math.Float32bits(o.f32(a32, b32))))
		}
		for _, o := range cmps {
			check(opName(o.op)+" float64", c.Compare(o.op, x64, y64), in64, boolBits(o.f(a, b)))
			check(opName(o.op)+" float32", c.Compare(o.op, x32, y32), in32, boolBits(o.f(float64(a32), float64(b32))))
			// The negation of a float comparison is not the opposite
			// comparison: with a NaN both are false.
			check("!"+opName(o.op)+" float64", c.Not(c.Compare(o.op, x64, y64)), in64, boolBits(!o.f(a, b)))
		}
		check("neg float64", c.Neg(x64), in64, math.Float64bits(-a))
		check("neg float32", c.Neg(x32), in32, uint64(math.Float32bits(-a32)))
		check("float32(float64)", c.Conv(rt.KFloat32, x64), in64, uint64(math.Float32bits(float32(a))))
		check("float64(float32)", c.Conv(rt.KFloat64, x32), in32, math.Float64bits(float64(a32)))
		checkToInt(t, c, x64, in64, a)
	}
	// Integers to floats, of every kind, on edge and random values.
	ints := []uint64{0, 1, 1<<63 - 1, 1 << 63, 1<<64 - 1, 1<<53 + 1, 1<<24 + 1, 0x7fffffff, 0x80000000, 0xffffffff}
	for range 300 {
		ints = append(ints, rng.Uint64())
	}
	for _, k := range []rt.Kind{rt.KInt8, rt.KInt16, rt.KInt32, rt.KInt64, rt.KUint8, rt.KUint16, rt.KUint32, rt.KUint64} {
		n := c.Input(0, k)
		for _, v := range ints {
			v = truncate(k, v)
			in := []rt.Value{{Bits: v}, {}}
			var w64 float64
			var w32 float32
			if k.Signed() {
				w64, w32 = float64(signExtend(k, v)), float32(signExtend(k, v))
			} else {
				w64, w32 = float64(v), float32(v)
			}
			check("float64("+k.String()+")", c.Conv(rt.KFloat64, n), in, math.Float64bits(w64))
			check("float32("+k.String()+")", c.Conv(rt.KFloat32, n), in, uint64(math.Float32bits(w32)))
		}
	}
}

// checkToInt checks the conversions of the float64 input x (of value a)
// to every integer kind: Go's truncation where a is in the kind's range,
// an undefined value outside it.
func checkToInt(t *testing.T, c *Context, x *Expr, in []rt.Value, a float64) {
	t.Helper()
	type conv struct {
		k    rt.Kind
		lo   float64
		hi   float64
		want func(float64) uint64
	}
	convs := []conv{
		{rt.KInt8, -129, 128, func(f float64) uint64 { return uint64(uint8(int8(f))) }},
		{rt.KInt16, -32769, 32768, func(f float64) uint64 { return uint64(uint16(int16(f))) }},
		{rt.KInt32, -2147483649, 2147483648, func(f float64) uint64 { return uint64(uint32(int32(f))) }},
		{rt.KInt64, math.Nextafter(-0x1p63, math.Inf(-1)), 0x1p63, func(f float64) uint64 { return uint64(int64(f)) }},
		{rt.KUint8, -1, 256, func(f float64) uint64 { return uint64(uint8(f)) }},
		{rt.KUint16, -1, 65536, func(f float64) uint64 { return uint64(uint16(f)) }},
		{rt.KUint32, -1, 0x1p32, func(f float64) uint64 { return uint64(uint32(f)) }},
		{rt.KUint64, -1, 0x1p64, func(f float64) uint64 { return uint64(f) }},
	}
	for _, cv := range convs {
		got, err := Eval(c.Conv(cv.k, x), in)
		if a > cv.lo && a < cv.hi {
			if err != nil || got.Bits != cv.want(a) {
				t.Fatalf("%s(%v) = %#x (%v), want %#x", cv.k, a, got.Bits, err, cv.want(a))
			}
		} else if !errors.Is(err, ErrUndefined) {
			t.Fatalf("%s(%v) out of range: got %#x, %v, want undefined", cv.k, a, got.Bits, err)
		}
	}
}

// TestFloatNoIdentities checks that the constructors leave float terms
// whose integer counterparts simplify: x+0, x*0, x == x, x - x.
func TestFloatNoIdentities(t *testing.T) {
	c := NewContext()
	x := c.FromBits(rt.KFloat64, c.Input(0, rt.KUint64))
	zero := c.Const(rt.KFloat64, 0)
	for _, e := range []*Expr{c.Binary(rt.OpAdd, x, zero), c.Binary(rt.OpMul, x, zero), c.Binary(rt.OpSub, x, x), c.Compare(rt.OpEq, x, x)} {
		if e.IsConst() || e == x {
			t.Errorf("%v was simplified", e)
		}
		if !HasFloat(e) {
			t.Errorf("%v: HasFloat is false", e)
		}
	}
	// int64(x) == 5 is not x == int64-constant-reinterpreted.
	if got := c.Compare(rt.OpEq, c.Conv(rt.KInt64, x), c.Const(rt.KInt64, 5)); got.Arg(0).Op() != rt.OpConv {
		t.Errorf("int64(x) == 5 became %v", got)
	}
	if got := c.Not(c.Compare(rt.OpLt, x, zero)); got.Op() != rt.OpNot {
		t.Errorf("!(x < 0) became %v", got)
	}
}
