package solver

import (
	"context"
	"errors"
	"math/bits"
	"strings"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Domains is a decorator that decides, without Z3, the queries whose every
// constraint is about one small-domain part of the input: a byte of a
// string at a constant position, a string's length, a slice length, or a
// bool or 8-bit input. That is most of what lexers and parsers ask — "s[3]
// is a digit", "len(s) > 4", "r is not a space" — and Z3 spent about 10 ms
// on each such query, bit-blasting the whole bounded string.
//
// Each part is a variable of its own in the core's encoding (a string's
// bytes exist up to its bound whatever its length, docs/solver.md), so a
// conjunction of one-part constraints is satisfiable exactly when every
// part has a value that all its constraints accept. The layer computes, per
// constraint, the set of values of its part that satisfy it, by evaluation
// with Go's semantics over the part's whole domain (at most 256 values for
// bytes and 8-bit inputs, 0..Max for lengths); sets are remembered per
// interned term, so a constraint that recurs across the queries of an
// exploration is evaluated once. An empty intersection proves the query
// unsatisfiable; otherwise each part takes its seed value if allowed, else
// the nearest allowed value (for bytes: the smallest printable ASCII byte
// allowed, else the smallest allowed), and the model is checked by
// evaluation before it is returned. Every other query goes to the next
// solver, so the layer never changes an answer.
type Domains struct {
	next Solver
	m    *Metrics

	facts *memo[domainKey, domainFact]
}

// NewDomains returns the layer in front of next.
func NewDomains(next Solver, m *Metrics) *Domains {
	return &Domains{next: next, m: m, facts: newMemo[domainKey, domainFact](maxDomainFacts)}
}

// maxDomain bounds the domain of a part the layer enumerates.
const maxDomain = 4096

// maxDomainFacts bounds the remembered sets; the memory is dropped when
// full.
const maxDomainFacts = 1 << 15

// A part is one small-domain variable of the encoding: byte pos of string
// input in, or (pos == -1) the whole input in, or its length if a string.
// For slicing, pos == wholeString stands for a string read as a whole.
type part struct {
	in, pos int
}

// wholeString is the pos of a part that is a whole string input.
const wholeString = -2

// partsOf lists the parts constraint c reads, in order of first reading:
// a string input read other than by its length or a byte at a constant
// position below its bound is read as a whole (wholeString); other inputs
// are read whole (pos -1), whatever their domain.
func partsOf(c *sym.Expr, leaves []rt.Leaf) []part {
	var out []part
	seen := map[part]bool{}
	add := func(p part) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	visited := map[*sym.Expr]bool{} // terms are DAGs: each node once
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if len(e.Vars()) == 0 || visited[e] {
			return
		}
		visited[e] = true
		switch e.Op() {
		case rt.OpInput:
			if e.Input() < len(leaves) && leaves[e.Input()].K == rt.KString {
				add(part{in: e.Input(), pos: wholeString})
			} else {
				add(part{in: e.Input(), pos: -1})
			}
			return
		case rt.OpLen:
			if a := e.Arg(0); a.Op() == rt.OpInput {
				add(part{in: a.Input(), pos: -1})
				return
			}
		case rt.OpIndex:
			if p, ok := bytePart(e, leaves); ok {
				add(p)
				return
			}
		}
		for i := range e.NumArgs() {
			walk(e.Arg(i))
		}
	}
	walk(c)
	return out
}

// bytePart is the part of s[k], a string input's byte at a constant
// position below its bound.
func bytePart(e *sym.Expr, leaves []rt.Leaf) (part, bool) {
	a, i := e.Arg(0), e.Arg(1)
	if a.Op() != rt.OpInput || a.Input() >= len(leaves) || !i.IsConst() {
		return part{}, false
	}
	k := ordered(i.Kind(), i.Bits())
	if k < 0 || k >= int64(max(leaves[a.Input()].Max, 0)) {
		return part{}, false
	}
	return part{in: a.Input(), pos: int(k)}, true
}

// domainKey identifies a remembered fact: the term, and a hash of the
// layout, which fixes the parts' domains.
type domainKey struct {
	id, layout uint64
}

// domainFact is what the layer knows of one constraint: its part, and the
// values of the part's domain that satisfy it (a bit set). ok is false
// for constraints outside the fragment.
type domainFact struct {
	ok      bool
	p       part
	allowed []uint64
}

// Solve implements Solver.
func (d *Domains) Solve(ctx context.Context, q Query) (Result, error) {
	if hasFloat(q) {
		return d.next.Solve(ctx, q) // float terms are not enumerated (core_float.go)
	}
	if r, ok := d.decide(q); ok {
		d.m.add(func(st *Stats) { st.DomainHits++ })
		return r, nil
	}
	return d.next.Solve(ctx, q)
}

// domainSize is the number of values of p's domain, or 0 if p is not a
// small-domain part.
func domainSize(leaves []rt.Leaf, p part) int {
	l := leaves[p.in]
	switch {
	case p.pos >= 0:
		return 256
	case l.K == rt.KString || l.IsLen:
		if l.Max < 0 || l.Max >= maxDomain {
			return 0
		}
		return l.Max + 1
	case l.K == rt.KBool:
		return 2
	case l.K == rt.KInt8 || l.K == rt.KUint8:
		return 256
	}
	return 0
}

func (d *Domains) decide(q Query) (Result, bool) {
	if len(q.Constraints) == 0 || len(q.Seed) != len(q.Leaves) {
		return Result{}, false
	}
	layout := layoutHash(q.Leaves)
	sets := map[part][]uint64{}
	var order []part
	for _, c := range q.Constraints {
		f := d.fact(c, q.Leaves, layout)
		if !f.ok {
			return Result{}, false
		}
		s, seen := sets[f.p]
		if !seen {
			s = append([]uint64(nil), f.allowed...)
			order = append(order, f.p)
		} else {
			for i := range s {
				s[i] &= f.allowed[i]
			}
		}
		sets[f.p] = s
	}
	for _, p := range order {
		if empty(sets[p]) {
			return Result{Status: Unsat}, true
		}
	}
	values := make(map[part]uint64, len(order))
	for _, p := range order {
		l := q.Leaves[p.in]
		if p.pos >= 0 {
			seed := -1
			if p.pos < len(q.Seed[p.in].Str) {
				seed = int(q.Seed[p.in].Str[p.pos])
			}
			values[p] = uint64(nearestByte(sets[p], seed))
			continue
		}
		seed := int(q.Seed[p.in].Bits)
		if l.K == rt.KString {
			seed = len(q.Seed[p.in].Str)
		}
		values[p] = uint64(nearest(sets[p], domainSize(q.Leaves, p), seed, l))
	}
	model, ok := partModel(q, values)
	if !ok {
		return Result{}, false
	}
	return Result{Status: Sat, Model: model}, true
}

// partModel builds the input vector that gives each part its value in
// values — a length, a byte, a whole small input — and keeps the seed's
// for the rest (a string's other bytes up to its new length, zeros
// beyond the seed's), and checks it on q by evaluation and domain. A byte
// beyond its string's length in the model is one the encoding has and
// the string does not (docs/solver.md): constraints that read such a
// byte are not checked, as the core's models are not.
func partModel(q Query, values map[part]uint64) ([]rt.Value, bool) {
	model := clone(q.Seed)
	length := map[int]int{}
	for p, v := range values {
		switch {
		case p.pos >= 0:
		case q.Leaves[p.in].K == rt.KString:
			length[p.in] = int(v)
		default:
			model[p.in] = rt.Value{Bits: v}
		}
	}
	strs := map[int][]byte{}
	for p := range values {
		if p.pos < 0 && q.Leaves[p.in].K != rt.KString {
			continue
		}
		if _, ok := strs[p.in]; ok {
			continue
		}
		n, ok := length[p.in]
		if !ok {
			n = len(q.Seed[p.in].Str)
		}
		b := make([]byte, n)
		copy(b, q.Seed[p.in].Str)
		strs[p.in] = b
	}
	short := false // some byte given lies beyond its string's length
	for p, v := range values {
		if p.pos < 0 {
			continue
		}
		if b := strs[p.in]; p.pos < len(b) {
			b[p.pos] = byte(v)
		} else {
			short = true
		}
	}
	for in, b := range strs {
		model[in] = rt.Value{Str: string(b)}
	}
	if inDomain(q.Leaves, model) != nil {
		return nil, false
	}
	ev := sym.NewEvaluator(model)
	for _, c := range q.Constraints {
		if short && beyondLength(c, q.Leaves, model) {
			continue
		}
		holds, err := ev.Holds(c)
		if errors.Is(err, sym.ErrUndefined) && readsOutside(ev, c, model) {
			// The encoding reads 0 there (the search evaluated c so).
			continue
		}
		if err != nil || !holds {
			return nil, false
		}
	}
	return model, true
}

// readsOutside reports whether c reads a string at a position outside
// it, or slices it with bounds outside it, on model: Go would panic, the
// encoding reads a 0 byte (or one of an input's bytes beyond its length,
// see beyondLength) and slices past the end anyway. A path's prefix read
// p[len(p)-1] with len(p) >= 1; a query that asks for len(p) == 0 gets,
// from the encoding as from Z3, the empty string.
func readsOutside(ev *sym.Evaluator, c *sym.Expr, model []rt.Value) bool {
	// at returns position i's value, and false if it is negative.
	at := func(i *sym.Expr) (uint64, bool, error) {
		v, err := ev.Eval(i)
		if err != nil || !i.Kind().Signed() {
			return v.Bits, true, err
		}
		x := sym.SignExtend(i.Kind(), v.Bits)
		return uint64(x), x >= 0, nil
	}
	return anyTerm([]*sym.Expr{c}, func(e *sym.Expr) bool {
		if e.Op() != rt.OpIndex && e.Op() != rt.OpSlice {
			return false
		}
		s, err := ev.Eval(e.Arg(0))
		if err != nil {
			return false // the operand's own read is found below
		}
		n := uint64(len(s.Str))
		lo, ok, err := at(e.Arg(1))
		if err != nil {
			return false
		}
		if e.Op() == rt.OpIndex {
			return !ok || lo >= n
		}
		hi, ok2, err := at(e.Arg(2))
		return err == nil && (!ok || !ok2 || lo > hi || hi > n)
	})
}

// beyondLength reports whether c reads a byte of a string beyond the
// string's length in model.
func beyondLength(c *sym.Expr, leaves []rt.Leaf, model []rt.Value) bool {
	for _, p := range partsOf(c, leaves) {
		if p.pos >= 0 && p.pos >= len(model[p.in].Str) {
			return true
		}
	}
	return false
}

// fact returns what the layer knows of constraint c, computing and
// remembering it (per term and layout, see layoutHash) on first use.
func (d *Domains) fact(c *sym.Expr, leaves []rt.Leaf, layout uint64) domainFact {
	key := domainKey{id: c.ID(), layout: layout}
	if f, seen := d.facts.get(key); seen {
		return f
	}
	f := d.compute(c, leaves)
	d.facts.put(key, f)
	return f
}

// compute finds what the layer knows of constraint c.
func (d *Domains) compute(c *sym.Expr, leaves []rt.Leaf) domainFact {
	p, ok := partOf(c, leaves)
	if !ok {
		return domainFact{}
	}
	n := domainSize(leaves, p)
	if n == 0 {
		return domainFact{}
	}
	f := domainFact{ok: true, p: p, allowed: make([]uint64, (n+63)/64)}
	vals := make([]rt.Value, len(leaves))
	for v := range n {
		switch l := leaves[p.in]; {
		case p.pos >= 0:
			b := make([]byte, p.pos+1)
			b[p.pos] = byte(v)
			vals[p.in] = rt.Value{Str: string(b)}
		case l.K == rt.KString:
			vals[p.in] = rt.Value{Str: strings.Repeat("\x00", v)}
		default:
			vals[p.in] = rt.Value{Bits: uint64(v)}
		}
		holds, err := sym.Holds(c, vals)
		if err != nil {
			return domainFact{}
		}
		if holds {
			f.allowed[v/64] |= 1 << (v % 64)
		}
	}
	return f
}

// partOf finds the one part constraint c is about: every input it reads
// is read as a whole small-domain value, as a string's length, or as a
// string's byte at a constant position within the string's bound, and all
// those reads are of the same part.
func partOf(c *sym.Expr, leaves []rt.Leaf) (part, bool) {
	ps := partsOf(c, leaves)
	if len(ps) != 1 || ps[0].pos == wholeString {
		return part{}, false
	}
	return ps[0], true
}

func empty(s []uint64) bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

func member(s []uint64, v int) bool { return v >= 0 && v/64 < len(s) && s[v/64]>>(v%64)&1 == 1 }

// nearest is the allowed value of a whole part (a length, a bool, an
// 8-bit input) closest to seed in the kind's order, the smaller one on a
// tie.
func nearest(s []uint64, n, seed int, l rt.Leaf) int {
	key := func(v int) int64 {
		if l.K.Signed() && !l.IsLen && l.K != rt.KString {
			return ordered(l.K, uint64(v))
		}
		return int64(v)
	}
	if seed >= 0 && seed < n && member(s, seed) {
		return seed
	}
	best, bestDist, bestKey := -1, int64(-1), int64(0)
	sk := key(min(max(seed, 0), n-1))
	for v := range n {
		if !member(s, v) {
			continue
		}
		k := key(v)
		dist := k - sk
		if dist < 0 {
			dist = -dist
		}
		if best < 0 || dist < bestDist || dist == bestDist && k < bestKey {
			best, bestDist, bestKey = v, dist, k
		}
	}
	return best
}

// nearestByte is the byte a string keeps: the seed's if allowed (seed < 0:
// a new byte), else the smallest printable ASCII byte allowed, else the
// smallest allowed.
func nearestByte(s []uint64, seed int) int {
	if member(s, seed) {
		return seed
	}
	for v := ' '; v <= '~'; v++ {
		if member(s, int(v)) {
			return int(v)
		}
	}
	for i, w := range s {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	panic("solver: nearestByte of an empty set")
}
