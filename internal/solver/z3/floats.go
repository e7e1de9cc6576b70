package z3

/*
#include <z3.h>
*/
import "C"

// The floating-point terms of Z3's FPA theory (IEEE 754 binary32 and
// binary64). Arithmetic rounds to nearest, ties to even, as Go does; the
// comparisons are IEEE's (NaN unordered, -0 == +0). Z3 has a single NaN:
// payloads are not modeled, which is exact for every operation whose
// result does not expose a NaN's bits.

// fpSort is the sort of binary32 (width 32) or binary64 (width 64)
// floats.
func (z *Context) fpSort(width uint) C.Z3_sort {
	if width == 32 {
		return C.Z3_mk_fpa_sort_32(z.c)
	}
	return C.Z3_mk_fpa_sort_64(z.c)
}

func (z *Context) rne() C.Z3_ast { return C.Z3_mk_fpa_rne(z.c) }

// FPFromBits is the float of the given width (32 or 64) whose IEEE 754
// bits are the bit-vector bits of that width.
func (z *Context) FPFromBits(bits AST, width uint) AST {
	return AST{C.Z3_mk_fpa_to_fp_bv(z.c, bits.a, z.fpSort(width))}
}

// FPOp names a binary floating-point operator.
type FPOp int

// The binary floating-point operators, rounding to nearest even.
const (
	FPAdd FPOp = iota
	FPSub
	FPMul
	FPDiv
)

// FP applies a binary floating-point operator to floats of one sort.
func (z *Context) FP(op FPOp, a, b AST) AST {
	c, rm, x, y := z.c, z.rne(), a.a, b.a
	var r C.Z3_ast
	switch op {
	case FPAdd:
		r = C.Z3_mk_fpa_add(c, rm, x, y)
	case FPSub:
		r = C.Z3_mk_fpa_sub(c, rm, x, y)
	case FPMul:
		r = C.Z3_mk_fpa_mul(c, rm, x, y)
	case FPDiv:
		r = C.Z3_mk_fpa_div(c, rm, x, y)
	}
	return AST{r}
}

// FPNeg is -a (the sign flipped).
func (z *Context) FPNeg(a AST) AST { return AST{C.Z3_mk_fpa_neg(z.c, a.a)} }

// FPEq is IEEE equality: false when either is NaN, true for -0 and +0.
func (z *Context) FPEq(a, b AST) AST { return AST{C.Z3_mk_fpa_eq(z.c, a.a, b.a)} }

// FPLt is a < b (false when either is NaN).
func (z *Context) FPLt(a, b AST) AST { return AST{C.Z3_mk_fpa_lt(z.c, a.a, b.a)} }

// FPLe is a <= b (false when either is NaN).
func (z *Context) FPLe(a, b AST) AST { return AST{C.Z3_mk_fpa_leq(z.c, a.a, b.a)} }

// FPIsNaN is a != a.
func (z *Context) FPIsNaN(a AST) AST { return AST{C.Z3_mk_fpa_is_nan(z.c, a.a)} }

// FPToFP converts the float a to the float sort of the given width,
// rounding to nearest even.
func (z *Context) FPToFP(a AST, width uint) AST {
	return AST{C.Z3_mk_fpa_to_fp_float(z.c, z.rne(), a.a, z.fpSort(width))}
}

// FPFromInt converts the bit-vector a, read as signed or unsigned, to the
// float sort of the given width, rounding to nearest even.
func (z *Context) FPFromInt(a AST, signed bool, width uint) AST {
	if signed {
		return AST{C.Z3_mk_fpa_to_fp_signed(z.c, z.rne(), a.a, z.fpSort(width))}
	}
	return AST{C.Z3_mk_fpa_to_fp_unsigned(z.c, z.rne(), a.a, z.fpSort(width))}
}

// FPToInt converts the float a to a bit-vector of the given width,
// truncating toward zero; the result is unspecified where the value does
// not fit.
func (z *Context) FPToInt(a AST, signed bool, width uint) AST {
	rtz := C.Z3_mk_fpa_rtz(z.c)
	if signed {
		return AST{C.Z3_mk_fpa_to_sbv(z.c, rtz, a.a, C.uint(width))}
	}
	return AST{C.Z3_mk_fpa_to_ubv(z.c, rtz, a.a, C.uint(width))}
}
