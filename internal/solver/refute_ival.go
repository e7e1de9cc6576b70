package solver

import (
	"math"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file holds the intervals of the refutation layer's interval part
// (refute_intervals.go) and their arithmetic, which does not wrap around.

// ival is an interval of a kind's values in the kind's order (see
// ordered): the values lo..hi, empty when lo > hi. Bools are 0..1.
type ival struct{ lo, hi int64 }

func (a ival) empty() bool { return a.lo > a.hi }

func (a ival) meet(b ival) ival { return ival{max(a.lo, b.lo), min(a.hi, b.hi)} }

// top is the interval of every value of kind k.
func top(k rt.Kind) ival {
	if k == rt.KBool {
		return ival{0, 1}
	}
	lo, hi := bounds(k)
	return ival{lo, hi}
}

// actual returns a's values as int64 values of kind k (not its order),
// when they all fit an int64: for uint64, values below 2^63.
func actual(k rt.Kind, a ival) (int64, int64, bool) {
	if k != rt.KUint64 {
		return a.lo, a.hi, true
	}
	if a.hi >= 0 {
		return 0, 0, false
	}
	return int64(uint64(a.lo) ^ 1<<63), int64(uint64(a.hi) ^ 1<<63), true
}

// fromActual is the interval of kind k holding the int64 values lo..hi,
// or top if some of them are not values of k (the operation may wrap).
func fromActual(k rt.Kind, lo, hi int64, ok bool) ival {
	if !ok || lo > hi || !fits(k, lo, hi) {
		return top(k)
	}
	if k == rt.KUint64 {
		return ival{ordered(k, uint64(lo)), ordered(k, uint64(hi))}
	}
	return ival{lo, hi}
}

// fits reports whether the int64 values lo..hi are all values of kind k.
func fits(k rt.Kind, lo, hi int64) bool {
	if k == rt.KUint64 {
		return lo >= 0
	}
	klo, khi := bounds(k)
	return lo >= klo && hi <= khi
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	return s, (a >= 0) != (b >= 0) || (s >= 0) == (a >= 0)
}

func subOK(a, b int64) (int64, bool) {
	if b == math.MinInt64 {
		return 0, false
	}
	return addOK(a, -b)
}

func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
		return 0, false
	}
	return p, true
}

// floorDiv and ceilDiv divide rounding down and up (b != 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) == (b < 0) {
		q++
	}
	return q
}

// compare is the truth interval of a op b.
func compare(op rt.Op, a, b ival) ival {
	if a.empty() || b.empty() {
		return ival{0, 1}
	}
	yes, no := ival{1, 1}, ival{0, 0}
	switch op {
	case rt.OpEq, rt.OpNe:
		var r ival
		switch {
		case a.hi < b.lo || b.hi < a.lo:
			r = no
		case a.lo == a.hi && b.lo == b.hi:
			r = yes
		default:
			r = ival{0, 1}
		}
		if op == rt.OpNe {
			r = ival{1 - r.hi, 1 - r.lo}
		}
		return r
	case rt.OpLt:
		if a.hi < b.lo {
			return yes
		}
		if a.lo >= b.hi {
			return no
		}
	case rt.OpLe:
		if a.hi <= b.lo {
			return yes
		}
		if a.lo > b.hi {
			return no
		}
	case rt.OpGt:
		return compare(rt.OpLt, b, a)
	case rt.OpGe:
		return compare(rt.OpLe, b, a)
	}
	return ival{0, 1}
}

func isComparison(op rt.Op) bool { return sym.Negate(op) != rt.OpInvalid }

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
