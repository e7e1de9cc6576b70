package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// Result is the outcome of a check.
type Result int

// The outcomes of a check.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	return [...]string{"unknown", "sat", "unsat"}[r]
}

// Solver is a Z3 solver for quantifier-free bit-vector formulas.
type Solver struct {
	z *Context
	s C.Z3_solver
}

// NewSolver creates a solver for the logic QF_BV (bit-vectors and
// Booleans): Z3's tactic for the logic, with an incremental SAT-based
// solver for checks under assumptions. A positive timeout bounds each
// check. The solver's random seeds are fixed, so equal inputs give equal
// models.
func (z *Context) NewSolver(timeout time.Duration) (*Solver, error) {
	logic := C.CString("QF_BV")
	defer C.free(unsafe.Pointer(logic))
	return z.configure(C.Z3_mk_solver_for_logic(z.c, C.Z3_mk_string_symbol(z.c, logic)), timeout)
}

// NewSimpleSolver creates Z3's general SMT solver (no preprocessing
// tactic), which is often faster than NewSolver on small bit-vector
// queries with division.
func (z *Context) NewSimpleSolver(timeout time.Duration) (*Solver, error) {
	return z.configure(C.Z3_mk_simple_solver(z.c), timeout)
}

func (z *Context) configure(s C.Z3_solver, timeout time.Duration) (*Solver, error) {
	return z.configureLimited(s, timeout, 0)
}

// configureLimited configures s as configure does, and bounds the work of
// each check by Z3's resource counter when rlimit is not 0.
func (z *Context) configureLimited(s C.Z3_solver, timeout time.Duration, rlimit uint) (*Solver, error) {
	if err := z.Err(); err != nil || s == nil {
		return nil, fmt.Errorf("z3: create solver: %v", err)
	}
	C.Z3_solver_inc_ref(z.c, s)
	sv := &Solver{z: z, s: s}
	p := C.Z3_mk_params(z.c)
	C.Z3_params_inc_ref(z.c, p)
	defer C.Z3_params_dec_ref(z.c, p)
	setUint := func(name string, v uint) {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		C.Z3_params_set_uint(z.c, p, C.Z3_mk_string_symbol(z.c, cs), C.uint(v))
	}
	setUint("random_seed", 0)
	// Z3 catches SIGINT during a check by default (and only interrupts
	// the check): the signal must reach the Go program, which cancels the
	// run and interrupts the solver itself.
	cs := C.CString("ctrl_c")
	defer C.free(unsafe.Pointer(cs))
	C.Z3_params_set_bool(z.c, p, C.Z3_mk_string_symbol(z.c, cs), false)
	if timeout > 0 {
		ms := timeout.Milliseconds()
		if ms < 1 {
			ms = 1
		}
		if ms > 1<<31 {
			ms = 1 << 31
		}
		setUint("timeout", uint(ms))
	}
	if rlimit > 0 {
		setUint("rlimit", rlimit)
	}
	C.Z3_solver_set_params(z.c, s, p)
	if err := z.Err(); err != nil {
		sv.Close()
		return nil, fmt.Errorf("z3: solver parameters: %w", err)
	}
	return sv, nil
}

// SetTimeout bounds each following check (0: no bound).
func (s *Solver) SetTimeout(timeout time.Duration) {
	z := s.z
	p := C.Z3_mk_params(z.c)
	C.Z3_params_inc_ref(z.c, p)
	defer C.Z3_params_dec_ref(z.c, p)
	ms := timeout.Milliseconds()
	if timeout <= 0 {
		ms = 0
	} else if ms < 1 {
		ms = 1
	}
	if ms > 1<<31 {
		ms = 1 << 31
	}
	cs := C.CString("timeout")
	defer C.free(unsafe.Pointer(cs))
	v := C.uint(ms)
	if ms == 0 {
		v = C.uint(^uint32(0))
	}
	C.Z3_params_set_uint(z.c, p, C.Z3_mk_string_symbol(z.c, cs), v)
	C.Z3_solver_set_params(z.c, s.s, p)
}

// Close releases the solver.
func (s *Solver) Close() {
	if s.s != nil {
		C.Z3_solver_dec_ref(s.z.c, s.s)
		s.s = nil
	}
}

// Assert adds the Boolean term t.
func (s *Solver) Assert(t AST) { C.Z3_solver_assert(s.z.c, s.s, t.a) }

// Push opens a scope. Terms created after Push become invalid at the
// matching Pop.
func (s *Solver) Push() { C.Z3_solver_push(s.z.c, s.s) }

// Pop closes n scopes.
func (s *Solver) Pop(n uint) { C.Z3_solver_pop(s.z.c, s.s, C.uint(n)) }

// Check decides the asserted formulas under the assumptions, which must be
// Boolean constants or their negations.
func (s *Solver) Check(assumptions ...AST) (Result, error) {
	var r C.Z3_lbool
	if len(assumptions) == 0 {
		r = C.Z3_solver_check(s.z.c, s.s)
	} else {
		r = C.Z3_solver_check_assumptions(s.z.c, s.s, C.uint(len(assumptions)), asts(assumptions))
	}
	if err := s.z.Err(); err != nil {
		return Unknown, fmt.Errorf("z3: check: %w", err)
	}
	switch r {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	return Unknown, nil
}

// ReasonUnknown is Z3's explanation of the last Unknown result, such as
// "timeout" or "canceled".
func (s *Solver) ReasonUnknown() string {
	return C.GoString(C.Z3_solver_get_reason_unknown(s.z.c, s.s))
}

// UnsatCore returns the assumptions used to show the last check Unsat.
func (s *Solver) UnsatCore() []AST {
	v := C.Z3_solver_get_unsat_core(s.z.c, s.s)
	C.Z3_ast_vector_inc_ref(s.z.c, v)
	defer C.Z3_ast_vector_dec_ref(s.z.c, v)
	n := int(C.Z3_ast_vector_size(s.z.c, v))
	out := make([]AST, n)
	for i := range n {
		out[i] = AST{C.Z3_ast_vector_get(s.z.c, v, C.uint(i))}
	}
	return out
}

// Model is a model of a satisfiable check.
type Model struct {
	z *Context
	m C.Z3_model
}

// Model returns the model of the last Sat check. Close it after use.
func (s *Solver) Model() (*Model, error) {
	m := C.Z3_solver_get_model(s.z.c, s.s)
	if err := s.z.Err(); err != nil || m == nil {
		return nil, fmt.Errorf("z3: model: %v", err)
	}
	C.Z3_model_inc_ref(s.z.c, m)
	return &Model{z: s.z, m: m}, nil
}

// Close releases the model.
func (m *Model) Close() {
	if m.m != nil {
		C.Z3_model_dec_ref(m.z.c, m.m)
		m.m = nil
	}
}

// Eval evaluates t in the model, completing the model for constants it
// does not mention, to a numeral or true/false.
func (m *Model) Eval(t AST) (AST, error) {
	var out C.Z3_ast
	if !C.Z3_model_eval(m.z.c, m.m, t.a, true, &out) {
		return AST{}, fmt.Errorf("z3: model evaluation failed: %v", m.z.Err())
	}
	return AST{out}, nil
}

// Uint64 evaluates the bit-vector term t in the model.
func (m *Model) Uint64(t AST) (uint64, error) {
	v, err := m.Eval(t)
	if err != nil {
		return 0, err
	}
	var u C.uint64_t
	if !C.Z3_get_numeral_uint64(m.z.c, v.a, &u) {
		return 0, fmt.Errorf("z3: %s is not a numeral", m.z.String(v))
	}
	return uint64(u), nil
}

// Bool evaluates the Boolean term t in the model.
func (m *Model) Bool(t AST) (bool, error) {
	v, err := m.Eval(t)
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(m.z.c, v.a) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("z3: %s is not a Boolean value", m.z.String(v))
}
