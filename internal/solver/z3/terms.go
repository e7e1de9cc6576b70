package z3

/*
#include <z3.h>
*/
import "C"

func (z *Context) bvSort(width uint) C.Z3_sort {
	s, ok := z.bv[width]
	if !ok {
		s = C.Z3_mk_bv_sort(z.c, C.uint(width))
		z.bv[width] = s
	}
	return s
}

func (z *Context) fresh() C.Z3_symbol {
	z.nextID++
	return C.Z3_mk_int_symbol(z.c, z.nextID)
}

// BoolVar is a fresh Boolean constant.
func (z *Context) BoolVar() AST { return AST{C.Z3_mk_const(z.c, z.fresh(), z.boolS)} }

// BVVar is a fresh bit-vector constant of the given width.
func (z *Context) BVVar(width uint) AST {
	return AST{C.Z3_mk_const(z.c, z.fresh(), z.bvSort(width))}
}

// BVVal is the bit-vector numeral of the given width holding the low bits
// of v.
func (z *Context) BVVal(v uint64, width uint) AST {
	return AST{C.Z3_mk_unsigned_int64(z.c, C.uint64_t(v), z.bvSort(width))}
}

// Bool is the constant b.
func (z *Context) Bool(b bool) AST {
	if b {
		return AST{C.Z3_mk_true(z.c)}
	}
	return AST{C.Z3_mk_false(z.c)}
}

// Width is the width of a bit-vector term.
func (z *Context) Width(t AST) uint {
	return uint(C.Z3_get_bv_sort_size(z.c, C.Z3_get_sort(z.c, t.a)))
}

// Not is ¬a.
func (z *Context) Not(a AST) AST { return AST{C.Z3_mk_not(z.c, a.a)} }

// And is the conjunction of ts (true if empty).
func (z *Context) And(ts ...AST) AST {
	if len(ts) == 0 {
		return z.Bool(true)
	}
	return AST{C.Z3_mk_and(z.c, C.uint(len(ts)), asts(ts))}
}

// Or is the disjunction of ts (false if empty).
func (z *Context) Or(ts ...AST) AST {
	if len(ts) == 0 {
		return z.Bool(false)
	}
	return AST{C.Z3_mk_or(z.c, C.uint(len(ts)), asts(ts))}
}

// Implies is a ⇒ b.
func (z *Context) Implies(a, b AST) AST { return AST{C.Z3_mk_implies(z.c, a.a, b.a)} }

// Eq is a = b for terms of one sort.
func (z *Context) Eq(a, b AST) AST { return AST{C.Z3_mk_eq(z.c, a.a, b.a)} }

// Ite is "if c then a else b".
func (z *Context) Ite(c, a, b AST) AST { return AST{C.Z3_mk_ite(z.c, c.a, a.a, b.a)} }

// BVOp names a binary bit-vector operator.
type BVOp int

// The binary bit-vector operators, with SMT-LIB's semantics.
const (
	BVAdd BVOp = iota
	BVSub
	BVMul
	BVUDiv
	BVSDiv // truncating
	BVURem
	BVSRem // sign of the dividend
	BVAnd
	BVOr
	BVXor
	BVShl
	BVLShr
	BVAShr
)

// BV applies a binary bit-vector operator to terms of equal width.
func (z *Context) BV(op BVOp, a, b AST) AST {
	c, x, y := z.c, a.a, b.a
	var r C.Z3_ast
	switch op {
	case BVAdd:
		r = C.Z3_mk_bvadd(c, x, y)
	case BVSub:
		r = C.Z3_mk_bvsub(c, x, y)
	case BVMul:
		r = C.Z3_mk_bvmul(c, x, y)
	case BVUDiv:
		r = C.Z3_mk_bvudiv(c, x, y)
	case BVSDiv:
		r = C.Z3_mk_bvsdiv(c, x, y)
	case BVURem:
		r = C.Z3_mk_bvurem(c, x, y)
	case BVSRem:
		r = C.Z3_mk_bvsrem(c, x, y)
	case BVAnd:
		r = C.Z3_mk_bvand(c, x, y)
	case BVOr:
		r = C.Z3_mk_bvor(c, x, y)
	case BVXor:
		r = C.Z3_mk_bvxor(c, x, y)
	case BVShl:
		r = C.Z3_mk_bvshl(c, x, y)
	case BVLShr:
		r = C.Z3_mk_bvlshr(c, x, y)
	case BVAShr:
		r = C.Z3_mk_bvashr(c, x, y)
	}
	return AST{r}
}

// BVNot is the bitwise complement of a.
func (z *Context) BVNot(a AST) AST { return AST{C.Z3_mk_bvnot(z.c, a.a)} }

// BVNeg is the two's complement negation of a.
func (z *Context) BVNeg(a AST) AST { return AST{C.Z3_mk_bvneg(z.c, a.a)} }

// ULt is a <u b.
func (z *Context) ULt(a, b AST) AST { return AST{C.Z3_mk_bvult(z.c, a.a, b.a)} }

// ULe is a ≤u b.
func (z *Context) ULe(a, b AST) AST { return AST{C.Z3_mk_bvule(z.c, a.a, b.a)} }

// SLt is a <s b.
func (z *Context) SLt(a, b AST) AST { return AST{C.Z3_mk_bvslt(z.c, a.a, b.a)} }

// SLe is a ≤s b.
func (z *Context) SLe(a, b AST) AST { return AST{C.Z3_mk_bvsle(z.c, a.a, b.a)} }

// Extract is bits hi..lo of a.
func (z *Context) Extract(hi, lo uint, a AST) AST {
	return AST{C.Z3_mk_extract(z.c, C.uint(hi), C.uint(lo), a.a)}
}

// SignExt widens a by n bits, copying its sign bit.
func (z *Context) SignExt(n uint, a AST) AST { return AST{C.Z3_mk_sign_ext(z.c, C.uint(n), a.a)} }

// ZeroExt widens a by n zero bits.
func (z *Context) ZeroExt(n uint, a AST) AST { return AST{C.Z3_mk_zero_ext(z.c, C.uint(n), a.a)} }
