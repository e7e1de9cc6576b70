package solver

import (
	"context"
	"math"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Order is a decorator that decides, without Z3, the queries whose
// constraints are all comparisons (==, !=, <, <=, >, >=) between integer
// inputs and constants: the path conditions of code that sorts, searches
// and compares. Such a conjunction, without its disequalities, is a system
// of difference constraints; Bellman-Ford either finds a negative cycle,
// which proves the query unsatisfiable, or a solution. A disequality the
// solution violates splits the system in two (x < y, x > y), each solved
// the same way, a bounded number of times: both halves unsatisfiable
// proves the query is. A solution is returned only after every constraint
// (disequalities included) has been checked on it by evaluation;
// otherwise, and for every other query, the next solver decides. So the layer never changes an answer, it only makes
// some cheaper.
type Order struct {
	next Solver
	m    *Metrics
}

// NewOrder returns the layer in front of next.
func NewOrder(next Solver, m *Metrics) *Order { return &Order{next: next, m: m} }

// atom is one comparison x op y of the fragment; a node is an input index,
// or -1 for a constant c.
type atom struct {
	op   rt.Op
	x, y int
	cx   int64 // ordered value of x when x == -1
	cy   int64
}

// ordered maps the bits of a value of kind k to an int64 whose order is
// the kind's order (unsigned 64-bit values are shifted by 2^63).
func ordered(k rt.Kind, bits uint64) int64 {
	switch {
	case k == rt.KUint64:
		return int64(bits ^ 1<<63)
	case k.Signed():
		w := uint(k.Bits())
		return int64(bits<<(64-w)) >> (64 - w)
	}
	return int64(bits & (1<<uint(k.Bits()) - 1))
}

// unordered is the inverse of ordered.
func unordered(k rt.Kind, v int64) uint64 {
	if k == rt.KUint64 {
		return uint64(v) ^ 1<<63
	}
	w := uint(k.Bits())
	if w == 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<w - 1)
}

// bounds is the range of ordered values of kind k.
func bounds(k rt.Kind) (int64, int64) {
	w := uint(k.Bits())
	switch {
	case k == rt.KUint64 || k == rt.KInt64:
		return math.MinInt64, math.MaxInt64
	case k.Signed():
		return -1 << (w - 1), 1<<(w-1) - 1
	}
	return 0, 1<<w - 1
}

// edge is the difference constraint v[to] - v[from] <= w; node n is the
// zero node.
type edge struct {
	from, to int
	w        int64
}

// Solve implements Solver.
func (o *Order) Solve(ctx context.Context, q Query) (Result, error) {
	if hasFloat(q) {
		return o.next.Solve(ctx, q) // no order over floats (core_float.go)
	}
	if r, ok := o.decide(q); ok {
		o.m.add(func(st *Stats) { st.OrderHits++ })
		return r, nil
	}
	return o.next.Solve(ctx, q)
}

func (o *Order) decide(q Query) (Result, bool) {
	if len(q.Constraints) == 0 {
		return Result{}, false
	}
	nodeOf := map[int]int{} // input index -> node
	var inputs []int
	var atoms []atom
	kindOf := map[int]rt.Kind{}
	side := func(e *sym.Expr, k rt.Kind) (int, int64, bool) {
		switch e.Op() {
		case rt.OpInput:
			if e.Kind() != k {
				return 0, 0, false
			}
			if _, ok := nodeOf[e.Input()]; !ok {
				nodeOf[e.Input()] = len(inputs)
				inputs = append(inputs, e.Input())
				kindOf[e.Input()] = k
			}
			return nodeOf[e.Input()], 0, true
		case rt.OpConst:
			return -1, ordered(k, e.Bits()), true
		}
		return 0, 0, false
	}
	for _, c := range q.Constraints {
		switch c.Op() {
		case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		default:
			return Result{}, false
		}
		k := c.K2()
		if !k.Integer() || c.NumArgs() != 2 {
			return Result{}, false
		}
		x, cx, ok1 := side(c.Arg(0), k)
		y, cy, ok2 := side(c.Arg(1), k)
		if !ok1 || !ok2 {
			return Result{}, false
		}
		atoms = append(atoms, atom{op: c.Op(), x: x, y: y, cx: cx, cy: cy})
	}
	n := len(inputs)
	zero := n
	// edgeOf is a - b <= w for nodes (or constants) a and b.
	edgeOf := func(a int, ca int64, b int, cb int64, w int64) (edge, bool) {
		overflow := false
		// Move constants into the weight, with the zero node.
		if a < 0 {
			// ca - b <= w  =>  zero - b <= w - ca
			w, overflow = subOverflow(w, ca, overflow)
			a = zero
		}
		if b < 0 {
			// a - cb <= w  =>  a - zero <= w + cb
			w, overflow = addOverflow(w, cb, overflow)
			b = zero
		}
		return edge{from: b, to: a, w: w}, !overflow
	}
	var edges []edge
	add := func(e edge, ok bool) bool {
		edges = append(edges, e)
		return ok
	}
	var diseqs []atom
	for _, a := range atoms {
		ok := true
		switch a.op {
		case rt.OpLt: // x - y <= -1
			ok = add(edgeOf(a.x, a.cx, a.y, a.cy, -1))
		case rt.OpLe:
			ok = add(edgeOf(a.x, a.cx, a.y, a.cy, 0))
		case rt.OpGt: // y - x <= -1
			ok = add(edgeOf(a.y, a.cy, a.x, a.cx, -1))
		case rt.OpGe:
			ok = add(edgeOf(a.y, a.cy, a.x, a.cx, 0))
		case rt.OpEq:
			ok = add(edgeOf(a.x, a.cx, a.y, a.cy, 0)) && add(edgeOf(a.y, a.cy, a.x, a.cx, 0))
		case rt.OpNe:
			diseqs = append(diseqs, a) // split below
		}
		if !ok {
			return Result{}, false
		}
	}
	// The domains of the inputs.
	for i, in := range inputs {
		lo, hi := bounds(kindOf[in])
		if l := q.Leaves[in]; l.IsLen {
			lo, hi = max(lo, 0), min(hi, int64(l.Max))
		}
		if hi != math.MaxInt64 {
			edges = append(edges, edge{from: zero, to: i, w: hi})
		}
		if lo != math.MinInt64 {
			edges = append(edges, edge{from: i, to: zero, w: -lo})
		}
	}
	// Without disequalities a negative cycle proves the comparisons
	// contradictory.
	if _, cycle, ok := bellmanFord(edges, n+1); !ok {
		return Result{}, false
	} else if cycle {
		return Result{Status: Unsat}, true
	}
	// Prefer a solution close to the seed: repair the seed's values one
	// violated comparison at a time.
	if m, ok := repair(q, atoms, inputs, kindOf); ok {
		return Result{Status: Sat, Model: m}, true
	}
	// Otherwise a solution of the difference constraints; a disequality
	// x != y that it violates splits the search into x < y and x > y (the
	// only ways to meet it), each solved again, within maxOrderSplits
	// solutions. Both branches unsatisfiable proves the query is.
	value := func(dist []int64, x int, c int64) (int64, bool) {
		if x < 0 {
			return c, true
		}
		v, overflow := subOverflow(dist[x], dist[zero], false)
		return v, !overflow
	}
	runs := 0
	var search func(edges []edge) ([]int64, Status, bool)
	search = func(edges []edge) ([]int64, Status, bool) {
		if runs >= maxOrderSplits {
			return nil, Unknown, false
		}
		runs++
		dist, cycle, ok := bellmanFord(edges, n+1)
		if !ok {
			return nil, Unknown, false
		}
		if cycle {
			return nil, Unsat, true
		}
		for _, a := range diseqs {
			x, okx := value(dist, a.x, a.cx)
			y, oky := value(dist, a.y, a.cy)
			if okx && oky && x == y {
				unknown := false
				for _, strict := range [2][4]int64{{int64(a.x), a.cx, int64(a.y), a.cy}, {int64(a.y), a.cy, int64(a.x), a.cx}} {
					e, ok := edgeOf(int(strict[0]), strict[1], int(strict[2]), strict[3], -1)
					if !ok {
						return nil, Unknown, false
					}
					d, st, ok := search(append(edges[:len(edges):len(edges)], e))
					switch {
					case st == Sat:
						return d, Sat, true
					case !ok:
						unknown = true
					}
				}
				if unknown {
					return nil, Unknown, false
				}
				return nil, Unsat, true
			}
		}
		return dist, Sat, true
	}
	dist, st, ok := search(edges)
	switch {
	case !ok:
		return Result{}, false
	case st == Unsat:
		return Result{Status: Unsat}, true
	}
	// The solution v = dist - dist[zero], checked by evaluation.
	model := clone(q.Seed)
	for i, in := range inputs {
		v, of := subOverflow(dist[i], dist[zero], false)
		if of {
			return Result{}, false
		}
		model[in] = rt.Value{Bits: unordered(kindOf[in], v)}
	}
	ev := sym.NewEvaluator(model)
	for _, c := range q.Constraints {
		ok, err := ev.Holds(c)
		if err != nil || !ok {
			return Result{}, false
		}
	}
	return Result{Status: Sat, Model: model}, true
}

// maxOrderSplits bounds the difference-constraint solutions the order
// layer computes for one query while it splits disequalities.
const maxOrderSplits = 64

// bellmanFord computes the shortest distances from a virtual source (at
// distance 0 to every node) over nodes 0..nodes-1; cycle reports a
// negative cycle, ok false an overflow.
func bellmanFord(edges []edge, nodes int) (dist []int64, cycle, ok bool) {
	dist = make([]int64, nodes)
	for round := 0; ; round++ {
		changed := false
		for _, e := range edges {
			d, of := addOverflow(dist[e.from], e.w, false)
			if of {
				return nil, false, false
			}
			if d < dist[e.to] {
				dist[e.to] = d
				changed = true
			}
		}
		if !changed {
			return dist, false, true
		}
		if round > nodes {
			return nil, true, true
		}
	}
}

func addOverflow(a, b int64, of bool) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return s, true
	}
	return s, of
}

func subOverflow(a, b int64, of bool) (int64, bool) {
	if b == math.MinInt64 {
		return 0, true
	}
	return addOverflow(a, -b, of)
}

// repair starts from the seed and fixes violated comparisons by moving one
// side as little as possible, for a bounded number of rounds; it reports
// a model only if every constraint holds on it.
func repair(q Query, atoms []atom, inputs []int, kindOf map[int]rt.Kind) ([]rt.Value, bool) {
	n := len(inputs)
	v := make([]int64, n)
	lo := make([]int64, n)
	hi := make([]int64, n)
	for i, in := range inputs {
		k := kindOf[in]
		lo[i], hi[i] = bounds(k)
		if l := q.Leaves[in]; l.IsLen {
			lo[i], hi[i] = max(lo[i], 0), min(hi[i], int64(l.Max))
		}
		v[i] = min(max(ordered(k, q.Seed[in].Bits), lo[i]), hi[i])
	}
	val := func(x int, c int64) int64 {
		if x < 0 {
			return c
		}
		return v[x]
	}
	// set moves node x to w if w is in its domain.
	set := func(x int, w int64) bool {
		if x < 0 || w < lo[x] || w > hi[x] {
			return false
		}
		v[x] = w
		return true
	}
	holds := func(a atom) bool {
		return sym.Compare(a.op, val(a.x, a.cx), val(a.y, a.cy))
	}
	// fix makes x op y hold by moving y, else x.
	fix := func(a atom) {
		x, y := val(a.x, a.cx), val(a.y, a.cy)
		switch a.op {
		case rt.OpEq:
			_ = set(a.y, x) || set(a.x, y)
		case rt.OpNe:
			_ = (y < math.MaxInt64 && set(a.y, y+1)) || (x < math.MaxInt64 && set(a.x, x+1)) ||
				(y > math.MinInt64 && set(a.y, y-1)) || (x > math.MinInt64 && set(a.x, x-1))
		case rt.OpLt:
			_ = (x < math.MaxInt64 && set(a.y, x+1)) || (y > math.MinInt64 && set(a.x, y-1))
		case rt.OpLe:
			_ = set(a.y, x) || set(a.x, y)
		case rt.OpGt:
			_ = (y < math.MaxInt64 && set(a.x, y+1)) || (x > math.MinInt64 && set(a.y, x-1))
		case rt.OpGe:
			_ = set(a.x, y) || set(a.y, x)
		}
	}
	for round := 0; round < 4*len(atoms)+8; round++ {
		clean := true
		for _, a := range atoms {
			if !holds(a) {
				clean = false
				fix(a)
			}
		}
		if clean {
			break
		}
	}
	model := clone(q.Seed)
	for i, in := range inputs {
		model[in] = rt.Value{Bits: unordered(kindOf[in], v[i])}
	}
	ev := sym.NewEvaluator(model)
	for _, c := range q.Constraints {
		if ok, err := ev.Holds(c); err != nil || !ok {
			return nil, false
		}
	}
	return model, true
}
