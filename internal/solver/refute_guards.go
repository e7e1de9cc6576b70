package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the refutation layer's rewriting of the queries it passes
// on (refute.go): if-then-else guards its intervals decide are replaced by
// the branch they take, and integer terms they fix are replaced by their
// value where they are operands.
//
// A byte read at an offset the input holds is an if-then-else over every
// offset the slice's length allowed when it was read (rt's selections):
// ite(msg[22] == 18, msg[41], ite(msg[22] == 17, msg[40], ...)). The path
// often fixes the offset later (msg[22] > 0 && msg[22] <= 1), but Z3's
// bit-vector preprocessing does not carry those bounds into the guards,
// and every query of the path pays for the whole selection again: on a
// DNS message parser, unsatisfiable queries of a hundred constraints with
// twenty to eighty such guards took 100–250 ms each.
//
// The intervals are a sound over-approximation of the values each term
// takes in every solution of the query. So a guard g whose interval is
// one value v has that value in every solution, and the query is
// equivalent to the query with g's if-then-elses replaced by the branch v
// takes, conjoined with g == v. The conjuncts are added (before the last
// constraint, which stays the negated branch), which keeps the rewriting
// sound whatever the intervals were derived from — the constraint being
// rewritten included. Likewise a term t whose interval is one value v
// becomes v where it is an operand, conjoined with t == v: a label
// length the path fixed (int64(msg[12]) > 6, int64(msg[12]) <= 7)
// becomes 7 in the sums that compute the offsets after it
// (int64(msg[12]) + 14 + int64(msg[20]) becomes 21 + int64(msg[20])). A
// comparison of a term with a constant keeps the term (it is fixed
// because the comparison says so): rewriting it would make the
// comparison true and lose the last constraint, the negated branch.

// maxGuardRewrite bounds the terms the rewriting visits per query.
const maxGuardRewrite = 1 << 16

// decideGuards returns q with the if-then-else guards iv decides replaced
// by their branches and the terms it fixes by their values, and whether
// that changed q (q itself if not).
func decideGuards(c *sym.Context, q Query, iv *intervals) (Query, bool) {
	if len(q.Constraints) == 0 {
		return q, false
	}
	g := guardRewriter{c: c, iv: iv, memo: map[*sym.Expr]*sym.Expr{}, seen: map[*sym.Expr]bool{}, budget: maxGuardRewrite}
	out := make([]*sym.Expr, 0, len(q.Constraints))
	last := len(q.Constraints) - 1
	for i, t := range q.Constraints {
		if r := g.constraint(t); !r.IsTrue() || i == last {
			out = append(out, r)
		}
		if g.budget <= 0 {
			return q, false
		}
	}
	// The decided guards go in rewritten too (rewriting one may decide
	// guards within it, which join the list). That is sound: a guard
	// whose inner decided guards hold has its rewritten value, so, by
	// induction on the nesting, the rewritten guards hold only where the
	// guards themselves do. Those the rewriting reduces to true are left
	// out: their inner guards are in the list. A fixed term goes in as
	// its operands rewritten, equal to its value.
	var decided []*sym.Expr
	for i := 0; i < len(g.decided); i++ {
		d := g.constraint(g.decided[i])
		if !d.IsTrue() {
			decided = append(decided, d)
		}
		if g.budget <= 0 {
			return q, false
		}
	}
	cs := make([]*sym.Expr, 0, len(out)+len(decided))
	cs = append(cs, out[:len(out)-1]...)
	cs = append(cs, decided...)
	cs = append(cs, out[len(out)-1])
	if sameSet(cs, q.Constraints) {
		return q, false
	}
	q.Constraints = cs
	return q, true
}

// sameSet reports whether a and b hold the same terms.
func sameSet(a, b []*sym.Expr) bool {
	return subset(a, b) && subset(b, a)
}

// subset reports whether every term of a is one of b.
func subset(a, b []*sym.Expr) bool {
	in := make(map[*sym.Expr]bool, len(b))
	for _, t := range b {
		in[t] = true
	}
	for _, t := range a {
		if !in[t] {
			return false
		}
	}
	return true
}

// guardRewriter rewrites the terms of one query.
type guardRewriter struct {
	c       *sym.Context
	iv      *intervals
	memo    map[*sym.Expr]*sym.Expr
	seen    map[*sym.Expr]bool // guards already in decided
	decided []*sym.Expr        // the decided guards, as constraints that hold
	budget  int
}

func (g *guardRewriter) rewrite(t *sym.Expr) *sym.Expr {
	if r, ok := g.memo[t]; ok {
		return r
	}
	if g.budget--; g.budget <= 0 || len(t.Vars()) == 0 {
		return t
	}
	r := g.fixed(t)
	if r == nil {
		r = g.unfixed(t)
	}
	g.memo[t] = r
	return r
}

// fixed returns the constant an integer term's interval fixes it to,
// recorded as decided, or nil.
func (g *guardRewriter) fixed(t *sym.Expr) *sym.Expr {
	k := t.Kind()
	if !k.Integer() {
		return nil
	}
	r := g.iv.interval(t)
	if r.lo != r.hi {
		return nil
	}
	v := g.c.Const(k, unordered(k, r.lo))
	g.decided = append(g.decided, g.c.Compare(rt.OpEq, t, v))
	return v
}

// unfixed rewrites t, itself kept: an if-then-else whose guard is
// decided becomes its branch, likewise kept; any other term, its
// operands rewritten.
func (g *guardRewriter) unfixed(t *sym.Expr) *sym.Expr {
	if t.Op() == rt.OpIte {
		if v, ok := g.decide(t.Arg(0)); ok {
			if v {
				return g.unfixed(t.Arg(1))
			}
			return g.unfixed(t.Arg(2))
		}
	}
	args := make([]*sym.Expr, t.NumArgs())
	changed := false
	for i := range args {
		args[i] = g.rewrite(t.Arg(i))
		changed = changed || args[i] != t.Arg(i)
	}
	if !changed {
		return t
	}
	r, err := g.c.Make(t.Op(), t.Kind(), t.K2(), args, t.Bits(), t.Str())
	if err != nil {
		return t // cannot happen: the operands keep their kinds
	}
	return r
}

// constraint rewrites constraint t. A comparison of a term with a
// constant keeps the term (unfixed), with its operands rewritten: the
// term is fixed because the constraint says so, and the constraint would
// otherwise become true (the last one is the negated branch).
func (g *guardRewriter) constraint(t *sym.Expr) *sym.Expr {
	if t.Op() == rt.OpNot {
		r := g.constraint(t.Arg(0))
		if r == t.Arg(0) {
			return t
		}
		return g.c.Not(r)
	}
	if !isComparison(t.Op()) || !t.Arg(0).IsConst() && !t.Arg(1).IsConst() {
		return g.rewrite(t)
	}
	a, b := t.Arg(0), t.Arg(1)
	if a.IsConst() {
		b = g.unfixed(b)
	} else {
		a = g.unfixed(a)
	}
	if a == t.Arg(0) && b == t.Arg(1) {
		return t
	}
	return g.c.Compare(t.Op(), a, b)
}

// decide reports the value the intervals give guard, if they give one,
// and records the guard's value as a constraint.
func (g *guardRewriter) decide(guard *sym.Expr) (value, ok bool) {
	if guard.IsConst() {
		return false, false // the term's own simplification decides it
	}
	r := g.iv.interval(guard)
	if r.lo != r.hi {
		return false, false
	}
	value = r.lo == 1
	if !g.seen[guard] {
		g.seen[guard] = true
		holds := guard
		if !value {
			holds = g.c.Not(guard)
		}
		g.decided = append(g.decided, holds)
	}
	return value, true
}
