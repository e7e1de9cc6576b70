package solver

import (
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// This file is the refutation layer's other rewriting (refute.go): inputs
// the query states equal become one input.
//
// A hash table's path compares the keys it was given (keys[2] ==
// keys[4]: the second Set found the first's entry), and every later
// constraint still reads both: keys[2] % n == 0 and keys[4] % n == 7
// contradict each other only through the equality, which neither the
// intervals (per term) nor the remainders (per term) see. Such queries
// went to Z3, a few milliseconds each.
//
// A top-level constraint in[a] == in[b] between two inputs holds in every
// solution, so replacing in[b] by in[a] in every other constraint leaves
// the query's solutions unchanged: the equality itself is kept as it is,
// and a solution of the rewritten query satisfies it, hence the original
// constraints too. Classes of inputs equal by a chain of such equalities
// become their lowest-numbered input. Floating-point inputs are left
// alone: 0 == -0 holds between two values that other operations tell
// apart, and NaN is equal to nothing.

// mergeEqualInputs returns q with the inputs its top-level equalities
// make equal replaced by the lowest-numbered of each class, and whether
// that changed q (q itself if not).
func mergeEqualInputs(c *sym.Context, q Query) (Query, bool) {
	class := equalClasses(q)
	if len(class) == 0 {
		return q, false
	}
	defining := map[*sym.Expr]bool{}
	for _, t := range q.Constraints {
		if _, _, ok := equalInputs(q.Leaves, t); ok {
			defining[t] = true
		}
	}
	find := func(i int) int {
		if members := class[i]; len(members) > 0 {
			return members[0]
		}
		return i
	}
	// Every term is built again in c, the untouched ones too: terms are
	// interned per Context, and the intervals and remainders know a term
	// by its pointer, so keys[2] % n must be one term wherever it occurs.
	merged, plain := newRebuilder(c, find), newRebuilder(c, nil)
	out := make([]*sym.Expr, len(q.Constraints))
	for i, t := range q.Constraints {
		// The equalities themselves stay as they are (merged, they would
		// read true, and the last constraint is the negated branch).
		if defining[t] {
			out[i] = plain.term(t)
		} else {
			out[i] = merged.term(t)
		}
	}
	q.Constraints = out
	return q, true
}

// inContext returns q with every term built again in c (see rebuilder).
func inContext(c *sym.Context, q Query) Query {
	b := newRebuilder(c, nil)
	out := make([]*sym.Expr, len(q.Constraints))
	for i, t := range q.Constraints {
		out[i] = b.term(t)
	}
	q.Constraints = out
	return q
}

// A rebuilder builds terms again, bottom up, in the refutation layer's
// context, so that structurally equal terms of one query are one pointer
// whichever context built them: the layer's arguments (intervals,
// relations, remainders) know a term by its pointer, and its rewritings
// build the terms they change in its own context while the others stay
// in the query's. Rebuilding may simplify (sym's constructors do), which
// keeps every term's value.
type rebuilder struct {
	c *sym.Context
	// input, if not nil, renumbers inputs (mergeEqualInputs).
	input func(i int) int
	memo  map[*sym.Expr]*sym.Expr
}

func newRebuilder(c *sym.Context, input func(int) int) *rebuilder {
	return &rebuilder{c: c, input: input, memo: map[*sym.Expr]*sym.Expr{}}
}

func (b *rebuilder) term(t *sym.Expr) *sym.Expr {
	if r, ok := b.memo[t]; ok {
		return r
	}
	args := make([]*sym.Expr, t.NumArgs())
	for i := range args {
		args[i] = b.term(t.Arg(i))
	}
	bits := t.Bits()
	if t.Op() == rt.OpInput && b.input != nil {
		bits = uint64(b.input(t.Input()))
	}
	r, err := b.c.Make(t.Op(), t.Kind(), t.K2(), args, bits, t.Str())
	if err != nil {
		r = t // cannot happen: the operands keep their kinds
	}
	b.memo[t] = r
	return r
}

// equalInputs returns a and b if t is a == b between two distinct
// inputs of a kind whose equality is identity.
func equalInputs(leaves []rt.Leaf, t *sym.Expr) (a, b *sym.Expr, ok bool) {
	if t.Op() != rt.OpEq {
		return nil, nil, false
	}
	a, b = t.Arg(0), t.Arg(1)
	if a.Op() != rt.OpInput || b.Op() != rt.OpInput || a == b || a.Kind() != b.Kind() {
		return nil, nil, false
	}
	for _, e := range [...]*sym.Expr{a, b} {
		if e.Input() >= len(leaves) || leaves[e.Input()].Float {
			return nil, nil, false
		}
	}
	return a, b, true
}

// equalClasses maps each input of a top-level equality between inputs
// (equalInputs) to its class, in increasing order.
func equalClasses(q Query) map[int][]int {
	parent := map[int]int{}
	var find func(i int) int
	find = func(i int) int {
		p, ok := parent[i]
		if !ok || p == i {
			return i
		}
		r := find(p)
		parent[i] = r
		return r
	}
	for _, t := range q.Constraints {
		if a, b, ok := equalInputs(q.Leaves, t); ok {
			ra, rb := find(a.Input()), find(b.Input())
			parent[ra] = ra
			parent[rb] = rb
			if ra != rb {
				parent[max(ra, rb)] = min(ra, rb)
			}
		}
	}
	classes := map[int][]int{}
	for i := range parent {
		r := find(i)
		classes[r] = append(classes[r], i)
	}
	out := map[int][]int{}
	for _, members := range classes {
		slices.Sort(members)
		for _, i := range members {
			out[i] = members
		}
	}
	return out
}

// withoutEqualities returns q without its top-level equalities between
// inputs, when the merging (mergeEqualInputs) left no other constraint
// reading an input of a class but the lowest-numbered: the next layers
// solve for that one, and copies maps each input left out to it. A
// solution of the reduced query with the copies made solves q; every
// solution of q solves the reduced query. So two strings compared whole
// (subj == pattern) are not two strings of bytes related byte by byte
// below. copies is nil when q has no such equality.
func withoutEqualities(q Query) (Query, map[int]int) {
	class := equalClasses(q)
	if len(class) == 0 {
		return q, nil
	}
	copies := map[int]int{}
	for in, members := range class {
		if in != members[0] {
			copies[in] = members[0]
		}
	}
	rest := make([]*sym.Expr, 0, len(q.Constraints))
	for _, t := range q.Constraints {
		if _, _, ok := equalInputs(q.Leaves, t); ok {
			continue
		}
		for _, v := range t.Vars() {
			if _, out := copies[v]; out {
				return q, nil // not merged: the equalities stay
			}
		}
		rest = append(rest, t)
	}
	q.Constraints = rest
	return q, copies
}
