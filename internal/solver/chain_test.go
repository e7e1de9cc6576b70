package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// recorder is a Solver that records the queries it gets and passes them on.
// comparisons are the comparison operators, for random queries.
var comparisons = []rt.Op{rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe}

type recorder struct {
	next    Solver
	queries []Query
}

func (r *recorder) Solve(ctx context.Context, q Query) (Result, error) {
	r.queries = append(r.queries, q)
	return r.next.Solve(ctx, q)
}

// pathFixture is a path condition over four int32 inputs a, b, c, d whose
// seed (1, 2, 3, 4) satisfies every constraint but the last, negated one.
type pathFixture struct {
	c      *sym.Context
	leaves []rt.Leaf
	seed   []rt.Value
	in     []*sym.Expr
}

func newPathFixture() *pathFixture {
	f := &pathFixture{c: sym.NewContext()}
	for i, name := range []string{"a", "b", "c", "d"} {
		f.leaves = append(f.leaves, rt.Leaf{Path: name, K: rt.KInt32})
		f.seed = append(f.seed, rt.Value{Bits: uint64(i + 1)})
		f.in = append(f.in, f.c.Input(i, rt.KInt32))
	}
	return f
}

func (f *pathFixture) k(v int) *sym.Expr { return f.c.Const(rt.KInt32, uint64(v)) }

func TestIndependenceSlicesToTheNegatedBranch(t *testing.T) {
	f := newPathFixture()
	c, a, b, cc, d := f.c, f.in[0], f.in[1], f.in[2], f.in[3]
	prefix := []*sym.Expr{
		c.Compare(rt.OpLt, a, b),                               // a < b
		c.Compare(rt.OpGt, cc, f.k(0)),                         // c > 0
		c.Compare(rt.OpLt, c.Binary(rt.OpAdd, b, cc), f.k(10)), // b + c < 10: joins b and c
		c.Compare(rt.OpNe, d, f.k(0)),                          // d != 0: independent
	}
	flip := c.Not(c.Compare(rt.OpGe, a, f.k(1))) // the seed (a == 1) takes a >= 1; ask for the other side
	core := NewZ3(Options{})
	defer core.Close()
	rec := &recorder{next: core}
	m := &Metrics{}
	s := NewIndependence(rec, m)
	q := Query{Constraints: append(prefix, flip), Leaves: f.leaves, Seed: f.seed}
	r := mustSolve(t, s, q)
	checkModel(t, q, r)
	if len(rec.queries) != 1 {
		t.Fatalf("%d queries reached the core, want 1", len(rec.queries))
	}
	got := rec.queries[0].Constraints
	want := []*sym.Expr{prefix[0], prefix[1], prefix[2], flip} // a, b, c are linked; d is not
	if len(got) != len(want) {
		t.Fatalf("sliced to %s, want %s", sym.FormatAll(got, f.leaves), sym.FormatAll(want, f.leaves))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sliced to %s, want %s", sym.FormatAll(got, f.leaves), sym.FormatAll(want, f.leaves))
		}
	}
	if r.Model[3] != f.seed[3] {
		t.Errorf("d changed from %v to %v although it is independent", f.seed[3], r.Model[3])
	}
	if st := m.Snapshot(); st.Groups != 1 || st.Sliced != 4 {
		t.Errorf("stats %+v, want one group of 4 constraints", st)
	}

	// A group the seed violates is solved too, even if it is not the
	// last constraint's.
	rec.queries = nil
	q.Constraints = []*sym.Expr{c.Compare(rt.OpEq, d, f.k(77)), flip}
	r = mustSolve(t, s, q)
	checkModel(t, q, r)
	if len(rec.queries) != 2 {
		t.Errorf("%d groups solved, want 2", len(rec.queries))
	}
}

// TestIndependenceSlicesStringsByParts: a string's length and its bytes at
// constant positions are sliced apart, so the core sees only the negated
// branch's bytes; a comparison of the whole string ties every part.
func TestIndependenceSlicesStringsByParts(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{{Path: "s", K: rt.KString, Max: 6}, {Path: "n", K: rt.KInt64}}
	s, n := c.Input(0, rt.KString), c.Input(1, rt.KInt64)
	at := func(k int) *sym.Expr { return c.Conv(rt.KInt64, c.Index(s, c.Const(rt.KInt, uint64(k)))) }
	k64 := func(v int64) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	prefix := []*sym.Expr{
		c.Compare(rt.OpGt, c.Len(s), c.Const(rt.KInt, 3)),           // len(s) > 3
		c.Compare(rt.OpEq, at(0), k64('x')),                         // s[0] == 'x'
		c.Compare(rt.OpLt, c.Binary(rt.OpMul, at(1), n), k64(1000)), // s[1]*n < 1000: joins s[1] and n
	}
	// The negated branch: s[2] + s[3] == 200 (the seed's are 'c' + 'd').
	flip := c.Compare(rt.OpEq, c.Binary(rt.OpAdd, at(2), at(3)), k64(200))
	core := NewZ3(Options{})
	defer core.Close()
	rec := &recorder{next: core}
	ind := NewIndependence(rec, &Metrics{})
	seed := []rt.Value{{Str: "xbcd"}, {Bits: 3}}
	q := Query{Constraints: append(prefix, flip), Leaves: leaves, Seed: seed}
	r := mustSolve(t, ind, q)
	checkModel(t, q, r)
	if len(rec.queries) != 1 || len(rec.queries[0].Constraints) != 1 || rec.queries[0].Constraints[0] != flip {
		t.Fatalf("the core got %d queries (first: %v), want the negated branch alone", len(rec.queries), rec.queries)
	}
	if m := r.Model[0].Str; len(m) != 4 || m[:2] != "xb" || r.Model[1] != seed[1] {
		t.Errorf("model %q, %v: want the parts outside the negated branch kept", m, r.Model[1])
	}

	// A whole-string comparison ties the length and every byte.
	rec.queries = nil
	whole := c.Compare(rt.OpNe, s, c.Str("xbcd"))
	q.Constraints = append(append([]*sym.Expr(nil), prefix...), whole, flip)
	r = mustSolve(t, ind, q)
	checkModel(t, q, r)
	if len(rec.queries) != 1 || len(rec.queries[0].Constraints) != 5 {
		t.Fatalf("the core got %d queries, want one of the 5 constraints on s", len(rec.queries))
	}
}

func TestCachingHits(t *testing.T) {
	f := newPathFixture()
	c, a, b := f.c, f.in[0], f.in[1]
	core := NewZ3(Options{})
	defer core.Close()
	rec := &recorder{next: core}
	m := &Metrics{}
	s := NewCaching(rec, m, 0, 0)
	solve := func(seed []rt.Value, conds ...*sym.Expr) Result {
		t.Helper()
		q := Query{Constraints: conds, Leaves: f.leaves, Seed: seed}
		r := mustSolve(t, s, q)
		if r.Status == Sat {
			checkModel(t, q, r)
		}
		return r
	}
	big := c.Compare(rt.OpGt, c.Binary(rt.OpMul, a, f.k(3)), f.k(1000)) // a*3 > 1000
	pos := c.Compare(rt.OpGt, a, f.k(0))
	none := []*sym.Expr{c.Compare(rt.OpGt, b, f.k(5)), c.Compare(rt.OpLt, b, f.k(3))} // unsat

	r1 := solve(f.seed, pos, big)
	if r1.Cached || len(rec.queries) != 1 {
		t.Fatalf("first query: cached %v, %d core calls", r1.Cached, len(rec.queries))
	}
	// The same set in another order, from another seed: exact hit.
	otherSeed := []rt.Value{{Bits: 1}, {Bits: 9}, {Bits: 9}, {Bits: 9}}
	r2 := solve(otherSeed, big, pos)
	if !r2.Cached || len(rec.queries) != 1 {
		t.Fatalf("same set: cached %v, %d core calls", r2.Cached, len(rec.queries))
	}
	if r2.Model[0] != r1.Model[0] || r2.Model[1] != otherSeed[1] {
		t.Errorf("exact hit model %+v: want a from the first model and b from the new seed", r2.Model)
	}
	// A weaker query that the earlier model satisfies: counterexample hit.
	r3 := solve(f.seed, c.Compare(rt.OpGt, a, f.k(100)))
	if !r3.Cached || len(rec.queries) != 1 {
		t.Fatalf("weaker query: cached %v, %d core calls", r3.Cached, len(rec.queries))
	}
	// Unsat answers are cached.
	solve(f.seed, none...)
	if r := solve(otherSeed, none[1], none[0]); r.Status != Unsat || !r.Cached {
		t.Fatalf("repeated unsat: %v cached %v", r.Status, r.Cached)
	}
	if len(rec.queries) != 2 {
		t.Errorf("%d core calls, want 2", len(rec.queries))
	}
	st := m.Snapshot()
	if st.CacheHits != 2 || st.ModelHits != 1 {
		t.Errorf("stats %+v, want 2 cache hits and 1 model hit", st)
	}
	// A different domain is a different query.
	leaves := append([]rt.Leaf(nil), f.leaves...)
	leaves[1].IsLen, leaves[1].Max = true, 4
	r := mustSolve(t, s, Query{Constraints: []*sym.Expr{none[1], none[0]}, Leaves: leaves, Seed: f.seed})
	if r.Cached {
		t.Error("answer cached across different input domains")
	}
}

func TestSeedPreference(t *testing.T) {
	c := sym.NewContext()
	x, y := c.Input(0, rt.KInt64), c.Input(1, rt.KInt64)
	s := c.Input(2, rt.KString)
	leaves := []rt.Leaf{{Path: "x", K: rt.KInt64}, {Path: "y", K: rt.KInt64}, {Path: "s", K: rt.KString, Max: 8}, {Path: "z", K: rt.KBool}}
	seed := []rt.Value{{Bits: 7}, {Bits: 3}, {Str: "seedling"}, {Bits: 1}}
	n := func(v int) *sym.Expr { return c.Const(rt.KInt64, uint64(v)) }
	conds := []*sym.Expr{
		c.Compare(rt.OpGt, c.Binary(rt.OpAdd, x, y), n(5)), // the seed satisfies this: keep x == 7
		c.Compare(rt.OpNe, y, n(3)),                        // the seed violates this: y moves
		c.Compare(rt.OpLt, c.Const(rt.KInt, 1), c.Len(s)),  // the bounds check the run records
		c.Compare(rt.OpEq, c.Index(s, n(1)), c.Const(rt.KUint8, 'X')),
	}
	core := NewZ3(Options{})
	defer core.Close()
	q := Query{Constraints: conds, Leaves: leaves, Seed: seed}
	r := mustSolve(t, core, q)
	checkModel(t, q, r)
	if r.Model[0].Bits != 7 {
		t.Errorf("x = %d, want the seed's 7", int64(r.Model[0].Bits))
	}
	if r.Model[2].Str != "sXedling" {
		t.Errorf("s = %q, want the seed with one byte changed, \"sXedling\"", r.Model[2].Str)
	}
	if r.Model[3] != seed[3] {
		t.Errorf("unmentioned z = %+v, want the seed's", r.Model[3])
	}

	plain := NewZ3(Options{KeepSeed: true})
	defer plain.Close()
	r = mustSolve(t, plain, q)
	checkModel(t, q, r)
	if r.Model[3] != seed[3] {
		t.Errorf("KeepSeed: unmentioned z = %+v, want the seed's", r.Model[3])
	}
}

func TestDeterministicModels(t *testing.T) {
	f := newPathFixture()
	c, a, b := f.c, f.in[0], f.in[1]
	conds := []*sym.Expr{
		c.Compare(rt.OpGt, c.Binary(rt.OpMul, a, b), f.k(1000)),
		c.Compare(rt.OpEq, c.Binary(rt.OpRem, a, f.k(13)), f.k(5)),
	}
	q := Query{Constraints: conds, Leaves: f.leaves, Seed: f.seed}
	history := func(i int) Query {
		return Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, c.Binary(rt.OpXor, a, b), f.k(i*77))}, Leaves: f.leaves, Seed: f.seed}
	}
	same := func(x, y []rt.Value) bool {
		for j := range x {
			if x[j] != y[j] {
				return false
			}
		}
		return len(x) == len(y)
	}

	// With a fresh context per query, earlier queries do not matter.
	var first []rt.Value
	for i := range 4 {
		core := NewZ3(Options{ContextQueries: 1})
		for j := range i {
			mustSolve(t, core, history(j))
		}
		r := mustSolve(t, core, q)
		checkModel(t, q, r)
		core.Close()
		if first == nil {
			first = r.Model
		} else if !same(r.Model, first) {
			t.Fatalf("history of %d queries: model %+v differs from %+v", i, r.Model, first)
		}
	}

	// With shared contexts, the same sequence gives the same answers.
	var answers [][]rt.Value
	for run := range 2 {
		core := NewZ3(Options{})
		for i := range 6 {
			r := mustSolve(t, core, history(i))
			if run == 0 {
				answers = append(answers, r.Model)
			} else if !same(r.Model, answers[i]) {
				t.Fatalf("replay, query %d: model %+v differs from %+v", i, r.Model, answers[i])
			}
		}
		core.Close()
	}
}

// hardQuery asks to factor a 64-bit semiprime with 32-bit factors, which
// takes Z3 far longer than the time bounds below.
func hardQuery() Query {
	c := sym.NewContext()
	x, y := c.Input(0, rt.KUint64), c.Input(1, rt.KUint64)
	k := func(v uint64) *sym.Expr { return c.Const(rt.KUint64, v) }
	return Query{
		Constraints: []*sym.Expr{
			c.Compare(rt.OpLt, k(1), x), c.Compare(rt.OpLt, k(1), y),
			c.Compare(rt.OpLt, x, k(1<<32)), c.Compare(rt.OpLt, y, k(1<<32)),
			c.Compare(rt.OpEq, c.Binary(rt.OpMul, x, y), k(0xd3c21bcecceda1)),
		},
		Leaves: []rt.Leaf{{Path: "x", K: rt.KUint64}, {Path: "y", K: rt.KUint64}},
		Seed:   make([]rt.Value, 2),
	}
}

func TestTimeouts(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
	}{
		{"option", Options{Timeout: 50 * time.Millisecond}, 0, nil},
		{"query", Options{}, 50 * time.Millisecond, nil},
		{"context deadline", Options{}, 0, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.Background(), func() {}
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			chain := New(Config{Options: tt.opts})
			defer chain.Close()
			q := hardQuery()
			q.Timeout = tt.timeout
			start := time.Now()
			r, err := chain.Solve(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status == Sat {
				t.Skipf("the hard query was solved in %v", time.Since(start))
			}
			if r.Status != Unknown || !r.TimedOut {
				t.Errorf("%v (timed out %v, %s), want a timed-out unknown", r.Status, r.TimedOut, r.Why)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("a 50ms bound took %v", el)
			}
			if st := chain.Stats(); st.Unknown != 1 || st.Timeouts != 1 {
				t.Errorf("stats %+v", st)
			}
			// The next query on the same chain works.
			easy := hardQuery()
			easy.Constraints = easy.Constraints[:2]
			if r := mustSolve(t, chain, easy); r.Status != Sat {
				t.Errorf("query after a time-out: %v (%s)", r.Status, r.Why)
			}
		})
	}
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		chain := New(Config{})
		defer chain.Close()
		r, err := chain.Solve(ctx, hardQuery())
		if r.Status == Sat {
			t.Skip("the hard query was solved")
		}
		if r.Status != Unknown || !errors.Is(err, context.Canceled) {
			t.Errorf("%v, %v; want unknown and context.Canceled", r.Status, err)
		}
	})
}

func TestMalformedQueries(t *testing.T) {
	c := sym.NewContext()
	x := c.Input(0, rt.KInt8)
	chain := New(Config{})
	defer chain.Close()
	tests := []struct {
		name string
		q    Query
	}{
		{"seed of the wrong length", Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, x, c.Const(rt.KInt8, 1))}, Leaves: []rt.Leaf{{K: rt.KInt8}}}},
		{"input beyond the leaves", Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, c.Input(3, rt.KInt8), x)}, Leaves: []rt.Leaf{{K: rt.KInt8}}, Seed: make([]rt.Value, 1)}},
		{"non-bool constraint", Query{Constraints: []*sym.Expr{x}, Leaves: []rt.Leaf{{K: rt.KInt8}}, Seed: make([]rt.Value, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := chain.Solve(context.Background(), tt.q); err == nil {
				t.Error("no error")
			}
		})
	}
	// An input whose kind disagrees with its leaf cannot be encoded.
	core := NewZ3(Options{})
	defer core.Close()
	q := Query{Constraints: []*sym.Expr{c.Compare(rt.OpEq, x, c.Const(rt.KInt8, 1))}, Leaves: []rt.Leaf{{K: rt.KUint16}}, Seed: make([]rt.Value, 1)}
	if _, err := core.Solve(context.Background(), q); err == nil {
		t.Error("kind mismatch accepted")
	}
}

func TestChainIsSafeForConcurrentUse(t *testing.T) {
	chain := New(Config{Cores: 2})
	defer chain.Close()
	f := newPathFixture()
	c, a := f.c, f.in[0]
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				conds := []*sym.Expr{c.Compare(rt.OpEq, c.Binary(rt.OpMul, a, f.k(3)), f.k(g*1000+i*3))}
				q := Query{Constraints: conds, Leaves: f.leaves, Seed: f.seed}
				r, err := chain.Solve(context.Background(), q)
				if err != nil {
					t.Error(err)
					return
				}
				checkModel(t, q, r)
			}
		})
	}
	wg.Wait()
	if st := chain.Stats(); st.Queries != 80 || st.Sat != 80 {
		t.Errorf("stats %+v", st)
	}
}

func TestCachingBounds(t *testing.T) {
	f := newPathFixture()
	core := NewZ3(Options{})
	defer core.Close()
	s := NewCaching(core, nil, 3, 2)
	for i := range 5 {
		conds := []*sym.Expr{f.c.Compare(rt.OpEq, f.in[0], f.k(100+i))}
		mustSolve(t, s, Query{Constraints: conds, Leaves: f.leaves, Seed: f.seed})
	}
	layout := layoutKey(f.leaves)
	if n := len(s.models[layout]); n != 2 {
		t.Errorf("%d recent models kept, want 2", n)
	}
	if got := s.models[layout][1][0].Bits; got != 104 {
		t.Errorf("newest model has a = %d, want 104", got)
	}
	if len(s.answers) != 3 || len(s.order) != 3 {
		t.Errorf("%d answers (%d keys) kept, want 3", len(s.answers), len(s.order))
	}
}

// TestGroupByComponents checks groupBy against a closure computed the
// slow way, over random constraints: each group is a connected component
// of the constraints by shared keys, constraints keep their order in it,
// groups come in the order of their first constraints, and constraints
// without keys are groups of their own.
func TestGroupByComponents(t *testing.T) {
	c := sym.NewContext()
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 300 {
		n := 1 + rng.IntN(30)
		cs := make([]*sym.Expr, n)
		keys := make([][]int, n)
		for i := range cs {
			cs[i] = c.Compare(rt.OpEq, c.Input(i, rt.KInt), c.Const(rt.KInt, uint64(trial)))
			for range rng.IntN(4) {
				keys[i] = append(keys[i], rng.IntN(2*n))
			}
		}
		// The slow way: grow each component from its first constraint.
		component := make([]int, n)
		for i := range component {
			component[i] = -1
		}
		var want [][]*sym.Expr
		for i := range cs {
			if component[i] >= 0 {
				continue
			}
			g := len(want)
			component[i] = g
			if len(keys[i]) > 0 {
				for changed := true; changed; {
					changed = false
					for j := range cs {
						if component[j] >= 0 || len(keys[j]) == 0 {
							continue
						}
						for k := range cs {
							if component[k] == g && slices.ContainsFunc(keys[j], func(x int) bool { return slices.Contains(keys[k], x) }) {
								component[j], changed = g, true
								break
							}
						}
					}
				}
			}
			var group []*sym.Expr
			for j := range cs {
				if component[j] == g {
					group = append(group, cs[j])
				}
			}
			want = append(want, group)
		}
		got := groupBy(cs, keys)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d groups, want %d (keys %v)", trial, len(got), len(want), keys)
		}
		for g := range want {
			if !slices.Equal(got[g], want[g]) {
				t.Fatalf("trial %d: group %d differs (keys %v)", trial, g, keys)
			}
		}
	}
}
