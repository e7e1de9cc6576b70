package rt

import "math"

// Floats have shadows like integers: their values and fingerprints are
// their IEEE 754 bits (FBits32, FBits64), and the float operators of Op
// follow Go's arithmetic exactly. A float input's shadow reinterprets its
// leaf's bits (OpFromBits).

// FBits32 is the fingerprint and operand value of a float32: its bits.
func FBits32(x float32) uint64 { return uint64(math.Float32bits(x)) }

// FBits64 is the fingerprint and operand value of a float64: its bits.
func FBits64(x float64) uint64 { return math.Float64bits(x) }

// ConvF is the shadow of the conversion of the float a, of kind from and
// bits av, to the integer kind to. Go leaves the result to the
// implementation when the truncated value does not fit, so the run
// records the range check as an implicit branch at site; out of range the
// result is concrete, a concretization.
func ConvF(site uint32, to, from Kind, a S, av uint64) S {
	if a == 0 || !on.Load() {
		return 0
	}
	lo, hi := TruncRange(to)
	x := floatValue(from, av)
	in := x > lo && x < hi
	cond := Logic(OpLAnd, Cmp(OpGt, KFloat64, Conv(KFloat64, from, a), av64(from, av), 0, math.Float64bits(lo)), x > lo,
		Cmp(OpLt, KFloat64, Conv(KFloat64, from, a), av64(from, av), 0, math.Float64bits(hi)), x < hi)
	Imp(site, in, cond)
	if !in {
		Conc(site, "a float converted to an integer type that cannot hold it")
		return 0
	}
	return mk(Node{Op: OpConv, K: to, K2: from, A: a})
}

// TruncRange is the open interval (lo, hi) of the floats that Go
// converts to the integer kind k exactly (truncating toward zero): lo is
// one below k's minimum and hi one above its maximum, both exact as
// float64 where it matters (hi is a power of two; lo is -2^(w-1)-1,
// rounded to -2^(w-1) only for 64 bits, where no float lies strictly
// between).
func TruncRange(k Kind) (lo, hi float64) {
	w := k.Bits()
	if k.Signed() {
		if w == 64 {
			// -2^63 itself converts; the next float below is far
			// lower, so x > -2^63-1 is x >= -2^63.
			return math.Nextafter(-0x1p63, math.Inf(-1)), 0x1p63
		}
		return -math.Ldexp(1, w-1) - 1, math.Ldexp(1, w-1)
	}
	return -1, math.Ldexp(1, w)
}

// floatValue is the value of the bits v of float kind k.
func floatValue(k Kind, v uint64) float64 {
	if k == KFloat32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// av64 is the bits of the float64 the bits v of float kind k convert to.
func av64(k Kind, v uint64) uint64 { return math.Float64bits(floatValue(k, v)) }

// AnyS is the first non-zero shadow of ss, or 0.
func AnyS(ss ...S) S {
	for _, s := range ss {
		if s != 0 {
			return s
		}
	}
	return 0
}
