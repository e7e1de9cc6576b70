package solver

import (
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

// maxEqualDepth bounds equalValues' descent.
const maxEqualDepth = 8
