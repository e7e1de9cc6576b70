package solver

import (
	"context"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Neighbors is a decorator that looks for a model next to the seed before
// asking the next solver. A query of a generational search is the path
// the seed took with its last branch negated, so the seed satisfies every
// constraint but the last, and the negated branch is often taken by
// moving one input a little: key % 4 == 0 where the seed had key = 3,
// n > 2 where it had n = 2. The layer tries, for each integer input the
// last constraint reads, values near the seed's and the constants the
// query compares with, in a fixed order (nearest first), changing that
// input alone; the first vector on which every constraint holds by
// evaluation is the answer. Otherwise, and for queries it cannot search
// (the seed missing or not satisfying the others), the next solver
// decides. Its models are checked, so it never answers wrongly; it never
// answers Unsat.
type Neighbors struct {
	next Solver
	m    *Metrics
}

// NewNeighbors returns the layer in front of next.
func NewNeighbors(next Solver, m *Metrics) *Neighbors { return &Neighbors{next: next, m: m} }

// maxMoves bounds the values tried per input.
const maxMoves = 48

// Solve implements Solver.
func (n *Neighbors) Solve(ctx context.Context, q Query) (Result, error) {
	if model, ok := neighbor(q); ok {
		n.m.add(func(st *Stats) { st.NeighborHits++ })
		return Result{Status: Sat, Model: model}, nil
	}
	return n.next.Solve(ctx, q)
}

// neighbor searches the moves of one input of the last constraint.
func neighbor(q Query) ([]rt.Value, bool) {
	if len(q.Constraints) == 0 || len(q.Seed) != len(q.Leaves) {
		return nil, false
	}
	last := q.Constraints[len(q.Constraints)-1]
	var moved []int
	for _, in := range last.Vars() {
		if in >= len(q.Leaves) {
			return nil, false
		}
		if l := q.Leaves[in]; l.K.Integer() && !l.Float {
			moved = append(moved, in)
		}
	}
	if len(moved) == 0 {
		return nil, false
	}
	seed := sym.NewEvaluator(q.Seed)
	consts := constantsOf(q.Constraints)
next:
	for _, in := range moved {
		// The constraints that do not read the input must hold on the
		// seed; the others are checked on each move.
		var reading []*sym.Expr
		for _, c := range q.Constraints {
			if slices.Contains(c.Vars(), in) {
				reading = append(reading, c)
			} else if ok, err := seed.Holds(c); err != nil || !ok {
				continue next
			}
		}
		l := q.Leaves[in]
		model := clone(q.Seed)
		for _, v := range moves(l, q.Seed[in].Bits, consts) {
			model[in] = rt.Value{Bits: v}
			if inDomain(q.Leaves, model) != nil {
				continue
			}
			if holdsAll(sym.NewEvaluator(model), reading) {
				return model, true
			}
		}
	}
	return nil, false
}

// constantsOf lists the integer constants the constraints compare or
// compute with (as signed values; c+1, c-1 and -c wrap harmlessly: they
// are only candidates), in order of first appearance, at most maxMoves.
func constantsOf(cs []*sym.Expr) []int64 {
	var out []int64
	seen := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] || len(out) >= maxMoves {
			return
		}
		seen[e] = true
		if e.IsConst() && e.Kind().Integer() {
			out = append(out, e.Signed())
			return
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	for _, c := range cs {
		walk(c)
	}
	return out
}

// moves lists the values an input of leaf l tries, seed being its
// value: the seed's neighbours by growing steps, then the query's
// constants and their neighbours, then small values; nearest to the seed
// first, each once, at most maxMoves.
func moves(l rt.Leaf, seed uint64, consts []int64) []uint64 {
	s := ordered(l.K, seed)
	lo, hi := bounds(l.K)
	var cands []int64
	add := func(v int64, ok bool) {
		if ok && v >= lo && v <= hi && v != s {
			cands = append(cands, v)
		}
	}
	for _, d := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128, 256, 1024} {
		v, ok := addOK(s, d)
		add(v, ok)
		v, ok = subOK(s, d)
		add(v, ok)
	}
	for _, c := range consts {
		for _, v := range [...]int64{c, c + 1, c - 1, -c} {
			if l.K == rt.KUint64 {
				if v < 0 {
					continue
				}
				v = ordered(l.K, uint64(v))
			}
			add(v, true)
		}
	}
	for v := int64(-8); v <= 8; v++ {
		add(v, true)
	}
	dist := func(v int64) uint64 {
		if v > s {
			return uint64(v) - uint64(s)
		}
		return uint64(s) - uint64(v)
	}
	slices.SortStableFunc(cands, func(a, b int64) int {
		da, db := dist(a), dist(b)
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	cands = slices.Compact(cands)
	if len(cands) > maxMoves {
		cands = cands[:maxMoves]
	}
	out := make([]uint64, len(cands))
	for i, v := range cands {
		out[i] = unordered(l.K, v)
	}
	return out
}
