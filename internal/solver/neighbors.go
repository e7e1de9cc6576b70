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
// n > 2 where it had n = 2, s[2] == '.' where the seed had "1.2.3". The
// layer tries, for each integer input the last constraint reads, values
// near the seed's and the constants the query compares with, in a fixed
// order (nearest first), changing that input alone; for each string input
// it reads, the seed's string with one byte the last constraint reads
// replaced by a byte the query compares with, with one such byte
// appended, and with a string constant of the last constraint written
// over or inserted at a position (stringMoves); for an overflow check
// no single move passes (a + b < a), the two inputs together
// (overflowMoves). The first vector on which every constraint holds by
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
	if hasFloat(q) {
		return n.next.Solve(ctx, q) // integer moves of float bits are not neighbours (core_float.go)
	}
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
		if l := q.Leaves[in]; (l.K.Integer() || l.K == rt.KString) && !l.Float {
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
		var cands []rt.Value
		if l.K == rt.KString {
			cands = stringMoves(l, q.Seed[in].Str, last, in, consts)
		} else {
			for _, v := range moves(l, q.Seed[in].Bits, consts) {
				cands = append(cands, rt.Value{Bits: v})
			}
		}
		ev := sym.NewEvaluator(model)
		for _, v := range cands {
			model[in] = v
			if moveHolds(q.Leaves, ev, model, last, reading) {
				return model, true
			}
		}
	}
	return overflowMoves(q, last, seed)
}

// moveHolds reports whether the moved vector model, which ev evaluates,
// lies in the leaves' domains and meets the last constraint and the
// constraints reading the moved inputs — the last first: it is the one
// the seed fails, and most moves fail it too.
func moveHolds(leaves []rt.Leaf, ev *sym.Evaluator, model []rt.Value, last *sym.Expr, reading []*sym.Expr) bool {
	if inDomain(leaves, model) != nil {
		return false
	}
	ev.Reset()
	if ok, err := ev.Holds(last); err != nil || !ok {
		return false
	}
	return holdsAll(ev, reading)
}

// overflowMoves answers an overflow check that no single move passes: a
// last constraint comparing a sum, difference or product of two integer
// inputs (or such a term divided by one of them) with one of them, as in
// a + b < a, a - b > a or a*b/b != a. From a seed of small values it
// needs one input at or next to an end of its kind and the other changed
// too — unsigned a + b < a holds at a = MaxUint64, b = 1. It tries each
// input at its kind's ends (least, greatest, then next to them) with the
// other one or two steps from the seed or at 1, 2 or -1. The constraints
// that read neither input must hold on the seed. It is this narrow on
// purpose: moving any two inputs of the last constraint together also
// answers queries Z3 would answer with values inside the kind, and those
// models' runs found fewer paths (docs/solver.md).
func overflowMoves(q Query, last *sym.Expr, seed *sym.Evaluator) ([]rt.Value, bool) {
	x, y, ok := overflowCheck(last, q.Leaves)
	if !ok {
		return nil, false
	}
	var reading []*sym.Expr
	for _, c := range q.Constraints {
		if vars := c.Vars(); slices.Contains(vars, x) || slices.Contains(vars, y) {
			reading = append(reading, c)
		} else if ok, err := seed.Holds(c); err != nil || !ok {
			return nil, false
		}
	}
	model := clone(q.Seed)
	ev := sym.NewEvaluator(model)
	for _, pair := range [2][2]int{{x, y}, {y, x}} {
		a, b := pair[0], pair[1]
		ka, kb := q.Leaves[a].K, q.Leaves[b].K
		sa, sb := ordered(ka, q.Seed[a].Bits), ordered(kb, q.Seed[b].Bits)
		lo, hi := bounds(ka)
		blo, bhi := bounds(kb)
		var steps []int64
		add := func(v int64, ok bool) {
			if ok && v >= blo && v <= bhi && v != sb && !slices.Contains(steps, v) {
				steps = append(steps, v)
			}
		}
		for _, d := range [...]int64{1, -1, 2, -2} {
			add(addOK(sb, d))
		}
		for _, v := range [...]int64{1, 2, -1} {
			add(orderedValue(kb, v))
		}
		for _, v := range [...]int64{lo, hi, lo + 1, hi - 1} {
			if v == sa {
				continue
			}
			for _, w := range steps {
				copy(model, q.Seed)
				model[a], model[b] = rt.Value{Bits: unordered(ka, v)}, rt.Value{Bits: unordered(kb, w)}
				if moveHolds(q.Leaves, ev, model, last, reading) {
					return model, true
				}
			}
		}
	}
	return nil, false
}

// overflowCheck returns the two inputs of an overflow check (see
// overflowMoves): c, or its negation, compares an input (or its
// conversion) with a sum, difference or product (or such a term divided)
// that reads exactly that input and one other, both integers other than
// lengths.
func overflowCheck(c *sym.Expr, leaves []rt.Leaf) (x, y int, ok bool) {
	for c.Op() == rt.OpNot {
		c = c.Arg(0)
	}
	switch c.Op() {
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
	default:
		return 0, 0, false
	}
	integer := func(in int) bool {
		l := leaves[in]
		return l.K.Integer() && !l.IsLen && !l.Float
	}
	for side := range 2 {
		in, t := c.Arg(side), c.Arg(1-side)
		if in.Op() == rt.OpConv {
			in = in.Arg(0)
		}
		if in.Op() != rt.OpInput || in.Input() >= len(leaves) {
			continue
		}
		if t.Op() == rt.OpQuo {
			t = t.Arg(0)
		}
		if op := t.Op(); op != rt.OpAdd && op != rt.OpSub && op != rt.OpMul {
			continue
		}
		vars := t.Vars()
		x = in.Input()
		if len(vars) != 2 || !slices.Contains(vars, x) || vars[len(vars)-1] >= len(leaves) {
			continue
		}
		y = vars[0]
		if y == x {
			y = vars[1]
		}
		if integer(x) && integer(y) {
			return x, y, true
		}
	}
	return 0, 0, false
}

// maxStringMoves bounds the strings tried per string input.
const maxStringMoves = 96

// stringMoves lists the strings a string input of leaf l tries, seed
// being its value, in a fixed order: each position the last constraint
// reads (at a constant index, possibly through slices with constant
// bounds) set to each byte value the query compares with (those of the
// last constraint first, each with its neighbours, for ranges), then that
// byte appended where the position is the seed's end; then each string
// constant of the last constraint written over the seed at each position,
// then inserted there. At most maxStringMoves, none longer than l.Max.
func stringMoves(l rt.Leaf, seed string, last *sym.Expr, in int, consts []int64) []rt.Value {
	positions, strs, lastConsts, eqs := readsOf(last, in)
	// The bytes the last constraint asks for at consecutive positions
	// (s[0] == '>' && s[1] == '=', as comparisons with string constants
	// are simplified) are a string constant written at the first.
	if run, at, ok := eqRun(eqs); ok {
		strs = append([]string{run}, strs...)
		positions = append([]int{at}, positions...)
	}
	var bytes []byte
	seenByte := [256]bool{}
	addByte := func(v int64) {
		if v >= 0 && v <= 255 && !seenByte[v] {
			seenByte[v] = true
			bytes = append(bytes, byte(v))
		}
	}
	for _, group := range [][]int64{lastConsts, consts} {
		for _, c := range group {
			addByte(c)
		}
		for _, c := range group {
			addByte(c + 1)
			addByte(c - 1)
		}
	}
	for _, str := range strs {
		for i := range len(str) {
			addByte(int64(str[i]))
		}
	}
	var out []rt.Value
	seen := map[string]bool{seed: true}
	add := func(s string) bool {
		if len(out) >= maxStringMoves {
			return false
		}
		if len(s) <= max(l.Max, 0) && !seen[s] {
			seen[s] = true
			out = append(out, rt.Value{Str: s})
		}
		return true
	}
	for _, p := range positions {
		for _, b := range bytes {
			switch {
			case p < len(seed):
				if !add(seed[:p] + string([]byte{b}) + seed[p+1:]) {
					return out
				}
			case p == len(seed):
				if !add(seed + string([]byte{b})) {
					return out
				}
			}
		}
	}
	for _, str := range strs {
		for _, p := range positionsFor(positions, len(seed)) {
			over := seed[:p] + str
			if p+len(str) < len(seed) {
				over += seed[p+len(str):]
			}
			if !add(over) {
				return out
			}
		}
	}
	for _, str := range strs {
		for _, p := range positionsFor(positions, len(seed)) {
			if !add(seed[:p] + str + seed[p:]) {
				return out
			}
		}
	}
	return out
}

// positionsFor lists where a string constant is tried in a seed of n
// bytes: the positions the last constraint reads first, then the others.
func positionsFor(read []int, n int) []int {
	var out []int
	seen := map[int]bool{}
	for _, p := range read {
		if p <= n && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for p := 0; p <= n; p++ {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// A byteEq is a comparison s[pos] == b of the last constraint.
type byteEq struct {
	pos int
	b   byte
}

// eqRun is the string the byte equalities eqs ask for when they are at
// least two, at consecutive positions from at, one byte each.
func eqRun(eqs []byteEq) (run string, at int, ok bool) {
	if len(eqs) < 2 {
		return "", 0, false
	}
	sorted := slices.Clone(eqs)
	slices.SortFunc(sorted, func(a, b byteEq) int { return a.pos - b.pos })
	buf := make([]byte, len(sorted))
	for i, e := range sorted {
		if e.pos != sorted[0].pos+i {
			return "", 0, false
		}
		buf[i] = e.b
	}
	return string(buf), sorted[0].pos, true
}

// maxMoveStrings bounds the length of the string constants stringMoves
// writes into the seed.
const maxMoveStrings = 16

// readsOf lists, for the string input in, the positions c reads at
// constant indices (through slices with constant lower bounds too), the
// non-empty string constants c compares with (at most maxMoveStrings
// bytes each), c's integer constants and its comparisons of a byte with
// a constant for equality, each in order of first appearance.
func readsOf(c *sym.Expr, in int) (positions []int, strs []string, consts []int64, eqs []byteEq) {
	seenPos := map[int]bool{}
	seenStr := map[string]bool{}
	visited := map[*sym.Expr]bool{}
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if visited[e] {
			return
		}
		visited[e] = true
		switch {
		case e.Op() == rt.OpStr:
			if s := e.Str(); s != "" && len(s) <= maxMoveStrings && !seenStr[s] {
				seenStr[s] = true
				strs = append(strs, s)
			}
			return
		case e.IsConst():
			if e.Kind().Integer() {
				consts = append(consts, e.Signed())
			}
			return
		case e.Op() == rt.OpIndex:
			if p, ok := positionIn(e.Arg(0), e.Arg(1), in); ok && !seenPos[p] {
				seenPos[p] = true
				positions = append(positions, p)
			}
		case e.Op() == rt.OpEq && e.Arg(0).Op() == rt.OpIndex && e.Arg(1).IsConst() && len(eqs) < maxMoveStrings:
			x := e.Arg(0)
			if p, ok := positionIn(x.Arg(0), x.Arg(1), in); ok {
				eqs = append(eqs, byteEq{p, byte(e.Arg(1).Bits())})
			}
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	walk(c)
	return positions, strs, consts, eqs
}

// positionIn is the position in input in of s[i], for a constant i and s
// the input itself or a slice of it with constant lower bounds.
func positionIn(s, i *sym.Expr, in int) (int, bool) {
	if !i.IsConst() {
		return 0, false
	}
	p := ordered(i.Kind(), i.Bits())
	for s.Op() == rt.OpSlice {
		lo := s.Arg(1)
		if !lo.IsConst() {
			return 0, false
		}
		p += ordered(lo.Kind(), lo.Bits())
		s = s.Arg(0)
	}
	if s.Op() != rt.OpInput || s.Input() != in || p < 0 || p > 1<<20 {
		return 0, false
	}
	return int(p), true
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
// first, each once, at most maxMoves. After those come the constants'
// values the bound left out (nearest first, at most maxMoves more) and
// the kind's ends (its least and greatest values and their neighbours):
// a query the seed's neighbours cannot satisfy often asks for a constant
// far from the seed (v <= -100 from 100) or for an overflow (x - y > x),
// and trying those last leaves every model found among the first ones
// as it was.
func moves(l rt.Leaf, seed uint64, consts []int64) []uint64 {
	s := ordered(l.K, seed)
	lo, hi := bounds(l.K)
	var cands, far []int64
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
			v, ok := orderedValue(l.K, v)
			if !ok {
				continue
			}
			if v >= lo && v <= hi && v != s {
				far = append(far, v)
			}
			add(v, true)
		}
	}
	for v := int64(-8); v <= 8; v++ {
		add(orderedValue(l.K, v))
	}
	sortByDistance(s, cands)
	cands = slices.Compact(cands)
	if len(cands) > maxMoves {
		cands = cands[:maxMoves]
	}
	sortByDistance(s, far)
	far = slices.Compact(far)
	n := len(cands)
	for _, v := range far {
		if len(cands) == n+maxMoves {
			break
		}
		if !slices.Contains(cands, v) {
			cands = append(cands, v)
		}
	}
	for _, v := range [...]int64{lo, hi, lo + 1, hi - 1} { // (every kind has four values or more)
		if v != s && !slices.Contains(cands, v) {
			cands = append(cands, v)
		}
	}
	out := make([]uint64, len(cands))
	for i, v := range cands {
		out[i] = unordered(l.K, v)
	}
	return out
}

// orderedValue is the integer v as a value of kind k in the kind's order
// (ordered), or false for a negative v of uint64 (the narrower kinds'
// order is their values').
func orderedValue(k rt.Kind, v int64) (int64, bool) {
	if k != rt.KUint64 {
		return v, true
	}
	if v < 0 {
		return 0, false
	}
	return ordered(k, uint64(v)), true
}

// sortByDistance sorts values by distance from s, the smaller first on a tie.
func sortByDistance(s int64, values []int64) {
	dist := func(v int64) uint64 {
		if v > s {
			return uint64(v) - uint64(s)
		}
		return uint64(s) - uint64(v)
	}
	slices.SortStableFunc(values, func(a, b int64) int {
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
}
