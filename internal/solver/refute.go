package solver

import (
	"context"
	"math"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Refute is a decorator that proves, without Z3, that a query is
// unsatisfiable when a cheap argument shows it, and passes every other
// query to the next solver, so it never changes an answer.
//
// A generational search asks mostly unsatisfiable queries on code that
// indexes with computed values: a hash table's exploration negates, run
// after run, bucket choices the path has already fixed (key % n == 0 after
// key % n == 3) and bounds checks that cannot fail
// (uint64(key % n) >= uint64(n) where 0 <= key % n and n <= 4). Nine in ten
// of its queries are such, and each cost Z3 a millisecond or more. Five
// arguments, each about a subset of the constraints (a subset that is
// unsatisfiable makes the query so):
//
//   - Intervals (refute_intervals.go): comparisons of terms with constants bound
//     the terms; interval arithmetic carries the bounds up through +, -, *,
//     %, &, conversions and comparisons, giving up (the whole range of the
//     kind) wherever an operation may wrap around; statements also run
//     backwards, through if-then-else, connectives, decided comparisons
//     and sums or products with constants; a term of sums and
//     differences is also read as a linear sum of its other terms
//     (refute_sums.go), where a term read twice cancels. A constraint whose truth
//     interval is "false", or statements that leave a term no value,
//     refute the query.
//   - Relations: comparisons between the same two non-constant terms
//     that exclude every order of them (x == y and x != y; x < y and
//     x >= y).
//   - Negations: a constraint and its negation written out, pushed
//     inwards as the simplifier writes it (byNegations).
//   - Differences: comparisons of terms offset by constants, such as
//     t + c <= u + d, as bounds on the terms' differences, a cycle of
//     which no integers meet (byDifferences); the same bounds narrow the
//     query's terms x - y of such terms (differenceTerms).
//   - Remainders (refute_residues.go): constraints that read the inputs only
//     through remainders of one term by constants, evaluated on every
//     residue class of the term.
//
// First, inputs the query states equal (in[a] == in[b]) become one input
// in the other constraints (refute_equal.go), so that the arguments see one
// term where the path read two equal keys.
//
// A query it cannot refute goes on with the if-then-else guards the
// intervals decide replaced by the branches they take, and the integer
// terms they fix by their values (refute_guards.go); the rewritten query's
// arguments are computed again, may refute it, and may decide more, for
// a few rounds.
type Refute struct {
	next Solver
	m    *Metrics
	c    *sym.Context // the rewritten terms' (see decideGuards)

	// noMerge leaves equal inputs apart (refute_equal.go), noGuards
	// leaves the guards the intervals decide in place (refute_guards.go).
	noMerge, noGuards bool

	residues *memo[uint64, residueFact]
}

// NewRefute returns the layer in front of next.
func NewRefute(next Solver, m *Metrics) *Refute {
	return &Refute{next: next, m: m, c: sym.NewContext(), residues: newMemo[uint64, residueFact](maxDomainFacts)}
}

// Solve implements Solver.
func (r *Refute) Solve(ctx context.Context, q Query) (Result, error) {
	if hasFloat(q) {
		return r.next.Solve(ctx, q) // no intervals over floats (core_float.go)
	}
	if !r.noMerge {
		if merged, changed := mergeEqualInputs(r.c, q); changed {
			q = merged
		}
	}
	rounds := maxGuardRounds
	if r.noGuards {
		rounds = 0
	}
	iv, refuted := r.refuted(q)
	for round := 0; !refuted && round < rounds; round++ {
		rewritten, changed := decideGuards(r.c, q, iv)
		if !changed {
			break
		}
		// The first rewriting leaves the terms it did not change in the
		// query's context: all are built in the layer's from then on.
		q = rewritten
		if round == 0 {
			q = inContext(r.c, q)
		}
		iv.release()
		iv, refuted = r.refuted(q)
	}
	iv.release()
	if refuted {
		r.m.add(func(st *Stats) { st.Refuted++ })
		return Result{Status: Unsat}, nil
	}
	if !r.noMerge {
		if reduced, copies := withoutEqualities(q); copies != nil {
			return r.solveReduced(ctx, q, reduced, copies)
		}
	}
	return r.next.Solve(ctx, q)
}

// solveReduced passes on reduced, q without its equalities between
// inputs (withoutEqualities), and makes the copies in a model.
func (r *Refute) solveReduced(ctx context.Context, q, reduced Query, copies map[int]int) (Result, error) {
	res, err := r.next.Solve(ctx, reduced)
	if err != nil || res.Status != Sat {
		return res, err // every solution of q solves reduced
	}
	model := clone(res.Model)
	for in, from := range copies {
		model[in] = model[from]
	}
	if inDomain(q.Leaves, model) == nil {
		res.Model = model
		return res, nil
	}
	// A copy outside its input's domain (a shorter bound on one of two
	// equal strings): q decides.
	return r.next.Solve(ctx, q)
}

// maxGuardRounds bounds the rounds of guard rewriting per query. A round's
// rewriting gives the intervals of the next one branches in place of
// if-then-elses, and they often decide more guards: a selection at a
// position found by a search, that search's guards, then the next
// selection's.
const maxGuardRounds = 8

// refuted reports whether one of the layer's arguments proves q
// unsatisfiable, and returns q's intervals.
func (r *Refute) refuted(q Query) (*intervals, bool) {
	iv, refuted := byIntervals(q)
	return iv, refuted || byRelations(q) || byNegations(q) || byDifferences(q, iv) || r.byResidues(q, iv)
}

// byIntervals states every constraint's comparisons with constants, then
// looks for a constraint that cannot hold. It returns the intervals too.
func byIntervals(q Query) (*intervals, bool) {
	iv := newIntervals(q.Leaves, q.Constraints)
	for _, c := range q.Constraints {
		if !iv.state(c) {
			return iv, true
		}
	}
	if !iv.finish() {
		return iv, true
	}
	for _, c := range q.Constraints {
		if iv.interval(c).hi == 0 || iv.contradiction {
			return iv, true
		}
	}
	return iv, false
}

// The orders of two values, as a bit set: a relation is the set of
// orders it admits.
const (
	orderLess uint8 = 1 << iota
	orderEqual
	orderGreater
)

// byRelations intersects, per pair of terms, the orders the comparisons
// between them admit.
func byRelations(q Query) bool {
	type pair struct{ a, b *sym.Expr }
	admitted := map[pair]uint8{}
	for _, c := range q.Constraints {
		holds := true
		for c.Op() == rt.OpNot {
			c, holds = c.Arg(0), !holds
		}
		if !isComparison(c.Op()) || c.Arg(0).IsConst() || c.Arg(1).IsConst() {
			continue
		}
		op, a, b := c.Op(), c.Arg(0), c.Arg(1)
		if a.ID() > b.ID() {
			op, a, b = sym.Mirror(op), b, a
		}
		if !holds {
			op = sym.Negate(op)
		}
		rel := orders(op)
		if a == b {
			if rel&orderEqual == 0 {
				return true
			}
			continue
		}
		p := pair{a, b}
		if old, ok := admitted[p]; ok {
			rel &= old
		}
		if rel == 0 {
			return true
		}
		admitted[p] = rel
	}
	return false
}

// byNegations looks for a constraint and its negation written out
// (negates): a parser that tests one byte twice against a class of
// characters, isSpace(s[i]) on the path and !isSpace(s[i]) asked, gets
// c == 9 || c == 10 || c == 32 and, negated and pushed inwards by the
// simplifier, (c < 9 || c > 10) && c != 32, which the intervals cannot
// relate. Only constraints that are connectives or negations are
// compared; comparisons are byRelations'.
func byNegations(q Query) bool {
	var conns []*sym.Expr
	for _, c := range q.Constraints {
		switch c.Op() {
		case rt.OpLAnd, rt.OpLOr, rt.OpNot:
			conns = append(conns, c)
		}
	}
	for i, a := range conns {
		for _, b := range conns[i+1:] {
			if negates(a, b, maxNegationDepth) {
				return true
			}
		}
	}
	return false
}

// maxNegationDepth bounds negates' descent.
const maxNegationDepth = 8

// negates reports whether a is !b for every value of the inputs, by
// their structure: !x against x, a comparison against its negation (or
// its negation mirrored) on the same operands, and a conjunction against
// a disjunction whose operands negate its own (De Morgan), in either
// order (every kind's order is total).
func negates(a, b *sym.Expr, depth int) bool {
	if depth == 0 {
		return false
	}
	switch {
	case a.Op() == rt.OpNot && a.Arg(0) == b, b.Op() == rt.OpNot && b.Arg(0) == a:
		return true
	case isComparison(a.Op()) && isComparison(b.Op()):
		if a.K2() != b.K2() {
			return false
		}
		switch {
		case a.Arg(0) == b.Arg(0) && a.Arg(1) == b.Arg(1):
			return b.Op() == sym.Negate(a.Op())
		case a.Arg(0) == b.Arg(1) && a.Arg(1) == b.Arg(0):
			return b.Op() == sym.Negate(sym.Mirror(a.Op()))
		}
		return false
	case a.Op() == rt.OpLAnd && b.Op() == rt.OpLOr, a.Op() == rt.OpLOr && b.Op() == rt.OpLAnd:
		a0, a1, b0, b1 := a.Arg(0), a.Arg(1), b.Arg(0), b.Arg(1)
		return negates(a0, b0, depth-1) && negates(a1, b1, depth-1) ||
			negates(a0, b1, depth-1) && negates(a1, b0, depth-1)
	}
	return false
}

// byDifferences reads the comparisons between two terms offset by
// constants, t + c op u + d where neither sum wraps around (the
// intervals show it) and conversions keep the values, as bounds on the
// difference of the terms (t - u <= d - c for <=), and looks for a cycle
// of them that no integers meet (Bellman-Ford): an offset read from a
// message checked against the message's length from both sides,
// off + 26 <= len(msg) and off + 24 >= len(msg), cannot hold, though
// each term alone has values that meet both.
func byDifferences(q Query, iv *intervals) bool {
	node := map[*sym.Expr]int{}
	id := func(e *sym.Expr) int {
		if i, ok := node[e]; ok {
			return i
		}
		node[e] = len(node)
		return len(node) - 1
	}
	// The comparisons of two terms, before any interval is asked: a
	// cycle needs two.
	type comparison struct {
		c     *sym.Expr
		holds bool
	}
	var candidates []comparison
	for _, c := range q.Constraints {
		holds := true
		for c.Op() == rt.OpNot {
			c, holds = c.Arg(0), !holds
		}
		if isComparison(c.Op()) && c.K2().Integer() && !c.Arg(0).IsConst() && !c.Arg(1).IsConst() {
			candidates = append(candidates, comparison{c, holds})
		}
	}
	if len(candidates) == 0 {
		return false
	}
	var bounds []diffBound
	add := func(a, b *sym.Expr, w int64, ok bool) { // a - b <= w
		if ok {
			bounds = append(bounds, diffBound{id(a), id(b), w})
		}
	}
	for _, cand := range candidates {
		c, op := cand.c, cand.c.Op()
		if !cand.holds {
			op = sym.Negate(op)
		}
		a, da := iv.offsetTerm(c.Arg(0))
		b, db := iv.offsetTerm(c.Arg(1))
		if a == b {
			continue // byRelations' and the intervals' case
		}
		// a + da op b + db: a - b op db - da.
		k, ok := subOK(db, da)
		if !ok {
			continue
		}
		switch op {
		case rt.OpLt:
			k1, ok1 := subOK(k, 1)
			add(a, b, k1, ok1)
		case rt.OpLe:
			add(a, b, k, true)
		case rt.OpGt: // b - a < -k
			k1, ok1 := subOK(-k, 1)
			add(b, a, k1, ok1 && k != math.MinInt64)
		case rt.OpGe:
			add(b, a, -k, k != math.MinInt64)
		case rt.OpEq:
			add(a, b, k, true)
			add(b, a, -k, k != math.MinInt64)
		}
	}
	if differenceTerms(q, iv, node, bounds) {
		return true
	}
	// Each term's interval bounds it against 0, a node of its own: x > 10,
	// x < y and y < 5 are a cycle through it.
	terms := make([]*sym.Expr, len(node))
	for e, i := range node {
		terms[i] = e
	}
	zero := len(node)
	for i, e := range terms {
		r := iv.interval(e)
		lo, hi, ok := actual(e.Kind(), r)
		if !ok || r == top(e.Kind()) || iv.contradiction {
			continue
		}
		bounds = append(bounds, diffBound{i, zero, hi}) // e - 0 <= hi
		if lo != math.MinInt64 {
			bounds = append(bounds, diffBound{zero, i, -lo}) // 0 - e <= -lo
		}
	}
	if len(bounds) < 2 {
		return false
	}
	// A negative cycle: distances from a virtual source at 0 to every
	// term still shrink after as many rounds as there are terms.
	dist := make([]int64, len(node)+1)
	for range len(node) + 2 {
		changed := false
		for _, e := range bounds {
			// t <= u + w
			if d, ok := addOK(dist[e.u], e.w); ok && d < dist[e.t] {
				dist[e.t], changed = d, true
			}
		}
		if !changed {
			return false
		}
	}
	return true
}

// differenceTerms narrows the query's differences of two terms, x - y
// with x = t + c and y = u + d (offsetTerm), by the bounds the
// comparisons give t - u (node numbers the terms of bounds, each an
// a - b <= w), where the narrowed difference cannot wrap around: a
// parser's rest, len(s) - (i + 1), after i + 1 <= len(s), is at least 0.
// It reports whether the narrowed intervals refute the query, its
// disequalities applied again (len(s) - (i + 1) <= 3 and != 0, 1, 2
// and 3).
func differenceTerms(q Query, iv *intervals, node map[*sym.Expr]int, bounds []diffBound) bool {
	type pair struct{ t, u int }
	tightest := map[pair]int64{}
	for _, b := range bounds {
		if w, ok := tightest[pair{b.t, b.u}]; !ok || b.w < w {
			tightest[pair{b.t, b.u}] = b.w
		}
	}
	narrowed := false
	for _, e := range iv.terms {
		if e.Op() != rt.OpSub || !e.Kind().Integer() || e.Arg(0).IsConst() || e.Arg(1).IsConst() {
			continue
		}
		x, y := e.Arg(0), e.Arg(1)
		t, c := iv.offsetTerm(x)
		u, d := iv.offsetTerm(y)
		ti, ok1 := node[t]
		ui, ok2 := node[u]
		if !ok1 || !ok2 || t == u {
			continue
		}
		// x - y is (t - u) + (c - d) in the integers, and e's value
		// where that lies within e's kind (fromActual): then e does not
		// wrap around.
		k := e.Kind()
		xlo, xhi, okx := actual(k, iv.interval(x))
		ylo, yhi, oky := actual(k, iv.interval(y))
		lo, ok3 := subOK(xlo, yhi)
		hi, ok4 := subOK(xhi, ylo)
		off, ok5 := subOK(c, d)
		if !okx || !oky || !ok3 || !ok4 || !ok5 {
			continue
		}
		if w, ok := tightest[pair{ti, ui}]; ok { // t - u <= w
			if v, ok := addOK(w, off); ok && v < hi {
				hi = v
			}
		}
		if w, ok := tightest[pair{ui, ti}]; ok && w != math.MinInt64 { // u - t <= w: t - u >= -w
			if v, ok := addOK(-w, off); ok && v > lo {
				lo = v
			}
		}
		if lo > hi {
			return true
		}
		r := fromActual(k, lo, hi, true)
		if r == top(k) {
			continue
		}
		if !iv.narrow(e, r) {
			return true
		}
		narrowed = true
	}
	if !narrowed {
		return false
	}
	if !iv.finish() || iv.contradiction {
		return true
	}
	for _, c := range q.Constraints {
		if iv.interval(c).hi == 0 || iv.contradiction {
			return true
		}
	}
	return false
}

// diffBound is a bound on the difference of two terms, by their numbers:
// t - u <= w.
type diffBound struct {
	t, u int
	w    int64
}

// offsetTerm writes e as t + d for a constant d, through sums and
// differences with constants that do not wrap around and conversions
// that keep the values (t is e itself, d 0, when there are none).
func (iv *intervals) offsetTerm(e *sym.Expr) (*sym.Expr, int64) {
	e = iv.unconverted(e)
	var total int64
	for e.Op() == rt.OpAdd || e.Op() == rt.OpSub {
		base := iv.unconverted(e.Arg(0))
		d, ok := iv.offset(base, e)
		if !ok {
			break
		}
		sum, ok := addOK(total, d)
		if !ok {
			break
		}
		total, e = sum, base
	}
	return e, total
}

// orders is the set of orders comparison op admits.
func orders(op rt.Op) uint8 {
	switch op {
	case rt.OpEq:
		return orderEqual
	case rt.OpNe:
		return orderLess | orderGreater
	case rt.OpLt:
		return orderLess
	case rt.OpLe:
		return orderLess | orderEqual
	case rt.OpGt:
		return orderGreater
	}
	return orderGreater | orderEqual
}

// byResidues looks for a term whose remainders the constraints leave no
// residue class. A constraint outside the fragment is tried again with
// the terms the intervals fix taken as constants (a table size the path
// has pinned between two growth thresholds).
func (r *Refute) byResidues(q Query, iv *intervals) bool {
	pin := func(e *sym.Expr) (uint64, bool) {
		if rng := iv.interval(e); rng.lo == rng.hi {
			return unordered(e.Kind(), rng.lo), true
		}
		return 0, false
	}
	var terms []*sym.Expr
	byTerm := map[*sym.Expr][]residueFact{}
	for _, c := range q.Constraints {
		f, seen := r.residues.get(c.ID())
		if !seen {
			f = residueFactOf(c, nil)
			f.rem = f.ok || hasRemainder(c)
			r.residues.put(c.ID(), f)
		}
		if !f.ok && f.rem && !iv.contradiction {
			f = residueFactOf(c, pin)
		}
		if !f.ok {
			continue
		}
		if _, seen := byTerm[f.t]; !seen {
			terms = append(terms, f.t)
		}
		byTerm[f.t] = append(byTerm[f.t], f)
	}
	for _, t := range terms {
		if !anyRepresentative(t.Kind(), byTerm[t]) {
			return true
		}
	}
	return false
}
