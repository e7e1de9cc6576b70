package solver

import (
	"fmt"

	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// lenBits is the width of string lengths and positions in the encoding.
const lenBits = 64

// term is the encoding of one sym term: a bit-vector for integers, a
// Boolean for bools, a bounded byte string for strings.
type term struct {
	t z3.AST
	s *bstring
}

// input is the encoding of one input variable.
type input struct {
	leaf int
	kind rt.Kind
	t    z3.AST   // integers and bools
	s    *bstring // strings
}

// encoder translates terms into Z3 terms of one context, remembering the
// translation of shared subterms and the inputs it has created.
type encoder struct {
	z      *z3.Context
	st     stringTerms[z3.AST] // the string encoding's terms (core_strings.go)
	leaves []rt.Leaf
	memo   map[*sym.Expr]term
	inputs map[int]*input
	order  []*input // inputs in creation order, for deterministic models
	domain []z3.AST // the domain constraints of the created inputs
	lemmas []z3.AST // facts that hold for every value of the terms encoded (see divisionLemmas)
	// narrow, if not 0, encodes integers wider than narrow bits with
	// narrow bits: a model of such an encoding is a candidate only,
	// checked by evaluation (see Z3.narrowSolve).
	narrow uint
}

func newEncoder(z *z3.Context, leaves []rt.Leaf) *encoder {
	return &encoder{z: z, st: z3Terms{z}, leaves: leaves, memo: map[*sym.Expr]term{}, inputs: map[int]*input{}}
}

// unsupportedError reports a term the encoder cannot translate.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

func unsupported(format string, args ...any) error {
	return &unsupportedError{fmt.Sprintf(format, args...)}
}

// constraints encodes each bool term of cs; an error is the first
// term's (an *unsupportedError for a term it cannot translate).
func (en *encoder) constraints(cs []*sym.Expr) ([]z3.AST, error) {
	formulas := make([]z3.AST, 0, len(cs))
	for _, c := range cs {
		f, err := en.constraint(c)
		if err != nil {
			return nil, err
		}
		formulas = append(formulas, f)
	}
	return formulas, nil
}

// constraint encodes a bool term.
func (en *encoder) constraint(e *sym.Expr) (z3.AST, error) {
	if e.Kind() != rt.KBool {
		return z3.AST{}, fmt.Errorf("constraint %v has kind %v, want bool", e, e.Kind())
	}
	t, err := en.encode(e)
	if err != nil {
		return z3.AST{}, err
	}
	if err := en.z.Err(); err != nil {
		return z3.AST{}, fmt.Errorf("encode %v: %w", e, err)
	}
	return t.t, nil
}

func (en *encoder) encode(e *sym.Expr) (term, error) {
	if t, ok := en.memo[e]; ok {
		return t, nil
	}
	args := make([]term, e.NumArgs())
	for i := range args {
		a, err := en.encode(e.Arg(i))
		if err != nil {
			return term{}, err
		}
		args[i] = a
	}
	t, err := en.apply(e, args)
	if err != nil {
		return term{}, err
	}
	en.memo[e] = t
	return t, nil
}

// width is the number of bits that encode kind k: its size, or the
// encoder's narrow width where that is smaller (see narrowWidth).
func (en *encoder) width(k rt.Kind) uint {
	w := uint(k.Bits())
	if en.narrow > 0 && w > en.narrow {
		return en.narrow
	}
	return w
}

func (en *encoder) apply(e *sym.Expr, args []term) (term, error) {
	z := en.z
	bv := func(t z3.AST) (term, error) { return term{t: t}, nil }
	if sym.IsFloat(e) {
		return en.applyFloat(e, args)
	}
	k := e.Kind()
	switch op := e.Op(); op {
	case rt.OpConst:
		if k == rt.KBool {
			return bv(z.Bool(e.Bits() == 1))
		}
		return bv(z.BVVal(e.Bits(), en.width(k)))
	case rt.OpStr:
		return term{s: constString(en.st, e.Str())}, nil
	case rt.OpInput:
		in, err := en.input(e)
		if err != nil {
			return term{}, err
		}
		return term{t: in.t, s: in.s}, nil
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpAnd, rt.OpOr, rt.OpXor:
		return bv(z.BV(bvOps[op], args[0].t, args[1].t))
	case rt.OpQuo, rt.OpRem:
		// SMT-LIB's bvsdiv truncates and bvsrem takes the dividend's
		// sign, as Go does; both wrap MinInt / -1 to MinInt like Go.
		// Division by zero needs no care: the run recorded divisor != 0.
		var o z3.BVOp
		switch {
		case op == rt.OpQuo && k.Signed():
			o = z3.BVSDiv
		case op == rt.OpQuo:
			o = z3.BVUDiv
		case k.Signed():
			o = z3.BVSRem
		default:
			o = z3.BVURem
		}
		t := z.BV(o, args[0].t, args[1].t)
		en.lemmas = append(en.lemmas, en.divisionLemmas(op, k, args[0].t, args[1].t, t)...)
		return bv(t)
	case rt.OpAndNot:
		return bv(z.BV(z3.BVAnd, args[0].t, z.BVNot(args[1].t)))
	case rt.OpShl, rt.OpShr:
		return bv(en.shift(op, k, e.K2(), args[0].t, args[1].t))
	case rt.OpNeg:
		return bv(z.BVNeg(args[0].t))
	case rt.OpCpl:
		return bv(z.BVNot(args[0].t))
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return bv(en.compare(op, e.K2(), args[0], args[1]))
	case rt.OpNot:
		return bv(z.Not(args[0].t))
	case rt.OpLAnd:
		return bv(z.And(args[0].t, args[1].t))
	case rt.OpLOr:
		return bv(z.Or(args[0].t, args[1].t))
	case rt.OpConv:
		return bv(en.resize(args[0].t, e.K2(), en.width(k)))
	case rt.OpLen:
		return bv(en.resize(args[0].s.n, rt.KUint64, en.width(k)))
	case rt.OpIndex:
		i := e.Arg(1)
		return bv(args[0].s.at(en.st, en.resize(args[1].t, i.Kind(), lenBits), constIndex(i)))
	case rt.OpSlice:
		lo, hi := e.Arg(1), e.Arg(2)
		return term{s: args[0].s.slice(en.st,
			en.resize(args[1].t, lo.Kind(), lenBits), constIndex(lo),
			en.resize(args[2].t, hi.Kind(), lenBits), constIndex(hi))}, nil
	case rt.OpConcat:
		return term{s: concat(en.st, args[0].s, args[1].s)}, nil
	case rt.OpFromList:
		bytes := make([]z3.AST, len(args))
		for i, a := range args {
			bytes[i] = a.t
		}
		return term{s: &bstring{n: z.BVVal(uint64(len(bytes)), lenBits), fixed: len(bytes), bytes: bytes}}, nil
	case rt.OpIte:
		if k == rt.KString {
			return term{s: iteString(en.st, args[0].t, args[1].s, args[2].s)}, nil
		}
		return bv(z.Ite(args[0].t, args[1].t, args[2].t))
	}
	return term{}, unsupported("operator %d in %v", e.Op(), e)
}

// divisionLemmas are facts about t = a / b or a % b (op, of kind k) that
// hold for every a and b under SMT-LIB's semantics (including division by
// zero and MinInt / -1): the remainder is smaller than the divisor and has
// the dividend's sign, the quotient lies between 0 and the dividend. They
// never change an answer, but Z3 would otherwise have to derive them from
// the bit-blasted divider: "key % n >= 0 && uint64(key % n) >= uint64(n)"
// with 64-bit inputs timed out after 5 s, and with them it is immediate.
func (en *encoder) divisionLemmas(op rt.Op, k rt.Kind, a, b, t z3.AST) []z3.AST {
	z := en.z
	w := en.width(k)
	zero := z.BVVal(0, w)
	nonzero := z.Not(z.Eq(b, zero))
	if !k.Signed() {
		if op == rt.OpRem {
			// a % b < b for b != 0; a % b <= a (also for b == 0: a).
			return []z3.AST{z.Implies(nonzero, z.ULt(t, b)), z.ULe(t, a)}
		}
		return []z3.AST{z.Implies(nonzero, z.ULe(t, a))}
	}
	aNonNeg, aNeg := z.SLe(zero, a), z.SLt(a, zero)
	if op == rt.OpRem {
		minInt := z.BVVal(1<<(w-1), w)
		return []z3.AST{
			z.Implies(aNonNeg, z.SLe(zero, t)),
			z.Implies(aNeg, z.SLe(t, zero)),
			z.Implies(z.SLt(zero, b), z.And(z.SLt(t, b), z.SLt(z.BVNeg(b), t))),
			z.Implies(z.And(z.SLt(b, zero), z.Not(z.Eq(b, minInt))), z.And(z.SLt(b, t), z.SLt(t, z.BVNeg(b)))),
		}
	}
	bPos := z.SLt(zero, b)
	return []z3.AST{
		z.Implies(z.And(bPos, aNonNeg), z.And(z.SLe(zero, t), z.SLe(t, a))),
		z.Implies(z.And(bPos, aNeg), z.And(z.SLe(a, t), z.SLe(t, zero))),
	}
}

// bvOps are the operators Go and SMT-LIB define alike.
var bvOps = map[rt.Op]z3.BVOp{rt.OpAdd: z3.BVAdd, rt.OpSub: z3.BVSub, rt.OpMul: z3.BVMul,
	rt.OpAnd: z3.BVAnd, rt.OpOr: z3.BVOr, rt.OpXor: z3.BVXor}

// shift encodes a << n or a >> n for a of kind k and a count of kind ck,
// read as unsigned. SMT-LIB shifts take a count of a's width and give 0
// (or, arithmetic, the sign fill) for counts >= the width, as Go does; a
// wider count is saturated rather than truncated, a narrower one
// zero-extended.
func (en *encoder) shift(op rt.Op, k, ck rt.Kind, a, n z3.AST) z3.AST {
	z := en.z
	w, cw := en.width(k), en.width(ck)
	switch {
	case cw > w:
		big := z.ULe(z.BVVal(uint64(w), cw), n)
		n = z.Ite(big, z.BVVal(uint64(w), w), z.Extract(w-1, 0, n))
	case cw < w:
		n = z.ZeroExt(w-cw, n)
	}
	switch {
	case op == rt.OpShl:
		return z.BV(z3.BVShl, a, n)
	case k.Signed():
		return z.BV(z3.BVAShr, a, n)
	}
	return z.BV(z3.BVLShr, a, n)
}

// resize converts a bit-vector of kind from to width w as Go converts
// integers: truncation, or sign or zero extension by from's signedness.
func (en *encoder) resize(t z3.AST, from rt.Kind, w uint) z3.AST {
	fw := en.z.Width(t)
	switch {
	case w < fw:
		return en.z.Extract(w-1, 0, t)
	case w > fw && from.Signed():
		return en.z.SignExt(w-fw, t)
	case w > fw:
		return en.z.ZeroExt(w-fw, t)
	}
	return t
}

// compare encodes a comparison of operands of kind k.
func (en *encoder) compare(op rt.Op, k rt.Kind, a, b term) z3.AST {
	z := en.z
	if k == rt.KString {
		switch op {
		case rt.OpEq:
			return stringsEqual(en.st, a.s, b.s)
		case rt.OpNe:
			return z.Not(stringsEqual(en.st, a.s, b.s))
		case rt.OpLt:
			return stringLess(en.st, a.s, b.s)
		case rt.OpGt:
			return stringLess(en.st, b.s, a.s)
		case rt.OpLe:
			return z.Not(stringLess(en.st, b.s, a.s))
		default: // OpGe
			return z.Not(stringLess(en.st, a.s, b.s))
		}
	}
	lt, le := z.ULt, z.ULe
	if k.Signed() {
		lt, le = z.SLt, z.SLe
	}
	switch op {
	case rt.OpEq:
		return z.Eq(a.t, b.t)
	case rt.OpNe:
		return z.Not(z.Eq(a.t, b.t))
	case rt.OpLt:
		return lt(a.t, b.t)
	case rt.OpLe:
		return le(a.t, b.t)
	case rt.OpGt:
		return lt(b.t, a.t)
	default: // OpGe
		return le(b.t, a.t)
	}
}

// constIndex is the value of a constant index or bound, or -1 when it is
// symbolic or out of any string's range.
func constIndex(e *sym.Expr) int {
	if !e.IsConst() {
		return -1
	}
	v := e.Signed()
	if !e.Kind().Signed() {
		v = int64(e.Bits())
	}
	if v < 0 || v > 1<<30 {
		return -1
	}
	return int(v)
}

// input returns the encoding of an input term, creating its variables and
// domain constraints on first use.
func (en *encoder) input(e *sym.Expr) (*input, error) {
	i := e.Input()
	if in, ok := en.inputs[i]; ok {
		return in, nil
	}
	if i >= len(en.leaves) {
		return nil, fmt.Errorf("input %d beyond the %d leaves", i, len(en.leaves))
	}
	leaf := en.leaves[i]
	if leaf.K != e.Kind() {
		return nil, fmt.Errorf("input %d has kind %v but leaf %q has kind %v", i, e.Kind(), leaf.Path, leaf.K)
	}
	z := en.z
	in := &input{leaf: i, kind: leaf.K}
	max := uint64(max(leaf.Max, 0))
	switch {
	case leaf.K == rt.KBool:
		in.t = z.BoolVar()
	case leaf.K == rt.KString:
		in.s = &bstring{n: z.BVVar(lenBits), fixed: -1, bytes: make([]z3.AST, max)}
		for j := range in.s.bytes {
			in.s.bytes[j] = z.BVVar(8)
		}
		en.domain = append(en.domain, z.ULe(in.s.n, z.BVVal(max, lenBits)))
	case leaf.K.Integer():
		w := en.width(leaf.K)
		in.t = z.BVVar(w)
		if leaf.IsLen {
			if leaf.K.Signed() {
				en.domain = append(en.domain, z.SLe(z.BVVal(0, w), in.t), z.SLe(in.t, z.BVVal(max, w)))
			} else {
				en.domain = append(en.domain, z.ULe(in.t, z.BVVal(max, w)))
			}
		}
	default:
		return nil, unsupported("input %d of kind %v", i, leaf.K)
	}
	en.inputs[i] = in
	en.order = append(en.order, in)
	return in, nil
}

// preference is an assumption literal p with p ⇒ (an input part equals
// its seed value).
type preference struct {
	lit  z3.AST
	cond z3.AST
}

// preferences returns, for every created input, literals that pin it (for
// strings: its length and each byte) to its seed value.
func (en *encoder) preferences(seed []rt.Value) []preference {
	z := en.z
	var out []preference
	pin := func(cond z3.AST) {
		out = append(out, preference{lit: z.BoolVar(), cond: cond})
	}
	for _, in := range en.order {
		v := seed[in.leaf]
		switch {
		case in.kind == rt.KBool:
			if v.Bits&1 == 1 {
				pin(in.t)
			} else {
				pin(z.Not(in.t))
			}
		case in.kind == rt.KString:
			if len(v.Str) <= len(in.s.bytes) {
				pin(z.Eq(in.s.n, z.BVVal(uint64(len(v.Str)), lenBits)))
			}
			for j := 0; j < len(v.Str) && j < len(in.s.bytes); j++ {
				pin(z.Eq(in.s.bytes[j], z.BVVal(uint64(v.Str[j]), 8)))
			}
		default:
			pin(z.Eq(in.t, z.BVVal(v.Bits, en.width(in.kind))))
		}
	}
	return out
}

// model reads the values of the created inputs from m into vals.
func (en *encoder) model(m *z3.Model, vals []rt.Value) error {
	for _, in := range en.order {
		var v rt.Value
		switch {
		case in.kind == rt.KBool:
			b, err := m.Bool(in.t)
			if err != nil {
				return err
			}
			if b {
				v.Bits = 1
			}
		case in.kind == rt.KString:
			n, err := m.Uint64(in.s.n)
			if err != nil {
				return err
			}
			n = min(n, uint64(len(in.s.bytes)))
			buf := make([]byte, n)
			for j := range buf {
				b, err := m.Uint64(in.s.bytes[j])
				if err != nil {
					return err
				}
				buf[j] = byte(b)
			}
			v.Str = string(buf)
		default:
			u, err := m.Uint64(in.t)
			if err != nil {
				return err
			}
			if w := en.width(in.kind); w < uint(in.kind.Bits()) {
				// A narrowed input: extend it to its kind's width.
				if in.kind.Signed() && u&(1<<(w-1)) != 0 {
					u |= ^uint64(0) << w
				}
				if b := in.kind.Bits(); b < 64 {
					u &= 1<<b - 1
				}
			}
			v.Bits = u
		}
		vals[in.leaf] = v
	}
	return nil
}
