package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// A parser's path states the bounds of the slices it takes, and the
// bounds are sums and differences of one position with constants:
// s[i+1 : n-1][j : j+5] is checked as uint64(n-1-(i+1) - (n-1-(i+1)-5) - 1)
// against uint64(n-1-(i+1)). Operand by operand, interval arithmetic
// loses that both sides read the same position, and the difference
// spans twice the position's interval; written as a sum of distinct
// terms with coefficients, the position cancels and the difference is
// the constant 4.
//
// A sum is such a form: a term of integer kind k of width w equals
// c + Σ coef·atom modulo 2^w, where the atoms are its maximal sub-terms
// that are not sums, differences, negations or products with a constant
// of kind k, and the coefficients and c are taken as the signed values
// of their w bits. It is exact for every value of the atoms (Go's
// arithmetic is arithmetic modulo 2^w). Where the mathematical value of
// c + Σ coef·atom over the atoms' intervals stays within k's range, the
// term's value is that mathematical value (the one value of k's range
// congruent to it): the term's interval (sumInterval).

// maxSumAtoms bounds the atoms of a sum; a term with more is an atom of
// its own.
const maxSumAtoms = 8

// A sum is c + Σ coef·atom, atoms in the order of their IDs, no zero
// coefficient.
type sum struct {
	c     int64
	atoms []sumAtom
}

type sumAtom struct {
	t    *sym.Expr
	coef int64
}

// sumOf returns e's sum, memoized by term number for the query's terms.
func (iv *intervals) sumOf(e *sym.Expr) sum {
	at, ok := iv.index[e]
	if ok && iv.hasSum[at] {
		return iv.sums[at]
	}
	s := iv.computeSum(e)
	if ok {
		iv.sums[at], iv.hasSum[at] = s, true
	}
	return s
}

// computeSum writes e as a sum of its operands' sums.
func (iv *intervals) computeSum(e *sym.Expr) sum {
	k := e.Kind()
	w := k.Bits()
	switch e.Op() {
	case rt.OpConst:
		return sum{c: sym.SignExtend(k, e.Bits())}
	case rt.OpAdd, rt.OpSub:
		a, b := iv.sumOf(e.Arg(0)), iv.sumOf(e.Arg(1))
		sign := int64(1)
		if e.Op() == rt.OpSub {
			sign = -1
		}
		if s, ok := addSums(a, b, sign, w); ok {
			return s
		}
	case rt.OpNeg:
		return scaleSum(iv.sumOf(e.Arg(0)), -1, w)
	case rt.OpMul:
		a, b := e.Arg(0), e.Arg(1)
		if a.IsConst() {
			a, b = b, a
		}
		if b.IsConst() {
			return scaleSum(iv.sumOf(a), sym.SignExtend(k, b.Bits()), w)
		}
	}
	return sum{atoms: []sumAtom{{e, 1}}} // an atom
}

// wrap reduces x to the signed value of its low w bits.
func wrap(x int64, w int) int64 {
	if w >= 64 {
		return x
	}
	return x << (64 - w) >> (64 - w)
}

// addSums returns a + sign·b in width w, or false if it has more than
// maxSumAtoms atoms.
func addSums(a, b sum, sign int64, w int) (sum, bool) {
	out := sum{c: wrap(a.c+sign*b.c, w)}
	i, j := 0, 0
	for i < len(a.atoms) || j < len(b.atoms) {
		switch {
		case j == len(b.atoms) || i < len(a.atoms) && a.atoms[i].t.ID() < b.atoms[j].t.ID():
			out.atoms = append(out.atoms, a.atoms[i])
			i++
		case i == len(a.atoms) || b.atoms[j].t.ID() < a.atoms[i].t.ID():
			out.atoms = append(out.atoms, sumAtom{b.atoms[j].t, wrap(sign*b.atoms[j].coef, w)})
			j++
		default:
			if c := wrap(a.atoms[i].coef+sign*b.atoms[j].coef, w); c != 0 {
				out.atoms = append(out.atoms, sumAtom{a.atoms[i].t, c})
			}
			i++
			j++
		}
		if len(out.atoms) > maxSumAtoms {
			return sum{}, false
		}
	}
	return out, true
}

// scaleSum returns f·a in width w.
func scaleSum(a sum, f int64, w int) sum {
	out := sum{c: wrap(a.c*f, w)}
	for _, x := range a.atoms {
		if c := wrap(x.coef*f, w); c != 0 {
			out.atoms = append(out.atoms, sumAtom{x.t, c})
		}
	}
	return out
}

// sumInterval is the interval of e, of integer kind k, from its sum:
// the mathematical range of c + Σ coef·atom over the atoms' intervals,
// where it lies within k's range; top otherwise (it may wrap around).
// A sum that is one atom with coefficient 1 is e itself and says
// nothing new.
func (iv *intervals) sumInterval(e *sym.Expr) ival {
	k := e.Kind()
	if !nestedSum(e) {
		return top(k) // the operands' intervals give as much
	}
	s := iv.sumOf(e)
	if len(s.atoms) == 1 && s.atoms[0].t == e {
		return top(k)
	}
	lo, hi, ok := iv.sumRange(k, s, nil)
	if !ok {
		return top(k)
	}
	return congruent(k, lo, hi)
}

// sumRange is the range of the mathematical values of the sum s of kind
// k over its atoms' intervals, each atom's contribution coef·atom set in
// parts if not nil; false if a bound overflows an int64.
func (iv *intervals) sumRange(k rt.Kind, s sum, parts []ival) (lo, hi int64, ok bool) {
	lo, hi = s.c, s.c
	for i, a := range s.atoms {
		alo, ahi, fine := actual(k, iv.interval(a.t))
		if !fine {
			return 0, 0, false
		}
		plo, ok1 := mulOK(alo, a.coef)
		phi, ok2 := mulOK(ahi, a.coef)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		if plo > phi {
			plo, phi = phi, plo
		}
		if parts != nil {
			parts[i] = ival{plo, phi}
		}
		var ok3, ok4 bool
		lo, ok3 = addOK(lo, plo)
		hi, ok4 = addOK(hi, phi)
		if !ok3 || !ok4 {
			return 0, 0, false
		}
	}
	return lo, hi, true
}

// nestedSum reports whether e, a sum, difference, negation or product,
// has an operand of one of those operations in its kind, or reads one
// operand twice: only then can its sum be more than its operands'
// intervals combined (a term shared, or constants gathered).
func nestedSum(e *sym.Expr) bool {
	if e.NumArgs() == 2 && e.Arg(0) == e.Arg(1) {
		return true
	}
	for a := range e.NumArgs() {
		switch x := e.Arg(a); x.Op() {
		case rt.OpAdd, rt.OpSub, rt.OpNeg, rt.OpMul:
			if x.Kind() == e.Kind() {
				return true
			}
		}
	}
	return false
}

// congruent is the interval of the values of kind k congruent modulo
// 2^width to the integers lo..hi, when those are one range of k's values
// (lo..hi within one period of k's range); top otherwise.
func congruent(k rt.Kind, lo, hi int64) ival {
	w := k.Bits()
	klo, khi := bounds(k)
	switch {
	case k == rt.KUint64 && hi < 0:
		// lo + 2^64 .. hi + 2^64.
		return ival{ordered(k, uint64(lo)), ordered(k, uint64(hi))}
	case w >= 64:
		return fromActual(k, lo, hi, true)
	case lo < -1<<62 || hi > 1<<62:
		return top(k) // far from any period of k's range; and no overflow below
	}
	m := floorDiv(lo-klo, 1<<w) // lo..hi shifted by m periods starts in k's range
	lo, hi = lo-m<<w, hi-m<<w
	if hi > khi {
		return top(k)
	}
	return fromActual(k, lo, hi, true)
}

// backwardSum narrows the atoms of a stated term by its sum, where the
// sum's mathematical range over the atoms' intervals lies within the
// term's kind (the term is then that mathematical value): each atom's
// multiple lies within the term's interval less the other atoms' range.
// So a parser's remaining length n - 1 - (i + 1) == 8, with n <= 10,
// gives n >= 9 and i <= 0. It reports false if an atom is left no value.
func (iv *intervals) backwardSum(t *sym.Expr) bool {
	k := t.Kind()
	switch t.Op() {
	case rt.OpAdd, rt.OpSub, rt.OpNeg, rt.OpMul:
	default:
		return true
	}
	if !k.Integer() || t.NumArgs() == 2 && (t.Arg(0).IsConst() || t.Arg(1).IsConst()) && !nestedSum(t) {
		return true // at most an atom and a constant: backwardArith's
	}
	s := iv.sumOf(t)
	switch {
	case len(s.atoms) == 0 || len(s.atoms) == 1 && s.atoms[0].t == t:
		return true
	case len(s.atoms) == 1 && t.NumArgs() == 2 && (t.Arg(0).IsConst() || t.Arg(1).IsConst()):
		return true // one atom and a constant: backwardArith's, a step at a time
	}
	var buf [maxSumAtoms]ival
	parts := buf[:len(s.atoms)]
	lo, hi, ok := iv.sumRange(k, s, parts)
	if !ok {
		return true
	}
	if !fits(k, lo, hi) {
		return true // may wrap around
	}
	tlo, thi, ok := actual(k, iv.interval(t))
	if !ok {
		return true
	}
	for i, a := range s.atoms {
		// coef·atom = t - (the rest).
		restLo, ok1 := subOK(lo, parts[i].lo)
		restHi, ok2 := subOK(hi, parts[i].hi)
		plo, ok3 := subOK(tlo, restHi)
		phi, ok4 := subOK(thi, restLo)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			continue
		}
		var xlo, xhi int64
		switch {
		case a.coef > 0:
			xlo, xhi = ceilDiv(plo, a.coef), floorDiv(phi, a.coef)
		default:
			xlo, xhi = ceilDiv(phi, a.coef), floorDiv(plo, a.coef)
		}
		if xlo > xhi {
			return false
		}
		xr := iv.interval(a.t)
		r := fromActual(k, xlo, xhi, true)
		if r == top(k) || r.meet(xr) == xr {
			continue
		}
		if !iv.narrow(a.t, r) {
			return false
		}
	}
	return true
}
