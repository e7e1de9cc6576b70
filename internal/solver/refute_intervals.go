package solver

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the interval part of the refutation layer (refute.go): a
// sound over-approximation of the values every integer term of a query
// can take, from the comparisons of terms with constants that the query
// states, from interval arithmetic on the terms' operators, and from
// those statements run backwards to operands (backward). A constraint
// whose truth interval is "false" proves the query unsatisfiable.

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

// intervals computes, for one query, the intervals of its terms.
type intervals struct {
	leaves []rt.Leaf
	stated map[*sym.Expr]ival // what the constraints say of terms, by comparisons with constants
	// statedTerms lists stated's terms, in the order of their IDs when
	// statedSorted is set (backward's fixed order).
	statedTerms  []*sym.Expr
	statedSorted bool
	ne           []excluded            // the disequalities with constants, in the order stated
	neOf         map[*sym.Expr][]int64 // ne by term, for lookups
	// asserted marks the comparisons backward has stated as facts.
	asserted map[*sym.Expr]bool
	changed  bool // set when a statement narrows a term
	// contradiction is set when a term's interval is empty: what the
	// constraints state of it and of its operands leaves it no value.
	contradiction bool

	// The query's terms, numbered (link), with the intervals computed
	// for them and the terms that read each: a narrowing forgets the
	// intervals above the term narrowed, and only those.
	index    map[*sym.Expr]int32 // a term's number
	terms    []*sym.Expr         // the terms, by number
	users    [][]int32           // the terms that have a term as an operand
	known    []ival              // the intervals computed, by number
	has      []bool              // whether known holds one
	computed int                 // the count of has set
	visited  []uint32            // forget's marks, by number
	epoch    uint32              // the current forget's mark
	stack    []int32             // link's and forget's work list
	sums     []sum               // the terms' sums (refute_sums.go), by number
	hasSum   []bool              // whether sums holds one
	// other holds the intervals of terms outside the query's (none
	// expected), all forgotten at each narrowing.
	other map[*sym.Expr]ival
}

// excluded is a statement t != v (v in t's kind's order).
type excluded struct {
	t *sym.Expr
	v int64
}

// intervalsPool keeps released intervals: their maps and slices, grown to
// a query's terms, were most of what the layer allocated.
var intervalsPool = sync.Pool{New: func() any {
	return &intervals{stated: map[*sym.Expr]ival{}, neOf: map[*sym.Expr][]int64{}, asserted: map[*sym.Expr]bool{}, index: map[*sym.Expr]int32{}}
}}

// newIntervals returns empty intervals for the query over leaves whose
// constraints are roots, from the pool when it has some.
func newIntervals(leaves []rt.Leaf, roots []*sym.Expr) *intervals {
	iv := intervalsPool.Get().(*intervals)
	iv.leaves = leaves
	iv.link(roots)
	return iv
}

// release empties iv and gives it back to the pool; iv must not be used
// after.
func (iv *intervals) release() {
	clear(iv.stated)
	clear(iv.neOf)
	clear(iv.asserted)
	clear(iv.ne)
	clear(iv.index)
	clear(iv.terms)
	clear(iv.other)
	clear(iv.statedTerms)
	*iv = intervals{stated: iv.stated, statedTerms: iv.statedTerms[:0], neOf: iv.neOf, asserted: iv.asserted, ne: iv.ne[:0], index: iv.index,
		terms: iv.terms[:0], users: iv.users[:0], known: iv.known[:0], has: iv.has[:0], visited: iv.visited[:0], stack: iv.stack[:0], other: iv.other,
		sums: iv.sums[:0], hasSum: iv.hasSum[:0]}
	intervalsPool.Put(iv)
}

// link numbers the terms of roots and records their users.
func (iv *intervals) link(roots []*sym.Expr) {
	place := func(e *sym.Expr) (int32, bool) {
		if i, ok := iv.index[e]; ok {
			return i, false
		}
		i := int32(len(iv.terms))
		iv.index[e] = i
		iv.terms = append(iv.terms, e)
		if int(i) < cap(iv.users) {
			iv.users = iv.users[:i+1]
			iv.users[i] = iv.users[i][:0] // a released query's
		} else {
			iv.users = append(iv.users, nil)
		}
		return i, true
	}
	stack := iv.stack[:0]
	for _, c := range roots {
		if i, fresh := place(c); fresh {
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e := iv.terms[t]
		for a := range e.NumArgs() {
			i, fresh := place(e.Arg(a))
			iv.users[i] = append(iv.users[i], t)
			if fresh {
				stack = append(stack, i)
			}
		}
	}
	iv.stack = stack
	n := len(iv.terms)
	iv.known = slices.Grow(iv.known[:0], n)[:n]
	iv.has = slices.Grow(iv.has[:0], n)[:n]
	iv.visited = slices.Grow(iv.visited[:0], n)[:n]
	iv.sums = slices.Grow(iv.sums[:0], n)[:n]
	iv.hasSum = slices.Grow(iv.hasSum[:0], n)[:n]
	clear(iv.has)
	clear(iv.visited)
	clear(iv.sums)
	clear(iv.hasSum)
	iv.computed, iv.epoch = 0, 0
}

// forget drops the intervals computed from e's: e's and those of every
// term above e in the query. The others stay: a narrowing deep in one
// constraint leaves the other constraints' intervals as they were.
func (iv *intervals) forget(e *sym.Expr) {
	if len(iv.other) > 0 {
		clear(iv.other)
	}
	if iv.computed == 0 {
		return
	}
	at, ok := iv.index[e]
	if !ok {
		clear(iv.has) // not a term of the query's: forget everything
		iv.computed = 0
		return
	}
	iv.epoch++
	if iv.epoch == 0 { // wrapped around: old marks would count
		clear(iv.visited)
		iv.epoch = 1
	}
	iv.visited[at] = iv.epoch
	stack := append(iv.stack[:0], at)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if iv.has[t] {
			iv.has[t] = false
			iv.computed--
		}
		for _, u := range iv.users[t] {
			if iv.visited[u] != iv.epoch {
				iv.visited[u] = iv.epoch
				stack = append(stack, u)
			}
		}
	}
	iv.stack = stack
}

// state records what constraint c (taken as true) says of a term compared
// with a constant, and reports false if that leaves the term no value.
func (iv *intervals) state(c *sym.Expr) bool {
	holds := true
	for c.Op() == rt.OpNot {
		c, holds = c.Arg(0), !holds
	}
	return iv.assert(c, holds)
}

// assert records what c, a term that is not a negation, being holds says
// of a term compared with a constant.
func (iv *intervals) assert(c *sym.Expr, holds bool) bool {
	if c.Kind() == rt.KBool && c.Op() != rt.OpConst && len(c.Vars()) > 0 && !isComparison(c.Op()) {
		// A bool term taken as true or false.
		b := int64(0)
		if holds {
			b = 1
		}
		return iv.narrow(c, ival{b, b})
	}
	if !isComparison(c.Op()) || !c.K2().Integer() {
		return true
	}
	op, x, y := c.Op(), c.Arg(0), c.Arg(1)
	if x.IsConst() && !y.IsConst() {
		op, x, y = sym.Mirror(op), y, x
	}
	if x.IsConst() || !y.IsConst() {
		return true
	}
	if !holds {
		op = sym.Negate(op)
	}
	k := c.K2()
	v := ordered(k, y.Bits())
	lo, hi := bounds(k)
	var r ival
	switch op {
	case rt.OpEq:
		r = ival{v, v}
	case rt.OpNe:
		if !slices.Contains(iv.neOf[x], v) {
			iv.ne = append(iv.ne, excluded{x, v}) // applied by finish, on x's whole interval
			iv.neOf[x] = append(iv.neOf[x], v)
			iv.changed = true
			iv.forget(x) // comparisons of x with v are decided now
		}
		return true
	case rt.OpLt:
		if v == lo {
			return false
		}
		r = ival{lo, v - 1}
	case rt.OpLe:
		r = ival{lo, v}
	case rt.OpGt:
		if v == hi {
			return false
		}
		r = ival{v + 1, hi}
	case rt.OpGe:
		r = ival{v, hi}
	}
	return iv.narrow(x, r)
}

// narrow meets what is stated of e with r.
func (iv *intervals) narrow(e *sym.Expr, r ival) bool {
	s, ok := iv.stated[e]
	if !ok {
		s = top(e.Kind())
	}
	n := s.meet(r)
	if ok && n == s {
		return !s.empty()
	}
	iv.stated[e] = n
	if !ok {
		iv.statedTerms = append(iv.statedTerms, e)
		iv.statedSorted = false
	}
	iv.changed = true
	iv.forget(e) // the terms above e may narrow too
	return !n.empty()
}

// finish applies the disequalities, once every other statement is made:
// a disequality with an end of a term's interval narrows it. It reports
// false if a term is left no value.
func (iv *intervals) finish() bool {
	for range 2 {
		if !iv.backward() {
			return false
		}
	}
	for _, x := range iv.ne {
		r := iv.interval(x.t)
		switch {
		case r.empty():
			return false
		case r.lo == x.v && r.hi == x.v:
			return false
		case r.lo == x.v:
			r.lo++
		case r.hi == x.v:
			r.hi--
		default:
			continue
		}
		if !iv.narrow(x.t, r) {
			return false
		}
	}
	return true
}

// maxBackwardRounds bounds the rounds of backward narrowing per query (a
// chain of n if-then-elses needs n).
const maxBackwardRounds = 32

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

// maxEqualDepth bounds equalValues' descent.
const maxEqualDepth = 8

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
