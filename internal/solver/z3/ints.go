package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"math/big"
	"time"
	"unsafe"
)

// Mathematical integers, for the linear-arithmetic encoding of path
// conditions that cannot wrap around (see package solver).

func (z *Context) intSort() C.Z3_sort {
	if z.intS == nil {
		z.intS = C.Z3_mk_int_sort(z.c)
	}
	return z.intS
}

// IntVar is a fresh integer constant.
func (z *Context) IntVar() AST { return AST{C.Z3_mk_const(z.c, z.fresh(), z.intSort())} }

// IntVal is the integer numeral v.
func (z *Context) IntVal(v *big.Int) AST {
	s := C.CString(v.String())
	defer C.free(unsafe.Pointer(s))
	return AST{C.Z3_mk_numeral(z.c, s, z.intSort())}
}

// IntOp is an integer operator.
type IntOp int

const (
	IntAdd IntOp = iota
	IntSub
	IntMul
)

// Int applies op to integer terms a and b.
func (z *Context) Int(op IntOp, a, b AST) AST {
	args := [2]C.Z3_ast{a.a, b.a}
	switch op {
	case IntAdd:
		return AST{C.Z3_mk_add(z.c, 2, &args[0])}
	case IntSub:
		return AST{C.Z3_mk_sub(z.c, 2, &args[0])}
	default:
		return AST{C.Z3_mk_mul(z.c, 2, &args[0])}
	}
}

// IntNeg is -a.
func (z *Context) IntNeg(a AST) AST { return AST{C.Z3_mk_unary_minus(z.c, a.a)} }

// Lt is a < b over integers.
func (z *Context) Lt(a, b AST) AST { return AST{C.Z3_mk_lt(z.c, a.a, b.a)} }

// Le is a <= b over integers.
func (z *Context) Le(a, b AST) AST { return AST{C.Z3_mk_le(z.c, a.a, b.a)} }

// BigInt evaluates the integer term t in the model.
func (m *Model) BigInt(t AST) (*big.Int, error) {
	v, err := m.Eval(t)
	if err != nil {
		return nil, err
	}
	if C.Z3_get_ast_kind(m.z.c, v.a) != C.Z3_NUMERAL_AST {
		return nil, fmt.Errorf("z3: %s is not a numeral", m.z.String(v))
	}
	n, ok := new(big.Int).SetString(C.GoString(C.Z3_get_numeral_string(m.z.c, v.a)), 10)
	if !ok {
		return nil, fmt.Errorf("z3: %s is not an integer", m.z.String(v))
	}
	return n, nil
}

// NewSolverFor is a solver for the given logic (e.g. "QF_LIA") with a
// time limit, as NewSolver.
func (z *Context) NewSolverFor(logic string, timeout time.Duration) (*Solver, error) {
	s := C.CString(logic)
	defer C.free(unsafe.Pointer(s))
	sym := C.Z3_mk_string_symbol(z.c, s)
	return z.configure(C.Z3_mk_solver_for_logic(z.c, sym), timeout)
}

// NewLimitedSolverFor is a solver for the given logic whose checks are
// bounded by time and by rlimit units of Z3's resource counter. Unlike a
// time bound, the resource bound counts the same on a fast and a loaded
// machine: a check that exceeds it is Unknown on both. Parameters are
// fixed when the solver is made (setting them on a solver costs about as
// much as a small check).
func (z *Context) NewLimitedSolverFor(logic string, timeout time.Duration, rlimit uint) (*Solver, error) {
	s := C.CString(logic)
	defer C.free(unsafe.Pointer(s))
	sym := C.Z3_mk_string_symbol(z.c, s)
	return z.configureLimited(C.Z3_mk_solver_for_logic(z.c, sym), timeout, rlimit)
}
