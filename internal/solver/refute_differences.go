package solver

import (
	"math"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file finds the differences between terms that the interval part
// (refute_intervals.go) compares: b == a + d, spreads and offsets of
// sums, remainders against their divisors.

// difference finds the values d takes where b == a + d in values (so
// that a op b is 0 op d): b is a + d or a is b - d, through conversions
// that keep the values, where the sum does not wrap around, and d a
// constant or a term with an interval. strings.Split compares a count
// with the count plus one; a DNS name's next label starts past the
// current one by one plus the length byte read there, off + 1 + int64(n),
// which is never below off + 1.
func (iv *intervals) difference(a, b *sym.Expr) (ival, bool) {
	a, b = iv.unconverted(a), iv.unconverted(b)
	if a == b {
		return ival{0, 0}, true
	}
	if d, ok := iv.spread(a, b); ok {
		return d, true
	}
	if d, ok := iv.spread(b, a); ok && d.lo != math.MinInt64 {
		return ival{-d.hi, -d.lo}, true
	}
	return ival{}, false
}

// spread finds the values d takes where y is x + d (or x - (-d)), d a
// constant or a term with an interval, y not wrapping around on the
// operands' intervals. The values are actual ones, not in y's kind's
// order.
func (iv *intervals) spread(x, y *sym.Expr) (ival, bool) {
	op := y.Op()
	if op != rt.OpAdd && op != rt.OpSub || !y.Kind().Integer() {
		return ival{}, false
	}
	var e *sym.Expr // the term added
	switch {
	case iv.unconverted(y.Arg(0)) == x:
		e = y.Arg(1)
	case op == rt.OpAdd && iv.unconverted(y.Arg(1)) == x:
		e = y.Arg(0)
	default:
		return ival{}, false
	}
	k := y.Kind()
	if iv.forward(y) == top(k) {
		return ival{}, false // may wrap around
	}
	lo, hi, ok := actual(k, iv.interval(e))
	if !ok {
		return ival{}, false
	}
	if op == rt.OpSub {
		if lo == math.MinInt64 {
			return ival{}, false
		}
		lo, hi = -hi, -lo
	}
	return ival{lo, hi}, true
}

// offset finds d such that y is x + d (or x - (-d)) with a constant d and
// no wrapping around on x's interval.
func (iv *intervals) offset(x, y *sym.Expr) (int64, bool) {
	if y.Op() != rt.OpAdd && y.Op() != rt.OpSub || iv.unconverted(y.Arg(0)) != x || !y.Arg(1).IsConst() || !y.Kind().Integer() {
		return 0, false
	}
	if iv.forward(y) == top(y.Kind()) {
		return 0, false // may wrap around
	}
	k := y.Kind()
	c := y.Arg(1)
	d, _, ok := actual(k, ival{ordered(k, c.Bits()), ordered(k, c.Bits())})
	if !ok {
		return 0, false
	}
	if y.Op() == rt.OpSub {
		if d == math.MinInt64 {
			return 0, false
		}
		d = -d
	}
	return d, true
}

// belowDivisor reports whether x < d follows from what remainders are: x
// is t % d with t % d >= 0, or t % d + d with t % d < 0, and d > 0 (a
// remainder is smaller than its divisor in magnitude, and has the sign of
// the dividend). Both sides may be converted to a kind that holds their
// values (uint64(key % n) < uint64(n), the bounds check of a bucket
// index).
func (iv *intervals) belowDivisor(x, d *sym.Expr) bool {
	x, d = iv.unconverted(x), iv.unconverted(d)
	if lo, _, ok := actual(d.Kind(), iv.interval(d)); !ok || lo < 1 {
		return false
	}
	sign := func(r *sym.Expr) (nonNeg, neg bool) {
		lo, hi, ok := actual(r.Kind(), iv.interval(r))
		return !r.Kind().Signed() || ok && lo >= 0, ok && hi < 0
	}
	switch x.Op() {
	case rt.OpRem:
		nonNeg, _ := sign(x)
		return x.Arg(1) == d && nonNeg
	case rt.OpAdd:
		r, e := x.Arg(0), x.Arg(1)
		if r.Op() != rt.OpRem {
			r, e = e, r
		}
		if e != d || r.Op() != rt.OpRem || r.Arg(1) != d {
			return false
		}
		_, neg := sign(r)
		return neg
	}
	return false
}

// shiftedRemainder is the interval of t % d + d when t % d < 0 and
// d > 0, the usual way of making a remainder a non-negative index: it is
// between 1 and d - 1, whatever d's interval.
func (iv *intervals) shiftedRemainder(e *sym.Expr) (ival, bool) {
	r, d := e.Arg(0), e.Arg(1)
	if r.Op() != rt.OpRem {
		r, d = d, r
	}
	if r.Op() != rt.OpRem || r.Arg(1) != d || !d.Kind().Signed() {
		return ival{}, false
	}
	if iv.interval(r).hi >= 0 {
		return ival{}, false
	}
	dr := iv.interval(d)
	if dr.lo < 1 {
		return ival{}, false
	}
	return ival{1, dr.hi - 1}, true
}

// unconverted strips from e the conversions that keep its value: those
// whose operand's interval holds values of the kind converted to only.
func (iv *intervals) unconverted(e *sym.Expr) *sym.Expr {
	for e.Op() == rt.OpConv && e.K2().Integer() && e.Kind().Integer() {
		lo, hi, ok := actual(e.K2(), iv.interval(e.Arg(0)))
		if !ok || !fits(e.Kind(), lo, hi) {
			return e
		}
		e = e.Arg(0)
	}
	return e
}
