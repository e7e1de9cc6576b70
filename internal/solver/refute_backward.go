package solver

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file runs what the constraints state of a term backwards to its
// operands (backward), the narrowing half of the interval part
// (refute_intervals.go).

// backward narrows, round after round until nothing changes, the operands
// of stated terms: see backwardArith and backwardLogic. It reports false
// if a term is left no value.
func (iv *intervals) backward() bool {
	for range maxBackwardRounds {
		iv.changed = false
		if !iv.statedSorted {
			slices.SortFunc(iv.statedTerms, func(a, b *sym.Expr) int { return cmp.Compare(a.ID(), b.ID()) }) // a fixed order
			iv.statedSorted = true
		}
		// The terms stated before the round; those the round states wait
		// for the next.
		for _, t := range iv.statedTerms[:len(iv.statedTerms):len(iv.statedTerms)] {
			if !iv.backwardArith(t) || !iv.backwardSum(t) || !iv.backwardConv(t) || !iv.backwardLogic(t) || !iv.backwardBits(t) {
				return false
			}
		}
		if !iv.changed {
			break
		}
	}
	return true
}

// backwardLogic narrows the operands of a stated if-then-else, boolean
// connective or comparison with a constant:
//
//   - ite(c, a, b) whose interval a's (b's) does not meet has c false
//     (true) and equals b (a); with c decided, it equals the branch taken.
//     So the position found by a search that the path compared with a
//     constant, ite(s[0] == '.', 0, ite(s[1] == '.', 1, 2)) == 1, states
//     s[0] != '.' and s[1] == '.'.
//   - a && b true has both true; a || b false has both false; a || b
//     true with a false has b true (a && b false with a true, b false);
//     !a decided decides a.
//   - a comparison of a term with a constant, decided, is stated as a
//     constraint is (assert).
func (iv *intervals) backwardLogic(t *sym.Expr) bool {
	k := t.Kind()
	if !k.Integer() && k != rt.KBool {
		return true
	}
	tr := iv.interval(t)
	switch t.Op() {
	case rt.OpIte:
		c, a, b := t.Arg(0), t.Arg(1), t.Arg(2)
		switch cr := iv.interval(c); {
		case cr.lo == 1:
			return iv.narrow(a, tr)
		case cr.hi == 0:
			return iv.narrow(b, tr)
		}
		if iv.interval(a).meet(tr).empty() {
			return iv.narrow(c, ival{0, 0}) && iv.narrow(b, tr)
		}
		if iv.interval(b).meet(tr).empty() {
			return iv.narrow(c, ival{1, 1}) && iv.narrow(a, tr)
		}
	case rt.OpLAnd, rt.OpLOr:
		// decides is the operand value that decides the connective:
		// false for &&, true for ||.
		decides := int64(0)
		if t.Op() == rt.OpLOr {
			decides = 1
		}
		a, b := t.Arg(0), t.Arg(1)
		switch {
		case tr.lo == 1-decides && tr.hi == 1-decides:
			// Not decided by an operand: both are the other value.
			return iv.narrow(a, ival{1 - decides, 1 - decides}) && iv.narrow(b, ival{1 - decides, 1 - decides})
		case tr.lo == decides && tr.hi == decides:
			// Decided: by b if a cannot decide it, and the converse.
			if ar := iv.interval(a); ar.lo == 1-decides && ar.hi == 1-decides {
				return iv.narrow(b, ival{decides, decides})
			}
			if br := iv.interval(b); br.lo == 1-decides && br.hi == 1-decides {
				return iv.narrow(a, ival{decides, decides})
			}
		}
	case rt.OpNot:
		if tr.lo == tr.hi {
			return iv.narrow(t.Arg(0), ival{1 - tr.lo, 1 - tr.lo})
		}
	default:
		if isComparison(t.Op()) && tr.lo == tr.hi && !iv.asserted[t] {
			iv.asserted[t] = true
			return iv.assert(t, tr.lo == 1)
		}
	}
	return true
}

// backwardArith narrows the operand x of a stated term x + c, x - c,
// c - x or x * c (c a constant) to the values whose image lies in the
// term's interval, where x's interval rules out wrapping around: so that
// n * 3 >= 4 and n * 3 < 8 give 2 <= n <= 2, and the length a parser
// has left, 23 - (int64(msg[13]) + 1), between 2 and 2 gives msg[13] ==
// 20. It reports false if the operand is left no value.
func (iv *intervals) backwardArith(t *sym.Expr) bool {
	op := t.Op()
	if op != rt.OpAdd && op != rt.OpSub && op != rt.OpMul || !t.Kind().Integer() {
		return true
	}
	x, c := t.Arg(0), t.Arg(1)
	negated := false // t is c - x
	if x.IsConst() {
		x, c = c, x
		negated = op == rt.OpSub
	}
	if x.IsConst() || !c.IsConst() {
		return true
	}
	k := t.Kind()
	xr, tr := iv.interval(x), iv.interval(t)
	if iv.forward(t) == top(k) {
		return true // the operation may wrap around on x's interval
	}
	cv, _, ok1 := actual(k, ival{ordered(k, c.Bits()), ordered(k, c.Bits())})
	lo, hi, ok2 := actual(k, tr)
	if !ok1 || !ok2 {
		return true
	}
	var xlo, xhi int64
	var ok bool
	switch {
	case op == rt.OpAdd:
		xlo, ok = subOK(lo, cv)
		var o bool
		xhi, o = subOK(hi, cv)
		ok = ok && o
	case op == rt.OpSub && negated:
		xlo, ok = subOK(cv, hi)
		var o bool
		xhi, o = subOK(cv, lo)
		ok = ok && o
	case op == rt.OpSub:
		xlo, ok = addOK(lo, cv)
		var o bool
		xhi, o = addOK(hi, cv)
		ok = ok && o
	case cv > 0:
		xlo, xhi, ok = ceilDiv(lo, cv), floorDiv(hi, cv), true
	case cv < 0 && cv != math.MinInt64:
		xlo, xhi, ok = ceilDiv(hi, cv), floorDiv(lo, cv), true
	}
	if !ok {
		return true
	}
	if xlo > xhi {
		return false
	}
	r := fromActual(x.Kind(), xlo, xhi, true)
	if r == top(x.Kind()) || r.meet(xr) == xr {
		return true
	}
	return iv.narrow(x, r)
}

// backwardConv narrows the operand x of a stated integer conversion that
// keeps x's values (each value of x's interval is one of the kind
// converted to) to the term's interval: int64(msg[22]) <= 1 and
// int64(msg[22]) > 0 give msg[22] == 1, which decides the guards of a
// selection at msg[22] (refute_guards.go). It reports false if x is left no
// value.
func (iv *intervals) backwardConv(t *sym.Expr) bool {
	if t.Op() != rt.OpConv || !t.Kind().Integer() || !t.K2().Integer() {
		return true
	}
	x := t.Arg(0)
	xr := iv.interval(x)
	xlo, xhi, ok := actual(t.K2(), xr)
	if !ok || !fits(t.Kind(), xlo, xhi) {
		return true
	}
	lo, hi, ok := actual(t.Kind(), iv.interval(t))
	if !ok {
		return true
	}
	lo, hi = max(lo, xlo), min(hi, xhi)
	if lo > hi {
		return false
	}
	if r := fromActual(t.K2(), lo, hi, true); r.meet(xr) != xr {
		return iv.narrow(x, r)
	}
	return true
}

// backwardBits narrows the operands of a stated bit operation on
// non-negative values:
//
//   - a | b is at least each operand, so each is at most its upper end;
//   - a & b is at most each operand, so each is at least its lower end;
//   - a << n (n a constant, no bit lost) has a within its ends shifted
//     back;
//   - a ^ c (c a constant) fixed to v has a == v ^ c;
//   - a >> n (n fixed) has a between its ends shifted back, the bits
//     shifted out any: x >> 8 == 0 puts x below 256, so that uint8(x)
//     keeps x's value (backwardConv);
//   - a &^ b (b non-negative) is a's bits outside b's, so a lies between
//     its lower end and its upper end plus every bit b may have: a
//     formatter's v &^ 7 == 0 puts v in 0..7, whatever v's kind.
//
// A compression pointer's offset below the message length,
// (int64(msg[29]) ^ 192) << 8 | int64(msg[30]) < 64, so fixes msg[29] to
// 192. It reports false if an operand is left no value.
func (iv *intervals) backwardBits(t *sym.Expr) bool {
	op, k := t.Op(), t.Kind()
	if op != rt.OpOr && op != rt.OpAnd && op != rt.OpAndNot && op != rt.OpShl && op != rt.OpShr && op != rt.OpXor || !k.Integer() {
		return true
	}
	lo, hi, ok := actual(k, iv.interval(t))
	if !ok || lo < 0 {
		return true
	}
	a, b := t.Arg(0), t.Arg(1)
	at := func(x *sym.Expr, xlo, xhi int64) bool {
		if !x.Kind().Integer() {
			return true
		}
		xr := iv.interval(x)
		clo, chi, ok := actual(x.Kind(), xr)
		if !ok || clo < 0 {
			return true
		}
		if max(clo, xlo) > min(chi, xhi) {
			return false
		}
		r := fromActual(x.Kind(), max(clo, xlo), min(chi, xhi), true)
		if r.meet(xr) == xr {
			return true
		}
		return iv.narrow(x, r)
	}
	switch op {
	case rt.OpOr:
		return at(a, 0, hi) && at(b, 0, hi)
	case rt.OpAnd:
		return at(a, lo, math.MaxInt64) && at(b, lo, math.MaxInt64)
	case rt.OpAndNot:
		// a is its bits outside b's (lo..hi) plus its bits inside them;
		// a b that is non-negative has its bits below the power of two
		// above its largest value, and leaves a's sign bit in the result.
		blo, bhi, ok := actual(b.Kind(), iv.interval(b))
		if !ok || blo < 0 {
			return true
		}
		mask := int64(1)<<bits.Len64(uint64(bhi)) - 1
		top, ok := addOK(hi, mask)
		if !ok {
			top = math.MaxInt64
		}
		// Unlike | and &, that holds whatever a's interval was: narrow
		// it from its whole range.
		xr := iv.interval(a)
		r := xr.meet(fromActual(k, lo, top, true))
		if r.empty() {
			return false
		}
		if r == xr {
			return true
		}
		return iv.narrow(a, r)
	case rt.OpShl:
		if !b.IsConst() || b.Bits() >= uint64(min(k.Bits(), 63)) || iv.forward(t) == top(k) {
			return true // a bit may be lost
		}
		n := b.Bits()
		return at(a, ceilDiv(lo, 1<<n), hi>>n)
	case rt.OpShr:
		n, nhi, ok := actual(t.K2(), iv.interval(b))
		if !ok || n != nhi || n < 0 || n >= int64(min(k.Bits(), 63)) || lo > math.MaxInt64>>n {
			return true
		}
		// The bits shifted out are any: a is between lo's bits followed by
		// zeros and hi's followed by ones.
		top := int64(math.MaxInt64)
		if hi <= math.MaxInt64>>n {
			top = hi<<n | (1<<n - 1)
		}
		return at(a, lo<<n, top)
	case rt.OpXor:
		if a.IsConst() {
			a, b = b, a
		}
		if !b.IsConst() || lo != hi || a.Kind() != k {
			return true
		}
		c, _, ok := actual(k, ival{ordered(k, b.Bits()), ordered(k, b.Bits())})
		if !ok || c < 0 {
			return true
		}
		return at(a, lo^c, lo^c)
	}
	return true
}
