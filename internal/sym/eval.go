package sym

import (
	"fmt"

	"github.com/dowse-go/dowse/rt"
)

// Eval computes the value of e on the input vector in, with Go's
// semantics. It returns an error wrapping ErrUndefined where Go would
// panic (division by zero, index or slice out of range) and an error for an
// input index outside in.
func Eval(e *Expr, in []rt.Value) (rt.Value, error) {
	return NewEvaluator(in).Eval(e)
}

// Holds evaluates the bool term e on in.
func Holds(e *Expr, in []rt.Value) (bool, error) {
	return NewEvaluator(in).Holds(e)
}

// Evaluator evaluates terms on one input vector, remembering the values of
// shared subterms. It is not safe for concurrent use.
type Evaluator struct {
	in   []rt.Value
	memo map[*Expr]rt.Value
}

// NewEvaluator returns an Evaluator for the input vector in.
func NewEvaluator(in []rt.Value) *Evaluator {
	return &Evaluator{in: in, memo: make(map[*Expr]rt.Value)}
}

// Reset forgets the values computed so far, for inputs changed in place
// in the vector the Evaluator was made for; the memory is kept for the
// next evaluations (a solver layer that tries many inputs in turn).
func (ev *Evaluator) Reset() { clear(ev.memo) }

// Assume makes the compound term e evaluate to v from now on, whatever
// the inputs under it: the terms above e are then evaluated as functions
// of e's value (a solver layer enumerates the values of a subterm that
// way). It has no effect on a constant or an input.
func (ev *Evaluator) Assume(e *Expr, v rt.Value) {
	ev.memo[e] = v
}

// Holds evaluates the bool term e.
func (ev *Evaluator) Holds(e *Expr) (bool, error) {
	if e.k != rt.KBool {
		return false, fmt.Errorf("sym: holds: term of kind %v", e.k)
	}
	v, err := ev.Eval(e)
	return v.Bits == 1, err
}

// Eval computes the value of e.
func (ev *Evaluator) Eval(e *Expr) (rt.Value, error) {
	switch e.op {
	case rt.OpConst:
		return rt.Value{Bits: e.bits}, nil
	case rt.OpStr:
		return rt.Value{Str: e.str}, nil
	case rt.OpInput:
		i := int(e.bits)
		if i >= len(ev.in) {
			return rt.Value{}, fmt.Errorf("sym: input %d of %d", i, len(ev.in))
		}
		v := ev.in[i]
		if e.k == rt.KString {
			return rt.Value{Str: v.Str}, nil
		}
		return rt.Value{Bits: truncate(e.k, v.Bits)}, nil
	}
	if v, ok := ev.memo[e]; ok {
		return v, nil
	}
	v, err := ev.apply(e)
	if err != nil {
		return rt.Value{}, err
	}
	ev.memo[e] = v
	return v, nil
}

// apply evaluates the operands of e and applies its operator. The
// connectives short-circuit, which is consistent with the solver's
// encoding because both operands are always defined there.
func (ev *Evaluator) apply(e *Expr) (rt.Value, error) {
	switch e.op {
	case rt.OpLAnd, rt.OpLOr:
		a, err := ev.Eval(e.args[0])
		if err != nil {
			return rt.Value{}, err
		}
		if (a.Bits == 1) == (e.op == rt.OpLOr) {
			return a, nil
		}
		return ev.Eval(e.args[1])
	case rt.OpIte:
		cond, err := ev.Eval(e.args[0])
		if err != nil {
			return rt.Value{}, err
		}
		if cond.Bits == 1 {
			return ev.Eval(e.args[1])
		}
		return ev.Eval(e.args[2])
	}

	var buf [3]rt.Value
	vals := buf[:0]
	if len(e.args) > len(buf) {
		vals = make([]rt.Value, 0, len(e.args))
	}
	for _, a := range e.args {
		v, err := ev.Eval(a)
		if err != nil {
			return rt.Value{}, err
		}
		vals = append(vals, v)
	}
	undefined := func(what string) (rt.Value, error) {
		return rt.Value{}, fmt.Errorf("sym: %s: %w", what, ErrUndefined)
	}

	switch op := e.op; op {
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if e.k2 == rt.KString {
			b, _ := compare(op, e.k2, vals[0], vals[1])
			return rt.Value{Bits: boolBits(b)}, nil
		}
		fallthrough
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpShl, rt.OpShr,
		rt.OpNeg, rt.OpCpl, rt.OpNot, rt.OpConv:
		var b uint64
		if len(vals) > 1 {
			b = vals[1].Bits
		}
		v, err := Apply(op, e.k, e.k2, vals[0].Bits, b)
		return rt.Value{Bits: v}, err
	case rt.OpFromBits:
		return rt.Value{Bits: truncate(e.k, vals[0].Bits)}, nil
	case rt.OpLen:
		return rt.Value{Bits: truncate(e.k, uint64(len(vals[0].Str)))}, nil
	case rt.OpIndex:
		s := vals[0].Str
		i, ok := index(e.k2, vals[1].Bits, len(s)-1)
		if !ok || len(s) == 0 {
			return undefined("index out of range")
		}
		return rt.Value{Bits: uint64(s[i])}, nil
	case rt.OpSlice:
		s := vals[0].Str
		lo, okLo := index(e.args[1].k, vals[1].Bits, len(s))
		hi, okHi := index(e.args[2].k, vals[2].Bits, len(s))
		if !okLo || !okHi || lo > hi {
			return undefined("slice bounds out of range")
		}
		return rt.Value{Str: s[lo:hi]}, nil
	case rt.OpConcat:
		return rt.Value{Str: vals[0].Str + vals[1].Str}, nil
	case rt.OpFromList:
		b := make([]byte, len(vals))
		for i, v := range vals {
			b[i] = byte(v.Bits)
		}
		return rt.Value{Str: string(b)}, nil
	}
	return rt.Value{}, fmt.Errorf("sym: eval: unknown operator %s", opName(e.op))
}

// Apply applies an operator on integers, bools or floats — arithmetic,
// bitwise, comparison, negation, conversion — to operand bits (b is ignored by
// the unary ones), for a term of kind k whose operand kind is k2 (see
// Context.Make), with Go's semantics. The error wraps ErrUndefined where
// Go would panic. Connectives, if-then-else and string operators are not
// applied: their operands are the caller's to choose.
func Apply(op rt.Op, k, k2 rt.Kind, a, b uint64) (uint64, error) {
	undefined := func(what string) (uint64, error) {
		return 0, fmt.Errorf("sym: %s: %w", what, ErrUndefined)
	}
	if k.Float() || k2.Float() {
		v, err := applyFloat(op, k, k2, a, b)
		if err != nil {
			return undefined("float out of the integer kind's range")
		}
		return v, nil
	}
	switch op {
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpShl, rt.OpShr:
		v, err := arith(op, k, k2, a, b)
		if err != nil {
			return undefined("division by zero")
		}
		return v, nil
	case rt.OpNeg, rt.OpCpl, rt.OpNot:
		v, _ := unary(op, k, a)
		return v, nil
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if k2 == rt.KString {
			return 0, fmt.Errorf("sym: apply: comparison of strings")
		}
		c, err := compare(op, k2, rt.Value{Bits: a}, rt.Value{Bits: b})
		if err != nil {
			return undefined("ordered comparison of bools")
		}
		return boolBits(c), nil
	case rt.OpConv:
		return convert(k, k2, a), nil
	}
	return 0, fmt.Errorf("sym: apply: operator %s", opName(op))
}
