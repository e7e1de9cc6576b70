package solver

import (
	"context"
	"slices"

	"github.com/dowse-go/dowse/internal/sym"
)

// Independence slices a query into groups of constraints that share no
// input, transitively. Groups the seed already satisfies are dropped (in a
// path query, every group but the negated branch's), and each remaining
// group is sent to the next solver on its own; inputs outside the solved
// groups keep their seed values. It is safe for concurrent use if the next
// solver is.
type Independence struct {
	next    Solver
	metrics *Metrics
}

// NewIndependence returns the independence layer over next; m may be nil.
func NewIndependence(next Solver, m *Metrics) *Independence {
	return &Independence{next: next, metrics: m}
}

// Solve implements Solver.
func (s *Independence) Solve(ctx context.Context, q Query) (Result, error) {
	if err := validate(q); err != nil {
		return Result{}, err
	}
	s.metrics.add(func(st *Stats) { st.Constraints += int64(len(q.Constraints)) })
	var live []*sym.Expr
	for _, c := range q.Constraints {
		switch {
		case c.IsFalse():
			return Result{Status: Unsat, Cached: true}, nil
		case !c.IsTrue():
			live = append(live, c)
		}
	}

	seedEval := sym.NewEvaluator(q.Seed)
	model := clone(q.Seed)
	cached := true
	solved := 0
	for _, group := range partition(live) {
		if holdsAll(seedEval, group) {
			continue
		}
		solved++
		s.metrics.add(func(st *Stats) { st.Groups++; st.Sliced += int64(len(group)) })
		sub := q
		sub.Constraints = group
		r, err := s.next.Solve(ctx, sub)
		if err != nil || r.Status != Sat {
			return r, err
		}
		cached = cached && r.Cached
		for _, v := range varsOf(group) {
			model[v] = r.Model[v]
		}
	}
	if solved == 0 {
		s.metrics.add(func(st *Stats) { st.SeedHits++ })
	}
	return Result{Status: Sat, Model: model, Cached: cached}, nil
}

// holdsAll reports whether every constraint evaluates to true; evaluation
// errors count as false.
func holdsAll(ev *sym.Evaluator, cs []*sym.Expr) bool {
	for i := len(cs) - 1; i >= 0; i-- { // the last constraint fails most often
		if ok, err := ev.Holds(cs[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

// partition splits cs into groups connected by shared inputs, keeping the
// constraints' order inside each group and ordering groups by their first
// constraint. Constraints without inputs form groups of their own.
func partition(cs []*sym.Expr) [][]*sym.Expr {
	parent := map[int]int{}
	var find func(v int) int
	find = func(v int) int {
		p, ok := parent[v]
		if !ok || p == v {
			parent[v] = v
			return v
		}
		r := find(p)
		parent[v] = r
		return r
	}
	for _, c := range cs {
		vs := c.Vars()
		for _, v := range vs[min(1, len(vs)):] {
			a, b := find(vs[0]), find(v)
			if a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	index := map[int]int{} // root variable → group
	var groups [][]*sym.Expr
	for _, c := range cs {
		vs := c.Vars()
		if len(vs) == 0 {
			groups = append(groups, []*sym.Expr{c})
			continue
		}
		root := find(vs[0])
		g, ok := index[root]
		if !ok {
			g = len(groups)
			index[root] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], c)
	}
	return groups
}

// varsOf is the sorted union of the inputs of cs.
func varsOf(cs []*sym.Expr) []int {
	seen := map[int]bool{}
	var out []int
	for _, c := range cs {
		for _, v := range c.Vars() {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}
