package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the class search's rewriting (classes.go) of a group over
// its parts: every byte of a string and every length becomes an input of
// its own, and terms that read a string as a whole — a byte at a computed
// position, a slice, a concatenation, a comparison of strings — are
// written over those bytes exactly as the core encodes them (strings.go):
// a string is a 64-bit length and the bytes up to a bound, a byte at a
// computed position is a chain of if-then-else over the bound (0 beyond
// it), a slice's bytes are read at the low bound plus their position, and
// so on, so that the search decides the formula the core would have.

// partString is a string term written over the parts: the mirror of
// bstring, with sym terms for Z3 terms.
type partString struct {
	n     *sym.Expr // the length, a uint64
	fixed int       // n when constant, -1 otherwise
	bytes []*sym.Expr
}

// partRewriter rewrites the terms of one group.
type partRewriter struct {
	c      *sym.Context
	leaves []rt.Leaf
	index  map[part]int // the var of each part
	memo   map[*sym.Expr]*sym.Expr
	strs   map[*sym.Expr]*partString
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
	return &partRewriter{c: c, leaves: leaves, index: index, memo: map[*sym.Expr]*sym.Expr{},
		strs: map[*sym.Expr]*partString{}, dist: map[*sym.Expr]*sym.Expr{}, left: maxRewritten}
}

// spend takes n terms from what is left, and reports whether any was.
func (w *partRewriter) spend(n int) bool {
	w.left -= n
	return w.left >= 0
}

func (w *partRewriter) u64(v int) *sym.Expr { return w.c.Const(rt.KUint64, uint64(v)) }

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
			r = w.c.Input(j, rt.KInt)
			if e.Kind() != rt.KInt {
				r = w.c.Conv(e.Kind(), r)
			}
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
		r = s.at(w, w.to64(i), constIndex(e.Arg(1)))
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
			r = stringsEqualTerm(w, a, b)
		case rt.OpNe:
			r = w.c.Not(stringsEqualTerm(w, a, b))
		case rt.OpLt:
			r = stringLessTerm(w, a, b)
		case rt.OpGt:
			r = stringLessTerm(w, b, a)
		case rt.OpLe:
			r = w.c.Not(stringLessTerm(w, b, a))
		default:
			r = w.c.Not(stringLessTerm(w, a, b))
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
func (w *partRewriter) str(e *sym.Expr) (*partString, bool) {
	if s, ok := w.strs[e]; ok {
		return s, true
	}
	if !w.spend(1) {
		return nil, false
	}
	var s *partString
	switch e.Op() {
	case rt.OpInput:
		lj, ok := w.index[part{in: e.Input(), pos: -1}]
		if !ok {
			return nil, false
		}
		s = &partString{n: w.to64(w.c.Input(lj, rt.KInt)), fixed: -1, bytes: make([]*sym.Expr, max(w.leaves[e.Input()].Max, 0))}
		for k := range s.bytes {
			j, ok := w.index[part{in: e.Input(), pos: k}]
			if !ok {
				return nil, false
			}
			s.bytes[k] = w.c.Input(j, rt.KUint8)
		}
	case rt.OpStr:
		str := e.Str()
		s = &partString{n: w.u64(len(str)), fixed: len(str), bytes: make([]*sym.Expr, len(str))}
		for k := range len(str) {
			s.bytes[k] = w.c.Const(rt.KUint8, uint64(str[k]))
		}
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
		s = a.slice(w, w.to64(lo), constIndex(e.Arg(1)), w.to64(hi), constIndex(e.Arg(2)))
	case rt.OpConcat:
		a, ok1 := w.str(e.Arg(0))
		b, ok2 := w.str(e.Arg(1))
		if !ok1 || !ok2 || !w.spend((len(a.bytes)+len(b.bytes))*(len(b.bytes)+1)) {
			return nil, false
		}
		s = concatTerm(w, a, b)
	case rt.OpFromList:
		s = &partString{n: w.u64(e.NumArgs()), fixed: e.NumArgs(), bytes: make([]*sym.Expr, e.NumArgs())}
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
		s = iteStringTerm(w, c, a, b)
	default:
		return nil, false
	}
	w.strs[e] = s
	return s, true
}

// has is bstring.has.
func (s *partString) has(w *partRewriter, j int) *sym.Expr {
	if s.fixed >= 0 || j >= len(s.bytes) {
		return w.c.Bool(j < s.fixed)
	}
	return w.c.Compare(rt.OpLt, w.u64(j), s.n)
}

// byteAt is bstring.byteAt.
func (s *partString) byteAt(w *partRewriter, j int) *sym.Expr {
	if j >= 0 && j < len(s.bytes) {
		return s.bytes[j]
	}
	return w.c.Const(rt.KUint8, 0)
}

// at is bstring.at.
func (s *partString) at(w *partRewriter, i *sym.Expr, ci int) *sym.Expr {
	if ci >= 0 {
		return s.byteAt(w, ci)
	}
	r := w.c.Const(rt.KUint8, 0)
	for j := len(s.bytes) - 1; j >= 0; j-- {
		r = w.c.Ite(w.c.Compare(rt.OpEq, i, w.u64(j)), s.bytes[j], r)
	}
	return r
}

// slice is bstring.slice.
func (s *partString) slice(w *partRewriter, lo *sym.Expr, clo int, hi *sym.Expr, chi int) *partString {
	out := &partString{n: w.c.Binary(rt.OpSub, hi, lo), fixed: -1}
	if clo >= 0 && chi >= clo {
		out.fixed = chi - clo
	}
	if clo >= 0 {
		if clo < len(s.bytes) {
			out.bytes = s.bytes[clo:]
		}
		switch {
		case out.fixed > len(out.bytes):
			out.fixed = -1
		case out.fixed >= 0:
			out.bytes = out.bytes[:out.fixed]
		}
		return out
	}
	out.bytes = make([]*sym.Expr, len(s.bytes))
	for j := range out.bytes {
		out.bytes[j] = s.at(w, w.c.Binary(rt.OpAdd, lo, w.u64(j)), -1)
	}
	if chi >= 0 && chi < len(out.bytes) {
		out.bytes = out.bytes[:chi]
	}
	return out
}

// concatTerm is concat.
func concatTerm(w *partRewriter, a, b *partString) *partString {
	out := &partString{n: w.c.Binary(rt.OpAdd, a.n, b.n), fixed: -1, bytes: make([]*sym.Expr, len(a.bytes)+len(b.bytes))}
	if a.fixed >= 0 && b.fixed >= 0 {
		out.fixed = a.fixed + b.fixed
	}
	if a.fixed >= 0 {
		copy(out.bytes, a.bytes[:a.fixed])
		copy(out.bytes[a.fixed:], b.bytes)
		out.bytes = out.bytes[:a.fixed+len(b.bytes)]
		return out
	}
	for j := range out.bytes {
		fromB := b.at(w, w.c.Binary(rt.OpSub, w.u64(j), a.n), -1)
		out.bytes[j] = w.c.Ite(a.has(w, j), a.byteAt(w, j), fromB)
	}
	return out
}

// iteStringTerm is iteString.
func iteStringTerm(w *partRewriter, c *sym.Expr, a, b *partString) *partString {
	out := &partString{n: w.c.Ite(c, a.n, b.n), fixed: -1, bytes: make([]*sym.Expr, max(len(a.bytes), len(b.bytes)))}
	if a.fixed >= 0 && a.fixed == b.fixed {
		out.fixed = a.fixed
	}
	for j := range out.bytes {
		out.bytes[j] = w.c.Ite(c, a.byteAt(w, j), b.byteAt(w, j))
	}
	return out
}

// stringsEqualTerm is stringsEqual.
func stringsEqualTerm(w *partRewriter, a, b *partString) *sym.Expr {
	if a.fixed >= 0 && b.fixed >= 0 && a.fixed != b.fixed {
		return w.c.False()
	}
	r := w.c.Compare(rt.OpEq, a.n, b.n)
	for j := range min(len(a.bytes), len(b.bytes)) {
		if a.fixed >= 0 && j >= a.fixed {
			break
		}
		eq := w.c.Compare(rt.OpEq, a.bytes[j], b.bytes[j])
		if a.fixed < 0 {
			eq = w.c.Or(w.c.Not(a.has(w, j)), eq)
		}
		r = w.c.And(r, eq)
	}
	return r
}

// stringLessTerm is stringLess.
func stringLessTerm(w *partRewriter, a, b *partString) *sym.Expr {
	m := min(len(a.bytes), len(b.bytes))
	mv := w.u64(m)
	less := w.c.And(w.c.Compare(rt.OpLe, a.n, mv), w.c.Compare(rt.OpLt, mv, b.n))
	for j := m - 1; j >= 0; j-- {
		aHas, bHas := a.has(w, j), b.has(w, j)
		x, y := a.bytes[j], b.bytes[j]
		here := w.c.Or(w.c.Compare(rt.OpLt, x, y), w.c.And(w.c.Compare(rt.OpEq, x, y), less))
		less = w.c.Or(w.c.And(w.c.Not(aHas), bHas), w.c.And(w.c.And(aHas, bHas), here))
	}
	return less
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
