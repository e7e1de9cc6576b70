package sym

import (
	"cmp"
	"math"
	"strconv"

	"github.com/dowse-go/dowse/rt"
)

// Float terms carry IEEE 754 bits: a float32 in the low 32 bits, a
// float64 in all 64. Their operators are computed here with Go's own
// float32 and float64 arithmetic, so evaluation matches Go bit for bit,
// NaN payloads included; constructors fold constants but apply no
// algebraic identity, since almost none is exact in IEEE arithmetic
// (x+0 is not x for x = -0, x*0 is not 0 for x = Inf, x == x is false
// for NaN, !(x < y) is not x >= y).

// isFloatTerm reports whether op of kind k over args builds a float term
// or compares or converts floats.
func isFloatTerm(op rt.Op, k rt.Kind, args []*Expr) bool {
	if k.Float() || op == rt.OpFromBits {
		return true
	}
	switch op {
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe, rt.OpConv:
		return len(args) > 0 && args[0].k.Float()
	}
	return false
}

// IsFloat reports whether e is a float term, compares floats or converts
// from a float: a term only Z3's floating-point theory can reason about.
func IsFloat(e *Expr) bool { return isFloatTerm(e.op, e.k, e.args) }

// HasFloat reports whether e has a float subterm (see IsFloat).
func HasFloat(e *Expr) bool { return e.float }

// buildFloat is build for float terms: constants are folded, nothing else
// is rewritten.
func (c *Context) buildFloat(op rt.Op, k, k2 rt.Kind, args []*Expr) *Expr {
	allConst := true
	for _, a := range args {
		allConst = allConst && a.op == rt.OpConst
	}
	if allConst {
		var b uint64
		if len(args) > 1 {
			b = args[1].bits
		}
		if v, err := applyFloat(op, k, k2, args[0].bits, b); err == nil {
			return c.konst(k, v)
		}
	}
	switch op {
	case rt.OpNeg:
		if args[0].op == rt.OpNeg {
			return args[0].args[0] // the sign bit flipped twice
		}
	case rt.OpConv:
		if args[0].k == k {
			return args[0]
		}
	}
	return c.intern(op, k, k2, args, 0, "")
}

// floatOf is the float64 value of the bits v of float kind k.
func floatOf(k rt.Kind, v uint64) float64 {
	if k == rt.KFloat32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// applyFloat applies a float operator (arithmetic, negation, comparison,
// conversion to, from or between floats, OpFromBits) to operand bits. The
// error wraps ErrUndefined for a float converted to an integer kind that
// cannot hold it.
func applyFloat(op rt.Op, k, k2 rt.Kind, a, b uint64) (uint64, error) {
	switch op {
	case rt.OpFromBits:
		return truncate(k, a), nil
	case rt.OpConv:
		return convertFloat(k, k2, a)
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if k2 == rt.KFloat32 {
			return boolBits(Compare(op, math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)))), nil
		}
		return boolBits(Compare(op, math.Float64frombits(a), math.Float64frombits(b))), nil
	}
	if k == rt.KFloat32 {
		r, ok := floatArith(op, math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)))
		if !ok {
			return 0, ErrUndefined
		}
		return uint64(math.Float32bits(r)), nil
	}
	r, ok := floatArith(op, math.Float64frombits(a), math.Float64frombits(b))
	if !ok {
		return 0, ErrUndefined
	}
	return math.Float64bits(r), nil
}

// floatArith is Go's arithmetic of op on two floats of one width (y unused
// by negation); false for an operator floats do not have.
func floatArith[F float32 | float64](op rt.Op, x, y F) (F, bool) {
	switch op {
	case rt.OpAdd:
		return x + y, true
	case rt.OpSub:
		return x - y, true
	case rt.OpMul:
		return x * y, true
	case rt.OpQuo:
		return x / y, true
	case rt.OpNeg:
		return -x, true
	}
	return 0, false
}

// Compare is Go's comparison op (OpEq, OpNe, OpLt, OpLe, OpGt, OpGe)
// of two values of one ordered type; floats compare as Go compares them
// (NaN unordered, -0 equal to +0).
func Compare[T cmp.Ordered](op rt.Op, x, y T) bool {
	switch op {
	case rt.OpEq:
		return x == y
	case rt.OpNe:
		return x != y
	case rt.OpLt:
		return x < y
	case rt.OpLe:
		return x <= y
	case rt.OpGt:
		return x > y
	}
	return x >= y
}

// convertFloat converts the bits a of kind from to kind to, one of them a
// float kind, as Go converts.
func convertFloat(to, from rt.Kind, a uint64) (uint64, error) {
	switch {
	case from.Float() && to.Float():
		if to == rt.KFloat32 {
			return uint64(math.Float32bits(float32(floatOf(from, a)))), nil
		}
		return math.Float64bits(floatOf(from, a)), nil
	case from.Float():
		x := floatOf(from, a)
		lo, hi := rt.TruncRange(to)
		if !(x > lo && x < hi) {
			return 0, ErrUndefined
		}
		if to.Signed() {
			return truncate(to, uint64(int64(x))), nil
		}
		return truncate(to, uint64(x)), nil
	}
	// An integer to a float: Go rounds the exact value once.
	if from.Signed() {
		n := signExtend(from, a)
		if to == rt.KFloat32 {
			return uint64(math.Float32bits(float32(n))), nil
		}
		return math.Float64bits(float64(n)), nil
	}
	n := truncate(from, a)
	if to == rt.KFloat32 {
		return uint64(math.Float32bits(float32(n))), nil
	}
	return math.Float64bits(float64(n)), nil
}

// floatText prints a float constant as Go would read it back.
func floatText(k rt.Kind, v uint64) string {
	x := floatOf(k, v)
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case x == 0 && math.Signbit(x):
		return "-0.0"
	}
	s := strconv.FormatFloat(x, 'g', -1, k.FloatBits())
	if _, err := strconv.Atoi(s); err == nil {
		s += ".0"
	}
	return s
}
