package solver

import (
	"math"
	"math/bits"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file computes the interval of a term from those of its operands
// (forward), the interval arithmetic of the interval part
// (refute_intervals.go), and when two terms are known to be equal.

// interval is an over-approximation of the values of e under what the
// constraints stated, remembered until a narrowing below e.
func (iv *intervals) interval(e *sym.Expr) ival {
	at, ok := iv.index[e]
	if ok && iv.has[at] {
		return iv.known[at]
	}
	if !ok {
		if r, ok := iv.other[e]; ok {
			return r
		}
	}
	r := iv.forward(e)
	if s, ok := iv.stated[e]; ok {
		r = r.meet(s)
	}
	if r.empty() {
		iv.contradiction = true
		r = top(e.Kind()) // for the terms above: the query is refuted anyway
	}
	if ok {
		iv.known[at], iv.has[at] = r, true
		iv.computed++
	} else {
		if iv.other == nil {
			iv.other = map[*sym.Expr]ival{}
		}
		iv.other[e] = r
	}
	return r
}

// forward computes e's interval from its operands'.
func (iv *intervals) forward(e *sym.Expr) ival {
	k := e.Kind()
	switch e.Op() {
	case rt.OpConst:
		if k == rt.KBool {
			return ival{int64(e.Bits()), int64(e.Bits())}
		}
		if !k.Integer() {
			return ival{}
		}
		v := ordered(k, e.Bits())
		return ival{v, v}
	case rt.OpInput:
		if i := e.Input(); i < len(iv.leaves) && iv.leaves[i].IsLen && iv.leaves[i].Max >= 0 {
			return fromActual(k, 0, int64(iv.leaves[i].Max), true)
		}
		return applyInterval(e.Op(), k, e.K2(), nil)
	case rt.OpLen:
		if a := e.Arg(0); a.Op() == rt.OpInput && a.Input() < len(iv.leaves) && iv.leaves[a.Input()].Max >= 0 {
			return fromActual(k, 0, int64(iv.leaves[a.Input()].Max), true)
		}
		return fromActual(k, 0, math.MaxInt64, true)
	case rt.OpAdd:
		if r, ok := iv.shiftedRemainder(e); ok {
			return r
		}
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if k2 := e.K2(); (k2.Integer() || k2 == rt.KBool || k2 == rt.KString) && (sameValue(e.Arg(0), e.Arg(1)) || iv.equalValues(e.Arg(0), e.Arg(1), maxEqualDepth)) {
			return compare(e.Op(), ival{0, 0}, ival{0, 0})
		}
		if !e.K2().Integer() {
			break
		}
		a, b := e.Arg(0), e.Arg(1)
		if (e.Op() == rt.OpEq || e.Op() == rt.OpNe) && b.IsConst() && slices.Contains(iv.neOf[a], ordered(b.Kind(), b.Bits())) {
			// a != b is stated.
			if e.Op() == rt.OpEq {
				return ival{0, 0}
			}
			return ival{1, 1}
		}
		if d, ok := iv.difference(a, b); ok {
			return compare(e.Op(), ival{0, 0}, d) // b is a + d
		}
		switch {
		case iv.belowDivisor(a, b):
			return compare(e.Op(), ival{0, 0}, ival{1, 1}) // a < b
		case iv.belowDivisor(b, a):
			return compare(e.Op(), ival{1, 1}, ival{0, 0})
		}
	case rt.OpIte:
		// Only the branches the condition allows.
		c := iv.interval(e.Arg(0))
		switch {
		case c.lo == 1:
			return iv.interval(e.Arg(1))
		case c.hi == 0:
			return iv.interval(e.Arg(2))
		}
	}
	var buf [3]ival
	args := buf[:0]
	if !hasIntervalRule(e.Op(), k, e.K2()) || e.NumArgs() > len(buf) {
		return applyInterval(rt.OpInvalid, k, e.K2(), nil)
	}
	for i := range e.NumArgs() {
		args = append(args, iv.interval(e.Arg(i)))
	}
	r := applyInterval(e.Op(), k, e.K2(), args)
	switch e.Op() {
	case rt.OpAdd, rt.OpSub, rt.OpNeg, rt.OpMul:
		if k.Integer() {
			// Both over-approximate e's values.
			r = r.meet(iv.sumInterval(e))
		}
	}
	return r
}

// equalValues reports whether a and b take the same value wherever the
// statements hold, written in kinds that keep it: a formatter's digits
// of v and a specification's digits of uint64(v) once v >= 0
// (uint8(v / 100 % 10) and uint8(uint64(v) / 100 % 10)), the strings
// built from them, the top digit v / 10^18 and uint64(v) / 10^18 % 10.
// The rules, each exact for the integers a and b stand for:
//
//   - a conversion that keeps its operand's value (its interval fits the
//     kind) is its operand; x % d with 0 <= x < d (intervals) is x;
//   - conversions to one kind of equal values are equal;
//   - one operation of one kind on equal operands gives equal results;
//   - / and % on equal non-negative operands (a positive divisor) give
//     equal results in any kinds: the result is at most the dividend;
//   - constants of equal values, and strings built from equal bytes.
//
// depth bounds the descent.
func (iv *intervals) equalValues(a, b *sym.Expr, depth int) bool {
	if a == b {
		return true
	}
	if depth == 0 {
		return false
	}
	depth--
	if a.Kind() == rt.KString || b.Kind() == rt.KString {
		if a.Op() != rt.OpFromList || b.Op() != rt.OpFromList || a.NumArgs() != b.NumArgs() {
			return false
		}
		for i := range a.NumArgs() {
			if !iv.equalValues(a.Arg(i), b.Arg(i), depth) {
				return false
			}
		}
		return true
	}
	if !a.Kind().Integer() || !b.Kind().Integer() {
		return false
	}
	if x, ok := iv.valueOf(a); ok {
		return iv.equalValues(x, b, depth)
	}
	if y, ok := iv.valueOf(b); ok {
		return iv.equalValues(a, y, depth)
	}
	if a.IsConst() && b.IsConst() {
		xo, yo := ordered(a.Kind(), a.Bits()), ordered(b.Kind(), b.Bits())
		x, _, ok1 := actual(a.Kind(), ival{xo, xo})
		y, _, ok2 := actual(b.Kind(), ival{yo, yo})
		return ok1 && ok2 && x == y
	}
	if a.Op() != b.Op() || a.NumArgs() != b.NumArgs() || a.NumArgs() == 0 {
		return false
	}
	switch {
	case a.Op() == rt.OpConv && a.Kind() == b.Kind():
		// A conversion is a function of its operand's integer value.
	case a.Kind() == b.Kind() && a.K2() == b.K2():
	case a.Op() == rt.OpQuo || a.Op() == rt.OpRem:
		for _, x := range [4]*sym.Expr{a.Arg(0), a.Arg(1), b.Arg(0), b.Arg(1)} {
			if lo, _, ok := actual(x.Kind(), iv.interval(x)); !ok || lo < 0 {
				return false
			}
		}
		for _, d := range [2]*sym.Expr{a.Arg(1), b.Arg(1)} {
			if lo, _, _ := actual(d.Kind(), iv.interval(d)); lo < 1 {
				return false
			}
		}
	default:
		return false
	}
	for i := range a.NumArgs() {
		if !iv.equalValues(a.Arg(i), b.Arg(i), depth) {
			return false
		}
	}
	return true
}

// valueOf returns the operand a term equals as an integer: the operand
// of a conversion that keeps its values, x of x % d with 0 <= x < d.
func (iv *intervals) valueOf(e *sym.Expr) (*sym.Expr, bool) {
	switch e.Op() {
	case rt.OpConv:
		x := e.Arg(0)
		if !x.Kind().Integer() {
			return nil, false
		}
		lo, hi, ok := actual(x.Kind(), iv.interval(x))
		return x, ok && fits(e.Kind(), lo, hi)
	case rt.OpRem:
		x, d := e.Arg(0), e.Arg(1)
		xlo, xhi, ok1 := actual(x.Kind(), iv.interval(x))
		dlo, _, ok2 := actual(d.Kind(), iv.interval(d))
		return x, ok1 && ok2 && xlo >= 0 && xhi < dlo
	}
	return nil, false
}

// sameValue reports whether a and b are one term, or one operation on
// the same two operands written in the other order (b == a for a == b,
// y > x for x < y, y + x for x + y on integers): a property that compares
// a result with a specification's, got := match(p, s); want := p == s,
// often writes them so.
func sameValue(a, b *sym.Expr) bool {
	if a == b {
		return true
	}
	op := a.Op()
	if b.Op() != sym.Mirror(op) || a.NumArgs() != 2 || b.NumArgs() != 2 || a.Kind() != b.Kind() || a.K2() != b.K2() {
		return false
	}
	switch op {
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe, rt.OpLAnd, rt.OpLOr:
	case rt.OpAdd, rt.OpMul, rt.OpAnd, rt.OpOr, rt.OpXor:
		if !a.Kind().Integer() {
			return false // a string sum is a concatenation
		}
	default:
		return false
	}
	return a.Arg(0) == b.Arg(1) && a.Arg(1) == b.Arg(0)
}

// hasIntervalRule reports whether applyInterval has a rule for op on
// kinds k and k2 that reads the operands' intervals.
func hasIntervalRule(op rt.Op, k, k2 rt.Kind) bool {
	switch op {
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpAnd, rt.OpAndNot, rt.OpOr, rt.OpXor, rt.OpShl, rt.OpShr, rt.OpNeg, rt.OpNot, rt.OpLAnd, rt.OpLOr:
		return true
	case rt.OpConv:
		return k.Integer() && k2.Integer()
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return k2.Integer()
	case rt.OpIte:
		return k.Integer() || k == rt.KBool
	}
	return false
}

// applyInterval is the interval of op applied to operands whose intervals
// are args, for a term of kind k (k2: the operand kind of comparisons and
// conversions): the whole range of k where the operator may wrap around or
// the layer has no rule for it.
func applyInterval(op rt.Op, k, k2 rt.Kind, args []ival) ival {
	switch op {
	case rt.OpAdd, rt.OpSub, rt.OpMul:
		alo, ahi, ok1 := actual(k, args[0])
		blo, bhi, ok2 := actual(k, args[1])
		if !ok1 || !ok2 {
			break
		}
		switch op {
		case rt.OpAdd:
			lo, o1 := addOK(alo, blo)
			hi, o2 := addOK(ahi, bhi)
			return fromActual(k, lo, hi, o1 && o2)
		case rt.OpSub:
			lo, o1 := subOK(alo, bhi)
			hi, o2 := subOK(ahi, blo)
			return fromActual(k, lo, hi, o1 && o2)
		default:
			lo, hi, ok := int64(math.MaxInt64), int64(math.MinInt64), true
			for _, x := range [2]int64{alo, ahi} {
				for _, y := range [2]int64{blo, bhi} {
					p, o := mulOK(x, y)
					ok = ok && o
					lo, hi = min(lo, p), max(hi, p)
				}
			}
			return fromActual(k, lo, hi, ok)
		}
	case rt.OpQuo:
		// Truncated division is monotone in each operand where the
		// divisor keeps its sign: the extremes are at the corners. A
		// divisor that may be 0 (the encoding defines a / 0) or the one
		// quotient that wraps (MinInt64 / -1) gets no rule.
		alo, ahi, ok1 := actual(k, args[0])
		blo, bhi, ok2 := actual(k, args[1])
		if !ok1 || !ok2 || blo <= 0 && bhi >= 0 || alo == math.MinInt64 && blo <= -1 && bhi >= -1 {
			break
		}
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, x := range [2]int64{alo, ahi} {
			for _, y := range [2]int64{blo, bhi} {
				lo, hi = min(lo, x/y), max(hi, x/y)
			}
		}
		return fromActual(k, lo, hi, true)
	case rt.OpRem:
		alo, ahi, ok1 := actual(k, args[0])
		blo, bhi, ok2 := actual(k, args[1])
		if !ok1 || !ok2 || blo == math.MinInt64 {
			break
		}
		m := max(abs64(blo), abs64(bhi)) - 1 // |a % b| <= |b| - 1
		var r ival
		switch {
		case alo >= 0:
			r = fromActual(k, 0, min(ahi, max(m, 0)), true)
		case ahi <= 0:
			r = fromActual(k, max(alo, -max(m, 0)), 0, true)
		default:
			r = fromActual(k, -max(m, 0), max(m, 0), true)
		}
		if blo <= 0 && bhi >= 0 {
			// The run recorded b != 0, but the encoding gives a % 0 == a:
			// stay sound for it too.
			a := fromActual(k, alo, ahi, true)
			r = ival{min(r.lo, a.lo), max(r.hi, a.hi)}
		}
		return r
	case rt.OpAnd:
		alo, ahi, ok1 := actual(k, args[0])
		blo, bhi, ok2 := actual(k, args[1])
		aNonNeg, bNonNeg := ok1 && alo >= 0, ok2 && blo >= 0
		switch {
		case aNonNeg && bNonNeg:
			return fromActual(k, 0, min(ahi, bhi), true)
		case aNonNeg:
			return fromActual(k, 0, ahi, true)
		case bNonNeg:
			return fromActual(k, 0, bhi, true)
		}
	case rt.OpAndNot:
		// Clearing bits of a non-negative operand keeps it between 0
		// and itself.
		if alo, ahi, ok := actual(k, args[0]); ok && alo >= 0 {
			return fromActual(k, 0, ahi, true)
		}
	case rt.OpOr, rt.OpXor:
		// Of non-negative operands: at least the larger operand's least
		// (or: its bits stay set; xor: 0), below the power of two above
		// both.
		alo, ahi, ok1 := actual(k, args[0])
		blo, bhi, ok2 := actual(k, args[1])
		if !ok1 || !ok2 || alo < 0 || blo < 0 {
			break
		}
		hi := int64(1)<<bits.Len64(uint64(max(ahi, bhi))) - 1
		if op == rt.OpOr {
			if alo == ahi && blo == bhi {
				return fromActual(k, alo|blo, alo|blo, true)
			}
			return fromActual(k, max(alo, blo), hi, true)
		}
		if blo == bhi {
			alo, ahi, blo, bhi = blo, bhi, alo, ahi // a constant first
		}
		if alo == ahi {
			// With one value: the bits above those that vary in the
			// other operand's interval are that value's flipped.
			low := int64(1)<<bits.Len64(uint64(blo^bhi)) - 1
			v := blo ^ alo
			return fromActual(k, v&^low, v|low, true)
		}
		return fromActual(k, 0, hi, true)
	case rt.OpShl, rt.OpShr:
		// Of a non-negative operand by one count below the width: no
		// bit is lost (<<) when the largest value shifted fits the kind.
		alo, ahi, ok := actual(k, args[0])
		n, nhi, ok2 := actual(k2, args[1]) // the count, of kind k2
		if !ok || !ok2 || alo < 0 || n != nhi || n < 0 || n >= int64(k.Bits()) {
			break
		}
		if op == rt.OpShr {
			return fromActual(k, alo>>n, ahi>>n, true)
		}
		if ahi > math.MaxInt64>>n {
			break
		}
		return fromActual(k, alo<<n, ahi<<n, true)
	case rt.OpNeg:
		alo, ahi, ok := actual(k, args[0])
		if ok && alo != math.MinInt64 {
			return fromActual(k, -ahi, -alo, true)
		}
	case rt.OpConv:
		if k2.Integer() && k.Integer() {
			lo, hi, ok := actual(k2, args[0])
			return fromActual(k, lo, hi, ok)
		}
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		if k2.Integer() {
			return compare(op, args[0], args[1])
		}
	case rt.OpNot:
		a := args[0]
		return ival{1 - a.hi, 1 - a.lo}
	case rt.OpLAnd:
		a, b := args[0], args[1]
		return ival{min(a.lo, b.lo), min(a.hi, b.hi)}
	case rt.OpLOr:
		a, b := args[0], args[1]
		return ival{max(a.lo, b.lo), max(a.hi, b.hi)}
	case rt.OpIte:
		c := args[0]
		switch {
		case c.lo == 1:
			return args[1]
		case c.hi == 0:
			return args[2]
		}
		if k.Integer() || k == rt.KBool {
			a, b := args[1], args[2]
			return ival{min(a.lo, b.lo), max(a.hi, b.hi)}
		}
	}
	if k.Integer() || k == rt.KBool {
		return top(k)
	}
	return ival{}
}
