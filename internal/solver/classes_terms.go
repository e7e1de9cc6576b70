package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the class search's rewriting (classes.go) of a group over
// its parts: every byte of a string and every length becomes an input of
// its own, and terms that read a string as a whole — a byte at a computed
// position, a slice, a concatenation, a comparison of strings — are
// written over those bytes by the core's own string encoding
// (core_strings.go), built of sym terms instead of Z3 ones: a string is a
// 64-bit length and the bytes up to a bound, a byte at a computed
// position is a chain of if-then-else over the bound (0 beyond it), a
// slice's bytes are read at the low bound plus their position, and so
// on, so that the search decides the formula the core would have.

// partRewriter rewrites the terms of one group.
type partRewriter struct {
	c      *sym.Context
	st     stringTerms[*sym.Expr] // the string encoding's terms
	leaves []rt.Leaf
	index  map[part]int // the var of each part
	memo   map[*sym.Expr]*sym.Expr
	strs   map[*sym.Expr]*boundedString[*sym.Expr]
	dist   map[*sym.Expr]*sym.Expr // distribute's
	// left is what the group may still build, in terms (estimated for
	// the operations on strings, which build a term per byte or per pair
	// of bytes): a group over long strings read at symbolic positions is
	// left to the next solver.
	left int
}

// maxRewritten bounds the terms rewriting and distribution build for one
// group.
const maxRewritten = 1 << 16

func newPartRewriter(c *sym.Context, leaves []rt.Leaf, index map[part]int) *partRewriter {
	return &partRewriter{c: c, st: symTerms{c}, leaves: leaves, index: index, memo: map[*sym.Expr]*sym.Expr{},
		strs: map[*sym.Expr]*boundedString[*sym.Expr]{}, dist: map[*sym.Expr]*sym.Expr{}, left: maxRewritten}
}

// spend takes n terms from what is left, and reports whether any was.
func (w *partRewriter) spend(n int) bool {
	w.left -= n
	return w.left >= 0
}

// to64 is the encoder's resize of an index or bound to 64 bits.
func (w *partRewriter) to64(e *sym.Expr) *sym.Expr {
	if e.Kind() == rt.KUint64 {
		return e
	}
	return w.c.Conv(rt.KUint64, e)
}

// term rewrites a term that is not a string; ok is false outside the
// fragment.
func (w *partRewriter) term(e *sym.Expr) (*sym.Expr, bool) {
	if r, ok := w.memo[e]; ok {
		return r, true
	}
	if !w.spend(1) {
		return nil, false
	}
	var r *sym.Expr
	switch e.Op() {
	case rt.OpInput:
		j, ok := w.index[part{in: e.Input(), pos: -1}]
		if !ok || e.Kind() == rt.KString {
			return nil, false
		}
		r = w.c.Input(j, e.Kind())
	case rt.OpLen:
		if a := e.Arg(0); a.Op() == rt.OpInput {
			j, ok := w.index[part{in: a.Input(), pos: -1}]
			if !ok {
				return nil, false
			}
			r = w.c.Input(j, rt.KInt) // len is an int
			break
		}
		s, ok := w.str(e.Arg(0))
		if !ok {
			return nil, false
		}
		r = w.c.Conv(e.Kind(), s.n)
	case rt.OpIndex:
		if p, ok := bytePart(e, w.leaves); ok {
			j, ok := w.index[p]
			if !ok {
				return nil, false
			}
			r = w.c.Input(j, rt.KUint8)
			break
		}
		s, ok := w.str(e.Arg(0))
		if !ok {
			return nil, false
		}
		i, ok := w.term(e.Arg(1))
		if !ok || !w.spend(len(s.bytes)) {
			return nil, false
		}
		r = s.at(w.st, w.to64(i), constIndex(e.Arg(1)))
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if e.K2() != rt.KString {
			break
		}
		a, ok1 := w.str(e.Arg(0))
		b, ok2 := w.str(e.Arg(1))
		if !ok1 || !ok2 || !w.spend(4*min(len(a.bytes), len(b.bytes))) {
			return nil, false
		}
		switch e.Op() {
		case rt.OpEq:
			r = stringsEqual(w.st, a, b)
		case rt.OpNe:
			r = w.c.Not(stringsEqual(w.st, a, b))
		case rt.OpLt:
			r = stringLess(w.st, a, b)
		case rt.OpGt:
			r = stringLess(w.st, b, a)
		case rt.OpLe:
			r = w.c.Not(stringLess(w.st, b, a))
		default:
			r = w.c.Not(stringLess(w.st, a, b))
		}
	}
	if r == nil {
		args := make([]*sym.Expr, e.NumArgs())
		for i := range args {
			if e.Arg(i).Kind() == rt.KString {
				return nil, false // an operator on strings the rewriting does not know
			}
			a, ok := w.term(e.Arg(i))
			if !ok {
				return nil, false
			}
			args[i] = a
		}
		var err error
		if r, err = w.c.Make(e.Op(), e.Kind(), e.K2(), args, e.Bits(), e.Str()); err != nil {
			return nil, false
		}
	}
	w.memo[e] = r
	return r, true
}

// str rewrites a string term.
func (w *partRewriter) str(e *sym.Expr) (*boundedString[*sym.Expr], bool) {
	if s, ok := w.strs[e]; ok {
		return s, true
	}
	if !w.spend(1) {
		return nil, false
	}
	var s *boundedString[*sym.Expr]
	switch e.Op() {
	case rt.OpInput:
		lj, ok := w.index[part{in: e.Input(), pos: -1}]
		if !ok {
			return nil, false
		}
		s = &boundedString[*sym.Expr]{n: w.to64(w.c.Input(lj, rt.KInt)), fixed: -1, bytes: make([]*sym.Expr, max(w.leaves[e.Input()].Max, 0))}
		for k := range s.bytes {
			j, ok := w.index[part{in: e.Input(), pos: k}]
			if !ok {
				return nil, false
			}
			s.bytes[k] = w.c.Input(j, rt.KUint8)
		}
	case rt.OpStr:
		s = constString(w.st, e.Str())
	case rt.OpSlice:
		a, ok := w.str(e.Arg(0))
		if !ok {
			return nil, false
		}
		lo, ok1 := w.term(e.Arg(1))
		hi, ok2 := w.term(e.Arg(2))
		if !ok1 || !ok2 || !w.spend(len(a.bytes)*len(a.bytes)) {
			return nil, false
		}
		s = a.slice(w.st, w.to64(lo), constIndex(e.Arg(1)), w.to64(hi), constIndex(e.Arg(2)))
	case rt.OpConcat:
		a, ok1 := w.str(e.Arg(0))
		b, ok2 := w.str(e.Arg(1))
		if !ok1 || !ok2 || !w.spend((len(a.bytes)+len(b.bytes))*(len(b.bytes)+1)) {
			return nil, false
		}
		s = concat(w.st, a, b)
	case rt.OpFromList:
		s = &boundedString[*sym.Expr]{n: w.st.Length(e.NumArgs()), fixed: e.NumArgs(), bytes: make([]*sym.Expr, e.NumArgs())}
		for k := range e.NumArgs() {
			b, ok := w.term(e.Arg(k))
			if !ok {
				return nil, false
			}
			s.bytes[k] = b
		}
	case rt.OpIte:
		c, ok := w.term(e.Arg(0))
		if !ok {
			return nil, false
		}
		a, ok1 := w.str(e.Arg(1))
		b, ok2 := w.str(e.Arg(2))
		if !ok1 || !ok2 || !w.spend(max(len(a.bytes), len(b.bytes))) {
			return nil, false
		}
		s = iteString(w.st, c, a, b)
	default:
		return nil, false
	}
	w.strs[e] = s
	return s, true
}

// distribute moves comparisons with constants, conversions and
// arithmetic with a constant operand into the branches of the
// if-then-else they apply to: f(ite(c, a, b)) is ite(c, f(a), f(b)) for
// operators that are defined on every operand. A byte that a chain of
// if-then-else selects and the path compares with 128 is then read
// through "byte < 128" rather than as a whole, and falls into two classes
// instead of 256. ok is false when the terms grow beyond what is left.
func (w *partRewriter) distribute(e *sym.Expr) (*sym.Expr, bool) {
	if r, ok := w.dist[e]; ok {
		return r, true
	}
	if len(e.Vars()) == 0 || e.NumArgs() == 0 {
		return e, true
	}
	if !w.spend(1) {
		return nil, false
	}
	args := make([]*sym.Expr, e.NumArgs())
	for i := range args {
		a, ok := w.distribute(e.Arg(i))
		if !ok {
			return nil, false
		}
		args[i] = a
	}
	r, err := w.c.Make(e.Op(), e.Kind(), e.K2(), args, e.Bits(), e.Str())
	if err != nil {
		return nil, false
	}
	if r.Op() != rt.OpIte && distributes(r) {
		x := -1 // the operand that is an if-then-else; the others are constants
		for i := range r.NumArgs() {
			switch a := r.Arg(i); {
			case a.Op() == rt.OpIte && x < 0:
				x = i
			case !a.IsConst():
				x = -2
			}
		}
		if x >= 0 {
			ite := r.Arg(x)
			var branches [2]*sym.Expr
			for b := range 2 {
				args := make([]*sym.Expr, r.NumArgs())
				for i := range args {
					args[i] = r.Arg(i)
				}
				args[x] = ite.Arg(1 + b)
				t, err := w.c.Make(r.Op(), r.Kind(), r.K2(), args, r.Bits(), r.Str())
				if err != nil {
					return nil, false
				}
				var ok bool
				if branches[b], ok = w.distribute(t); !ok {
					return nil, false
				}
			}
			r = w.c.Ite(ite.Arg(0), branches[0], branches[1])
		}
	}
	w.dist[e] = r
	return r, true
}

// distributes reports whether f(ite(c, a, b)) may be written ite(c, f(a),
// f(b)) for e's operator f: it is defined on every operand, and not an
// operator on strings.
func distributes(e *sym.Expr) bool {
	switch e.Op() {
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return e.K2() != rt.KString
	case rt.OpConv:
		return e.Kind().Integer() && e.K2().Integer()
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpAnd, rt.OpOr, rt.OpXor, rt.OpAndNot, rt.OpNeg, rt.OpCpl, rt.OpNot:
		return e.Kind().Integer() || e.Kind() == rt.KBool
	}
	return false
}
