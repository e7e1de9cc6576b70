package solver

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the refutation layer's rewriting of the queries it passes
// on (refute.go): if-then-else guards its intervals decide are replaced by
// the branch they take.
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
// rewritten included.

// maxGuardRewrite bounds the terms the rewriting visits per query.
const maxGuardRewrite = 1 << 16

// decideGuards returns q with the if-then-else guards iv decides replaced
// by their branches and whether it decided any (q itself if not).
func decideGuards(c *sym.Context, q Query, iv *intervals) (Query, bool) {
	g := guardRewriter{c: c, iv: iv, memo: map[*sym.Expr]*sym.Expr{}, seen: map[*sym.Expr]bool{}, budget: maxGuardRewrite}
	out := make([]*sym.Expr, len(q.Constraints))
	changed := false
	for i, t := range q.Constraints {
		out[i] = g.rewrite(t)
		changed = changed || out[i] != t
		if g.budget <= 0 {
			return q, false
		}
	}
	if !changed {
		return q, false
	}
	// The decided guards go in rewritten too (rewriting one may decide
	// guards within it, which join the list). That is sound: a guard
	// whose inner decided guards hold has its rewritten value, so, by
	// induction on the nesting, the rewritten guards hold only where the
	// guards themselves do. Those the rewriting reduces to true are left
	// out: their inner guards are in the list.
	var decided []*sym.Expr
	for i := 0; i < len(g.decided); i++ {
		if d := g.rewrite(g.decided[i]); !d.IsTrue() {
			decided = append(decided, d)
		}
		if g.budget <= 0 {
			return q, false
		}
	}
	last := len(out) - 1
	cs := make([]*sym.Expr, 0, len(out)+len(decided))
	cs = append(cs, out[:last]...)
	cs = append(cs, decided...)
	cs = append(cs, out[last])
	q.Constraints = cs
	return q, true
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
	var r *sym.Expr
	if t.Op() == rt.OpIte {
		if v, ok := g.decide(t.Arg(0)); ok {
			if v {
				r = g.rewrite(t.Arg(1))
			} else {
				r = g.rewrite(t.Arg(2))
			}
			g.memo[t] = r
			return r
		}
	}
	args := make([]*sym.Expr, t.NumArgs())
	changed := false
	for i := range args {
		args[i] = g.rewrite(t.Arg(i))
		changed = changed || args[i] != t.Arg(i)
	}
	r = t
	if changed {
		var err error
		if r, err = g.c.Make(t.Op(), t.Kind(), t.K2(), args, t.Bits(), t.Str()); err != nil {
			r = t // cannot happen: the operands keep their kinds
		}
	}
	g.memo[t] = r
	return r
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
