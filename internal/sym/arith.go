package sym

import (
	"errors"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// ErrUndefined reports an operation whose Go counterpart would panic
// (division by zero, index or slice out of range) or that the model does
// not define. The runs that produce such terms record the guarding branch,
// so a well-formed path condition never needs the value.
var ErrUndefined = errors.New("undefined operation")

// truncate keeps the low bits of v that fit kind k; bools keep bit 0,
// float32s their 32 bits.
func truncate(k rt.Kind, v uint64) uint64 {
	w := max(k.Bits(), k.FloatBits())
	if w == 0 || w >= 64 {
		return v
	}
	return v & (1<<w - 1)
}

// signExtend interprets the low bits of v as a value of kind k and widens
// it to 64 bits with k's signedness.
func signExtend(k rt.Kind, v uint64) int64 {
	w := uint(k.Bits())
	if !k.Signed() || w == 0 || w >= 64 {
		return int64(truncate(k, v))
	}
	return int64(v<<(64-w)) >> (64 - w)
}

// Truncate keeps the low bits of v that fit kind k (for callers outside
// the package: the solver's encodings).
func Truncate(k rt.Kind, v uint64) uint64 { return truncate(k, v) }

// SignExtend interprets the low bits of v as a value of kind k, widened to
// 64 bits with k's signedness.
func SignExtend(k rt.Kind, v uint64) int64 { return signExtend(k, v) }

// allOnes is the bits of ^0 in kind k.
func allOnes(k rt.Kind) uint64 { return truncate(k, ^uint64(0)) }

// widen is v of kind k as a 64-bit value with k's signedness: sign-extended
// for signed kinds, zero-extended otherwise.
func widen(k rt.Kind, v uint64) uint64 { return uint64(signExtend(k, v)) }

// arith applies an integer operator of kind k to constants a and b (b has
// kind k2 for shifts).
func arith(op rt.Op, k, k2 rt.Kind, a, b uint64) (uint64, error) {
	w := uint64(k.Bits())
	switch op {
	case rt.OpAdd:
		return truncate(k, a+b), nil
	case rt.OpSub:
		return truncate(k, a-b), nil
	case rt.OpMul:
		return truncate(k, a*b), nil
	case rt.OpQuo, rt.OpRem:
		if truncate(k, b) == 0 {
			return 0, ErrUndefined
		}
		if k.Signed() {
			x, y := signExtend(k, a), signExtend(k, b)
			if y == -1 {
				// Avoid the 64-bit overflow of MinInt64 / -1; Go defines
				// the result as wrap-around: x / -1 == -x, x % -1 == 0.
				if op == rt.OpQuo {
					return truncate(k, uint64(-x)), nil
				}
				return 0, nil
			}
			if op == rt.OpQuo {
				return truncate(k, uint64(x/y)), nil
			}
			return truncate(k, uint64(x%y)), nil
		}
		if op == rt.OpQuo {
			return truncate(k, a) / truncate(k, b), nil
		}
		return truncate(k, a) % truncate(k, b), nil
	case rt.OpAnd:
		return a & b, nil
	case rt.OpOr:
		return a | b, nil
	case rt.OpXor:
		return a ^ b, nil
	case rt.OpAndNot:
		return a &^ b, nil
	case rt.OpShl:
		n := truncate(k2, b)
		if n >= w {
			return 0, nil
		}
		return truncate(k, a<<n), nil
	case rt.OpShr:
		n := truncate(k2, b)
		if k.Signed() {
			if n >= w {
				n = w - 1
			}
			return truncate(k, uint64(signExtend(k, a)>>n)), nil
		}
		if n >= w {
			return 0, nil
		}
		return truncate(k, a) >> n, nil
	}
	return 0, ErrUndefined
}

// unary applies OpNeg, OpCpl or OpNot to a constant of kind k.
func unary(op rt.Op, k rt.Kind, a uint64) (uint64, error) {
	switch op {
	case rt.OpNeg:
		return truncate(k, -a), nil
	case rt.OpCpl:
		return truncate(k, ^a), nil
	case rt.OpNot:
		return a ^ 1, nil
	}
	return 0, ErrUndefined
}

// compare applies a comparison of operands of kind k2 to constants.
func compare(op rt.Op, k2 rt.Kind, a, b rt.Value) (bool, error) {
	var c int // -1, 0, +1
	switch {
	case k2 == rt.KString:
		c = strings.Compare(a.Str, b.Str)
	case k2.Signed():
		x, y := signExtend(k2, a.Bits), signExtend(k2, b.Bits)
		c = cmp3(x < y, x > y)
	default:
		x, y := truncate(k2, a.Bits), truncate(k2, b.Bits)
		c = cmp3(x < y, x > y)
	}
	switch op {
	case rt.OpEq:
		return c == 0, nil
	case rt.OpNe:
		return c != 0, nil
	}
	if k2 == rt.KBool {
		return false, ErrUndefined
	}
	switch op {
	case rt.OpLt:
		return c < 0, nil
	case rt.OpLe:
		return c <= 0, nil
	case rt.OpGt:
		return c > 0, nil
	case rt.OpGe:
		return c >= 0, nil
	}
	return false, ErrUndefined
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// convert converts a constant of integer kind from to integer kind to.
func convert(to, from rt.Kind, a uint64) uint64 { return truncate(to, widen(from, a)) }

// index converts an index or slice bound of kind k to an int, reporting
// whether it lies in 0..max.
func index(k rt.Kind, v uint64, max int) (int, bool) {
	x := signExtend(k, v)
	if !k.Signed() {
		if truncate(k, v) > uint64(max) {
			return 0, false
		}
		x = int64(truncate(k, v))
	}
	if x < 0 || x > int64(max) {
		return 0, false
	}
	return int(x), true
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
