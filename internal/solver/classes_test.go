package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// parserQuery builds queries of the shapes a parser's path has: s a
// string of at most 5 bytes, t one of at most 3, n a byte, f a bool.
type parserQuery struct {
	c      *sym.Context
	rng    *rand.Rand
	leaves []rt.Leaf
	s, t   *sym.Expr
	n, f   *sym.Expr
}

func newParserQuery(seed uint64) *parserQuery {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 5}, {Path: "t", K: rt.KString, Max: 3}, {Path: "n", K: rt.KUint8}, {Path: "f", K: rt.KBool}}
	return &parserQuery{c: c, rng: rand.New(rand.NewPCG(seed, seed+1)), leaves: leaves,
		s: c.Input(0, rt.KString), t: c.Input(1, rt.KString), n: c.Input(2, rt.KUint8), f: c.Input(3, rt.KBool)}
}

func (g *parserQuery) op() rt.Op { return comparisons[g.rng.IntN(len(comparisons))] }

func (g *parserQuery) int(v int) *sym.Expr { return g.c.Const(rt.KInt, uint64(v)) }

// letter is one of the few bytes the constraints compare with.
func (g *parserQuery) letter() uint64 { return uint64("a.0x9"[g.rng.IntN(5)]) }

// position is a small int: a constant, len(t), n's value, or t[0] - '0'.
func (g *parserQuery) position() *sym.Expr {
	c := g.c
	switch g.rng.IntN(4) {
	case 0:
		return g.int(g.rng.IntN(6))
	case 1:
		return c.Len(g.t)
	case 2:
		return c.Conv(rt.KInt, g.n)
	}
	return c.Binary(rt.OpSub, c.Conv(rt.KInt, c.Index(g.t, g.int(0))), g.int('0'))
}

func (g *parserQuery) constraint() *sym.Expr {
	c := g.c
	byteAt := func(k int) *sym.Expr { return c.Index(g.s, g.int(k)) }
	switch g.rng.IntN(12) {
	case 0: // a byte through a conversion or a mask
		e := byteAt(g.rng.IntN(5))
		if g.rng.IntN(2) == 0 {
			e = c.Binary(rt.OpOr, e, c.Const(rt.KUint8, 32))
		}
		return c.Compare(g.op(), c.Conv(rt.KInt32, e), c.Const(rt.KInt32, g.letter()))
	case 1:
		return c.Compare(g.op(), c.Len(g.s), g.int(g.rng.IntN(6)))
	case 2: // strings.Count
		count := g.int(0)
		for k := range 5 {
			count = c.Binary(rt.OpAdd, count, c.Ite(c.Compare(rt.OpEq, byteAt(k), c.Const(rt.KUint8, '.')), g.int(1), g.int(0)))
		}
		return c.Compare(g.op(), count, g.int(g.rng.IntN(4)))
	case 3: // strings.IndexByte
		at := g.int(-1)
		for k := 4; k >= 0; k-- {
			at = c.Ite(c.Compare(rt.OpEq, byteAt(k), c.Const(rt.KUint8, g.letter())), g.int(k), at)
		}
		return c.Compare(g.op(), at, g.int(g.rng.IntN(6)-1))
	case 4: // a byte at a computed position
		return c.Compare(g.op(), c.Index(g.s, g.position()), c.Const(rt.KUint8, g.letter()))
	case 5: // a slice compared with a constant
		lo := g.position()
		hi := c.Binary(rt.OpAdd, lo, g.int(g.rng.IntN(3)))
		return c.Compare(g.op(), c.Slice(g.s, lo, hi), c.Str([]string{"", ".", "a.", "9x"}[g.rng.IntN(4)]))
	case 6: // a concatenation compared with the other string
		return c.Compare(g.op(), c.Concat(g.t, c.Str(".")), c.Slice(g.s, g.int(0), c.Len(g.s)))
	case 7: // a big-endian field of two bytes
		f := c.Binary(rt.OpOr, c.Binary(rt.OpShl, c.Conv(rt.KUint16, byteAt(0)), c.Const(rt.KUint64, 8)), c.Conv(rt.KUint16, byteAt(1)))
		return c.Compare(g.op(), f, c.Const(rt.KUint16, uint64(g.rng.IntN(3))<<8|g.letter()))
	case 8: // the flag, alone or guarding a byte
		if g.rng.IntN(2) == 0 {
			return c.Compare(rt.OpEq, g.f, c.Bool(g.rng.IntN(2) == 0))
		}
		return c.Or(c.Not(g.f), c.Compare(rt.OpEq, byteAt(g.rng.IntN(5)), g.n))
	case 9: // two bytes compared
		return c.Compare(g.op(), byteAt(g.rng.IntN(5)), c.Index(g.t, g.int(g.rng.IntN(3))))
	case 10: // a slice of s extended (once or twice) compared with the same slice of s
		lo := g.int(g.rng.IntN(2))
		hi := []*sym.Expr{c.Len(g.s), g.int(2 + g.rng.IntN(3)), g.position()}[g.rng.IntN(3)]
		ext := c.Concat(g.s, c.Str("."))
		if g.rng.IntN(2) == 0 {
			ext = c.Concat(ext, c.Str("x"))
		}
		return c.Compare(g.op(), c.Slice(ext, lo, hi), c.Slice(g.s, lo, hi))
	}
	return c.Compare(g.op(), g.n, c.Const(rt.KUint8, g.letter()))
}

func (g *parserQuery) query() Query {
	seeds := []string{"", "a", "a.", "9.x", "1.2.3", "..a"}
	s, t := seeds[g.rng.IntN(len(seeds))], seeds[g.rng.IntN(4)]
	seed := []rt.Value{{Str: s}, {Str: t}, {Bits: uint64(g.rng.IntN(256))}, {Bits: uint64(g.rng.IntN(2))}}
	return Query{Constraints: conjunction(g.rng, 2, 5, g.constraint), Leaves: g.leaves, Seed: seed}
}

// TestClassSearchAgreesWithZ3: on random queries of parser shapes (bytes
// compared with constants, counts, searches, bytes at computed positions,
// slices and concatenations compared with strings, big-endian fields),
// every verdict the class search gives is Z3's, and its models satisfy
// the query by evaluation.
func TestClassSearchAgreesWithZ3(t *testing.T) {
	skipRaceCopy(t)
	g := newParserQuery(11)
	core := NewZ3(Options{})
	defer core.Close()
	c := sym.NewContext()
	decided := map[Status]int{}
	const queries = 600
	for range queries {
		q := g.query()
		got, ok := classSearch(c, nil, q)
		if !ok {
			continue
		}
		decided[got.Status]++
		want, err := core.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if want.Status != Unknown && got.Status != want.Status {
			t.Fatalf("%s\nseed %v: class search %v, Z3 %v", sym.FormatAll(q.Constraints, q.Leaves), q.Seed, got.Status, want.Status)
		}
		if got.Status == Sat {
			checkClassModel(t, q, got.Model)
		}
	}
	t.Logf("decided %d sat, %d unsat of %d", decided[Sat], decided[Unsat], queries)
	if decided[Sat] < queries/4 || decided[Unsat] < queries/10 {
		t.Errorf("decided %d sat, %d unsat of %d queries", decided[Sat], decided[Unsat], queries)
	}
}

// checkClassModel fails t unless every constraint of q holds on model, or
// reads a string's byte beyond the model's length (a byte the encoding
// has and the string does not) or outside it (a 0 byte in the encoding).
func checkClassModel(t *testing.T, q Query, model []rt.Value) {
	t.Helper()
	if err := inDomain(q.Leaves, model); err != nil {
		t.Fatalf("%s: model %v outside the domain: %v", sym.FormatAll(q.Constraints, q.Leaves), model, err)
	}
	for _, e := range q.Constraints {
		holds, err := sym.Holds(e, model)
		if errors.Is(err, sym.ErrUndefined) && (beyondLength(e, q.Leaves, model) || readsOutside(sym.NewEvaluator(model), e, model)) {
			continue
		}
		if err != nil || !holds {
			t.Fatalf("%s: model %v does not satisfy %s", sym.FormatAll(q.Constraints, q.Leaves), model, sym.FormatAll([]*sym.Expr{e}, q.Leaves))
		}
	}
}

// TestClassProgramChosen: a comparison of a string extended once or
// twice with itself (s + "." + "x")[:3] != s[:3] is decided once the
// length makes each byte of the extension the byte of s it is compared
// with, and undecided again when the length changes so that it is not:
// the if-then-elses whose choice changed are evaluated again, and their
// users, though their intervals did not change.
func TestClassProgramChosen(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 4}}
	s := c.Input(0, rt.KString)
	k := func(v int) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	for _, ext := range []*sym.Expr{c.Concat(s, c.Str(".")), c.Concat(c.Concat(s, c.Str(".")), c.Str("x"))} {
		q := Query{Leaves: leaves, Seed: []rt.Value{{Str: "ab"}}, Constraints: []*sym.Expr{
			c.Compare(rt.OpNe, c.Slice(ext, k(0), k(3)), c.Slice(s, k(0), k(3)))}}
		g, ok := newClassGroup(c, q)
		if !ok {
			t.Fatal("not in the fragment")
		}
		p, root := g.prog, g.prog.roots[0]
		for _, n := range []int{3, 2, 4, 1, 3, 0, 4} {
			p.assign(0, uint64(n)) // the length first
			checkProgramCurrent(t, p)
			if want := n >= 3; (p.iv[root].hi == 0) != want {
				t.Errorf("%s with len(s) = %d: interval %v, decided false %v", sym.Format(q.Constraints[0], leaves), n, p.iv[root], want)
			}
			if n%2 == 0 {
				p.unassign(0)
				checkProgramCurrent(t, p)
			}
		}
	}
}

// TestClassProgram: on random assignments of some of a group's vars, the
// compiled program's exact values are the evaluator's, and its intervals
// hold every value the terms take when the other vars range over their
// domains.
func TestClassProgram(t *testing.T) {
	checked := 0
	eachGroup(12, 200, func(g *parserQuery, q Query, grp *classGroup) {
		p := grp.prog
		n := len(grp.vars)
		for range 5 {
			// Assign a random prefix of the vars; complete it randomly
			// several times: every completion's values lie in the
			// intervals.
			d := g.rng.IntN(n + 1)
			for v := range n {
				p.unassign(v)
			}
			fixed := make([]uint64, n)
			for v := range d {
				fixed[v] = randomValue(g.rng, grp.leaves[v])
				p.assign(v, fixed[v])
			}
			// Assign again, and unassign and assign again, as the search
			// does: only the terms whose operands changed are evaluated.
			for range g.rng.IntN(4) {
				if d == 0 {
					break
				}
				v := g.rng.IntN(d)
				if g.rng.IntN(2) == 0 {
					p.unassign(v)
				}
				fixed[v] = randomValue(g.rng, grp.leaves[v])
				p.assign(v, fixed[v])
			}
			checkProgramCurrent(t, p)
			for range 8 {
				in := make([]rt.Value, n)
				for v := range n {
					in[v] = rt.Value{Bits: fixed[v]}
					if v >= d {
						in[v].Bits = randomValue(g.rng, grp.leaves[v])
					}
				}
				ev := sym.NewEvaluator(in)
				for i, e := range p.terms {
					v, err := ev.Eval(e)
					if err != nil {
						continue
					}
					checked++
					n := &p.nodes[i]
					if exact := n.reads.within(p.assigned); exact && (p.bad[i] || p.val[i] != v.Bits) {
						t.Fatalf("%s on %v: program %d (undefined %v), evaluator %d", sym.Format(e, grp.leaves), in, p.val[i], p.bad[i], v.Bits)
					}
					if o, iv := ordered(n.k, v.Bits), p.iv[i]; o < iv.lo || o > iv.hi {
						t.Fatalf("%s on %v: %d outside the interval [%d, %d] (vars below %d assigned)", sym.Format(e, grp.leaves), in, o, iv.lo, iv.hi, d)
					}
				}
			}
		}
	})
	if checked < 1000 {
		t.Errorf("checked %d values", checked)
	}
}

// TestClassCache: the classes a group's vars get from the cache are the
// ones classify computes without it, for queries that share terms and
// differ in their seeds (the order values are preferred in).
func TestClassCache(t *testing.T) {
	skipRaceCopy(t)
	g := newParserQuery(14)
	c := sym.NewContext()
	cache := &classCache{}
	hits := 0
	for range 300 {
		q := g.query()
		seeds := [][]rt.Value{q.Seed, g.query().Seed, q.Seed}
		for _, seed := range seeds {
			// The same constraints with another seed, then the first again.
			q.Seed = seed
			cached, ok := newClassGroup(c, q)
			if !ok {
				break
			}
			fresh, _ := newClassGroup(c, q)
			before := len(cache.m)
			cached.classify(q, cache)
			fresh.classify(q, nil)
			if len(cache.m) == before {
				hits++
			}
			for j := range cached.vars {
				if !slices.Equal(cached.vars[j].values, fresh.vars[j].values) {
					t.Fatalf("%s, seed %v: var %s's classes %v from the cache, %v computed", sym.FormatAll(q.Constraints, q.Leaves), q.Seed, cached.leaves[j].Path, cached.vars[j].values, fresh.vars[j].values)
				}
			}
		}
	}
	if hits < 100 {
		t.Errorf("%d groups classified from the cache alone", hits)
	}
}

// checkProgramCurrent fails t unless every term of p holds what
// evaluating all of them again, in order, gives.
func checkProgramCurrent(t *testing.T, p *classProgram) {
	t.Helper()
	val, bad, iv, choice := slices.Clone(p.val), slices.Clone(p.bad), slices.Clone(p.iv), slices.Clone(p.choice)
	for i := range p.nodes {
		p.eval(int32(i))
	}
	for i := range p.nodes {
		exact := p.nodes[i].reads.within(p.assigned)
		if p.iv[i] != iv[i] || exact && (p.val[i] != val[i] || p.bad[i] != bad[i]) || p.choice[i] != choice[i] {
			t.Fatalf("term %d: kept %d %v %v (choice %d), evaluated again %d %v %v (choice %d)", i, val[i], bad[i], iv[i], choice[i], p.val[i], p.bad[i], p.iv[i], p.choice[i])
		}
	}
}

// TestClassExplain: a constraint false on a partial assignment (exactly,
// or as an interval) is false on every completion that keeps the values
// of the vars explain names, whatever the other vars take.
func TestClassExplain(t *testing.T) {
	checked, narrower := 0, 0
	eachGroup(13, 300, func(g *parserQuery, q Query, grp *classGroup) {
		p := grp.prog
		n := len(grp.vars)
		fixed := assignSome(g, grp)
		for _, r := range p.roots {
			if p.iv[r].hi != 0 {
				continue
			}
			vars, _ := p.explain(r, nil)
			if !vars.within(p.assigned) {
				t.Fatalf("%s: explained by unassigned vars %b (assigned %b)", sym.Format(p.terms[r], grp.leaves), vars, p.assigned)
			}
			if vars != p.nodes[r].reads.and(p.assigned) {
				narrower++
			}
			for range 16 {
				in := make([]rt.Value, n)
				for v := range n {
					in[v] = rt.Value{Bits: randomValue(g.rng, grp.leaves[v])}
					if vars.has(v) {
						in[v].Bits = fixed[v]
					}
				}
				holds, err := sym.Holds(p.terms[r], in)
				if err == nil && holds {
					t.Fatalf("%s: false with %b assigned (%v), explained by %b, but holds on %v", sym.Format(p.terms[r], grp.leaves), p.assigned, fixed, vars, in)
				}
				checked++
			}
		}
	})
	t.Logf("checked %d completions; %d explanations narrower than the assigned vars read", checked, narrower)
	if checked < 1000 || narrower == 0 {
		t.Errorf("checked %d completions, %d explanations narrower", checked, narrower)
	}
}

// TestClassExplainTerms: an explanation in frontier terms holds for
// every completion that gives those terms their values, whatever values
// of the explained vars it takes — not only the vars' values.
func TestClassExplainTerms(t *testing.T) {
	checked, other := 0, 0
	eachGroup(17, 300, func(g *parserQuery, q Query, grp *classGroup) {
		grp.classify(q, nil)
		p := grp.prog
		n := len(grp.vars)
		fixed := assignSome(g, grp)
		// value is frontier term j's value (or undefinedness) with its
		// var at x.
		value := func(j int, v int, x uint64) (uint64, bool) {
			in := make([]rt.Value, n)
			in[v].Bits = x
			r, err := sym.Eval(p.terms[grp.front[j]], in)
			return r.Bits, err != nil
		}
		for _, r := range p.roots {
			if p.iv[r].hi != 0 || p.nodes[r].reads.count() < 2 {
				continue // true, or on one var (decided before the search)
			}
			terms := make([]uint64, (len(grp.front)+63)/64)
			vars, _ := p.explain(r, terms)
			for range 16 {
				in := make([]rt.Value, n)
				for v := range n {
					in[v] = rt.Value{Bits: randomValue(g.rng, grp.leaves[v])}
					if !vars.has(v) {
						continue
					}
					// A value giving v's explained terms their values.
					agrees := func(x uint64) bool {
						for j := grp.frontStart[v]; j < grp.frontStart[v+1]; j++ {
							if terms[j/64]>>(j%64)&1 == 0 {
								continue
							}
							a, abad := value(j, v, x)
							b, bbad := value(j, v, fixed[v])
							if abad != bbad || !abad && a != b {
								return false
							}
						}
						return true
					}
					if !agrees(in[v].Bits) {
						in[v].Bits = fixed[v]
					} else if in[v].Bits != fixed[v] {
						other++
					}
				}
				holds, err := sym.Holds(p.terms[r], in)
				if err == nil && holds {
					t.Fatalf("%s: false with %b assigned (%v), explained by terms %b, but holds on %v", sym.Format(p.terms[r], grp.leaves), p.assigned, fixed, terms, in)
				}
				checked++
			}
		}
	})
	t.Logf("checked %d completions; %d explained vars took another value", checked, other)
	if checked < 1000 || other < 100 {
		t.Errorf("checked %d completions, %d explained vars took another value", checked, other)
	}
}

// assignSome assigns about two thirds of grp's vars random values,
// returned by var (0 for the others).
func assignSome(g *parserQuery, grp *classGroup) []uint64 {
	fixed := make([]uint64, len(grp.vars))
	for v := range fixed {
		if g.rng.IntN(3) > 0 {
			fixed[v] = randomValue(g.rng, grp.leaves[v])
			grp.prog.assign(v, fixed[v])
		}
	}
	return fixed
}

// eachGroup calls f for each of n random queries of parser shapes (from
// seed) that are in the class search's fragment, with its group.
func eachGroup(seed uint64, n int, f func(g *parserQuery, q Query, grp *classGroup)) {
	g := newParserQuery(seed)
	c := sym.NewContext()
	for range n {
		q := g.query()
		if grp, ok := newClassGroup(c, q); ok {
			f(g, q, grp)
		}
	}
}

func randomValue(rng *rand.Rand, l rt.Leaf) uint64 {
	switch {
	case l.IsLen:
		return uint64(rng.IntN(l.Max + 1))
	case l.K == rt.KBool:
		return uint64(rng.IntN(2))
	}
	return uint64("a.0x9\x00\xff"[rng.IntN(7)])
}

// TestClassSearch: the layer decides what it should, passes on what it
// cannot, and counts.
func TestClassSearch(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 4}, {Path: "x", K: rt.KInt64}, {Path: "long", K: rt.KString, Max: 12},
		{Path: "msg", K: rt.KString, Max: 80}, {Path: "huge", K: rt.KString, Max: 200}, {Path: "frame", K: rt.KString, Max: 42}}
	s, x, long := c.Input(0, rt.KString), c.Input(1, rt.KInt64), c.Input(2, rt.KString)
	// pointed is msg[msg[70]] == '!', a pointer into a message of 72 bytes
	// read whole (81 parts), and the same over huge (201 parts).
	pointed := func(in int) []*sym.Expr {
		msg := c.Input(in, rt.KString)
		at := c.Index(msg, c.Conv(rt.KInt, c.Index(msg, c.Const(rt.KInt, 70))))
		return []*sym.Expr{c.Compare(rt.OpEq, c.Len(msg), c.Const(rt.KInt, 72)), c.Compare(rt.OpEq, at, c.Const(rt.KUint8, '!'))}
	}
	// longCount is strings.Count(long, string(b)).
	longCount := func(b byte) *sym.Expr {
		n := c.Const(rt.KInt, 0)
		for k := range 12 {
			in := c.Compare(rt.OpLt, c.Const(rt.KInt, uint64(k)), c.Len(long))
			n = c.Binary(rt.OpAdd, n, c.Ite(c.And(in, c.Compare(rt.OpEq, c.Index(long, c.Const(rt.KInt, uint64(k))), c.Const(rt.KUint8, uint64(b)))), c.Const(rt.KInt, 1), c.Const(rt.KInt, 0)))
		}
		return n
	}
	// found is strings.IndexByte(long, ' ').
	found := c.Const(rt.KInt, uint64(1<<64-1))
	for k := 11; k >= 0; k-- {
		in := c.Compare(rt.OpLt, c.Const(rt.KInt, uint64(k)), c.Len(long))
		found = c.Ite(c.And(in, c.Compare(rt.OpEq, c.Index(long, c.Const(rt.KInt, uint64(k))), c.Const(rt.KUint8, ' '))), c.Const(rt.KInt, uint64(k)), found)
	}
	at := func(k int) *sym.Expr { return c.Index(s, c.Const(rt.KInt, uint64(k))) }
	is := func(e *sym.Expr, b byte) *sym.Expr { return c.Compare(rt.OpEq, e, c.Const(rt.KUint8, uint64(b))) }
	dots := c.Const(rt.KInt, 0)
	for k := range 4 {
		dots = c.Binary(rt.OpAdd, dots, c.Ite(is(at(k), '.'), c.Const(rt.KInt, 1), c.Const(rt.KInt, 0)))
	}
	count := func(op rt.Op, n int) *sym.Expr { return c.Compare(op, dots, c.Const(rt.KInt, uint64(n))) }
	length := func(op rt.Op, n int) *sym.Expr { return c.Compare(op, c.Len(s), c.Const(rt.KInt, uint64(n))) }
	tests := []struct {
		name   string
		cons   []*sym.Expr
		want   Status
		passed bool   // passed on to the next solver
		model  string // s in the model, if Sat
	}{
		{"two dots, the seed's", []*sym.Expr{length(rt.OpEq, 4), count(rt.OpEq, 2)}, Sat, false, "1.2."},
		{"three dots in four bytes, two of them digits", []*sym.Expr{length(rt.OpEq, 4), count(rt.OpEq, 3), c.Not(is(at(0), '.')), c.Not(is(at(1), '.'))}, Unsat, false, ""},
		{"the last byte a dot, and no dot", []*sym.Expr{length(rt.OpGt, 0), count(rt.OpEq, 0), is(c.Index(s, c.Binary(rt.OpSub, c.Len(s), c.Const(rt.KInt, 1))), '.')}, Unsat, false, ""},
		{"the last byte read before, and now no byte", []*sym.Expr{c.Not(is(at(0), '-')), c.Not(is(c.Index(s, c.Binary(rt.OpSub, c.Len(s), c.Const(rt.KInt, 1))), '/')), length(rt.OpEq, 0)}, Sat, false, ""},
		{"the last byte a slash, and now no byte", []*sym.Expr{is(c.Index(s, c.Binary(rt.OpSub, c.Len(s), c.Const(rt.KInt, 1))), '/'), length(rt.OpEq, 0)}, Unsat, false, ""},
		{"the last byte of a slice read before, and now a slice past the end", []*sym.Expr{c.Not(is(c.Index(c.Slice(s, c.Const(rt.KInt, 2), c.Len(s)), c.Binary(rt.OpSub, c.Binary(rt.OpSub, c.Len(s), c.Const(rt.KInt, 2)), c.Const(rt.KInt, 1))), '.')), length(rt.OpEq, 1)}, Sat, false, "1"},
		{"the length alone", []*sym.Expr{length(rt.OpEq, 1)}, Sat, false, "1"},
		{"the byte a search found, where no byte can be", []*sym.Expr{c.Compare(rt.OpLe, c.Conv(rt.KUint64, found), c.Conv(rt.KUint64, c.Len(long))), c.Compare(rt.OpGe, c.Index(long, found), c.Const(rt.KUint8, 128))}, Unsat, false, ""},
		{"more dots and letters than twelve bytes hold, a search beyond the small groups' bound", []*sym.Expr{c.Compare(rt.OpGe, longCount('.'), c.Const(rt.KInt, 9)), c.Compare(rt.OpGe, longCount('a'), c.Const(rt.KInt, 6))}, Unsat, false, ""},
		{"a 64-bit input", []*sym.Expr{count(rt.OpEq, 1), c.Compare(rt.OpEq, x, c.Conv(rt.KInt64, at(0)))}, Unknown, true, ""},
		{"a string unequal to a prefix of itself extended", []*sym.Expr{c.Compare(rt.OpEq, c.Len(long), c.Const(rt.KInt, 10)),
			c.Compare(rt.OpNe, c.Slice(c.Concat(long, c.Str(".0")), c.Const(rt.KInt, 0), c.Const(rt.KInt, 10)), c.Slice(long, c.Const(rt.KInt, 0), c.Const(rt.KInt, 10)))}, Unsat, false, ""},
		{"a pointer into a message of more than 64 parts", pointed(3), Sat, false, "1.2."},
		{"a pointer into a message of more parts than the search takes", pointed(4), Unknown, true, ""},
		{"two offsets checked against the length, decided once narrowed", offsets(c, 5), Sat, false, "1.2."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Metrics{}
			called := false
			q := Query{Constraints: tt.cons, Leaves: leaves, Seed: []rt.Value{{Str: "1.2."}, {}, {Str: "a b"}, {}, {}, {Str: strings.Repeat("\x00", 39)}}}
			r, err := NewClasses(record{&called}, m).Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if called != tt.passed {
				t.Fatalf("passed on: %v, want %v", called, tt.passed)
			}
			if tt.passed {
				return
			}
			if r.Status != tt.want || m.Snapshot().ClassHits != 1 {
				t.Fatalf("got %v (%d counted), want %v", r.Status, m.Snapshot().ClassHits, tt.want)
			}
			if tt.want == Sat && r.Model[0].Str != tt.model {
				t.Errorf("model s = %q, want %q", r.Model[0].Str, tt.model)
			}
			if tt.want == Sat {
				for _, e := range tt.cons {
					// (Undefined ones read outside a string, where the
					// encoding reads 0: see readsOutside.)
					if holds, err := sym.Holds(e, r.Model); err == nil && !holds {
						t.Errorf("model %v: %s does not hold", r.Model, sym.Format(e, leaves))
					}
				}
			}
		})
	}
}

// offsets is what a DNS message's parser asks of input in, a string of at
// most 42 bytes, once it has read two 16-bit big-endian offsets, x at 21
// and y at 28: x + 23 <= len, x + 23 > 26, y + 30 < x + 23 and y + 32 >
// len, which only len == x + 23 == y + 31 meets. The class search alone
// gives up on it; narrowed (classGroup.narrow), each offset keeps one
// high byte and a dozen low ones.
func offsets(c *sym.Context, in int) []*sym.Expr {
	msg := c.Input(in, rt.KString)
	field := func(at int) *sym.Expr {
		hi := c.Binary(rt.OpShl, c.Conv(rt.KUint16, c.Index(msg, c.Const(rt.KInt, uint64(at)))), c.Const(rt.KUint64, 8))
		return c.Conv(rt.KInt64, c.Binary(rt.OpOr, hi, c.Conv(rt.KUint16, c.Index(msg, c.Const(rt.KInt, uint64(at+1))))))
	}
	plus := func(e *sym.Expr, n int64) *sym.Expr { return c.Binary(rt.OpAdd, e, c.Const(rt.KInt64, uint64(n))) }
	n := c.Conv(rt.KInt64, c.Len(msg))
	x, y := field(21), field(28)
	return []*sym.Expr{
		c.Compare(rt.OpGe, n, c.Const(rt.KInt64, 30)),
		c.Compare(rt.OpLe, plus(x, 23), n),
		c.Compare(rt.OpGt, plus(x, 23), c.Const(rt.KInt64, 26)),
		c.Compare(rt.OpLt, plus(y, 30), plus(x, 23)),
		c.Compare(rt.OpGt, plus(y, 32), n),
	}
}

// TestClassNarrow: narrowing a group removes no solution, so the search
// finds the model an unbounded search finds without it, and in fewer
// assignments (from 39 zero bytes, 221 instead of 4,315: beyond the
// bound without).
func TestClassNarrow(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "frame", K: rt.KString, Max: 42}}
	for _, seed := range []string{"", strings.Repeat("\x00", 39), strings.Repeat("\x01", 42)} {
		q := Query{Constraints: offsets(c, 0), Leaves: leaves, Seed: []rt.Value{{Str: seed}}}
		search := func(narrow bool) ([]uint64, int) {
			g, ok := newClassGroup(sym.NewContext(), q)
			if !ok {
				t.Fatal("outside the fragment")
			}
			g.classify(q, nil)
			if narrow && !g.narrow(q) {
				t.Fatal("nothing narrowed")
			}
			g.maxNodes, g.maxWork, g.maxWalk = 1<<30, 1<<30, 1<<30
			found, ok := g.search()
			if !found || !ok {
				t.Fatalf("narrow %v: found %v, ok %v", narrow, found, ok)
			}
			return slices.Clone(g.prog.vars), g.nodes
		}
		want, before := search(false)
		got, after := search(true)
		if !slices.Equal(got, want) {
			t.Errorf("seed %q: narrowed, the model is %v, want %v", seed, got, want)
		}
		if after >= before || after > maxClassNodes {
			t.Errorf("seed %q: %d assignments narrowed, %d without (bound %d)", seed, after, before, maxClassNodes)
		}
	}
}

// TestClassBounds: small groups get the base bounds; a group of 128
// terms or more gets classScale terms evaluated per term, and the other
// bounds in proportion.
func TestClassBounds(t *testing.T) {
	tests := []struct {
		terms, scale int
	}{
		{0, 1}, {127, 1}, {128, 2}, {1000, 15}, {3068, 47},
	}
	for _, tt := range tests {
		nodes, work, walk := classBounds(tt.terms)
		if nodes != maxClassNodes*tt.scale || work != maxClassWork*tt.scale || walk != maxClassWalk*tt.scale {
			t.Errorf("classBounds(%d) = %d, %d, %d, want %d times %d, %d, %d", tt.terms, nodes, work, walk, tt.scale, maxClassNodes, maxClassWork, maxClassWalk)
		}
	}
}
