package solver

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// miniProgram is a stand-in for an instrumented function: a fixed list of
// branch conditions over a []byte, a string and an int64, shaped like a
// parser with a header, a checksum loop, string tests and arithmetic. A
// run's path is the value of every condition on its input.
type miniProgram struct {
	leaves []rt.Leaf
	conds  []*sym.Expr
}

const miniMax = 12

func newMiniProgram(c *sym.Context) *miniProgram {
	p := &miniProgram{leaves: []rt.Leaf{{Path: "len(b)", K: rt.KInt, IsLen: true, Max: miniMax}}}
	for i := range miniMax {
		p.leaves = append(p.leaves, rt.Leaf{Path: fmt.Sprintf("b[%d]", i), K: rt.KUint8})
	}
	p.leaves = append(p.leaves, rt.Leaf{Path: "s", K: rt.KString, Max: 8}, rt.Leaf{Path: "x", K: rt.KInt64})
	n := func(v int64) *sym.Expr { return c.Const(rt.KInt, uint64(v)) }
	u8 := func(v byte) *sym.Expr { return c.Const(rt.KUint8, uint64(v)) }
	blen := c.Input(0, rt.KInt)
	b := func(i int) *sym.Expr { return c.Input(1+i, rt.KUint8) }
	s := c.Input(1+miniMax, rt.KString)
	x := c.Input(2+miniMax, rt.KInt64)
	add := func(e *sym.Expr) { p.conds = append(p.conds, e) }

	add(c.Compare(rt.OpGe, blen, n(4)))
	add(c.Compare(rt.OpEq, b(0), u8('D')))
	add(c.Compare(rt.OpEq, b(1), u8('W')))
	size := c.Binary(rt.OpOr, c.Binary(rt.OpShl, c.Conv(rt.KInt, b(2)), u8(8)), c.Conv(rt.KInt, b(3)))
	add(c.Compare(rt.OpLe, size, c.Binary(rt.OpSub, blen, n(4))))
	sum := c.Const(rt.KUint8, 0)
	for i := 4; i < miniMax-1; i++ {
		add(c.Compare(rt.OpLt, n(int64(i)), blen))
		add(c.Compare(rt.OpNe, b(i), u8(0)))
		sum = c.Binary(rt.OpAdd, sum, c.Binary(rt.OpXor, b(i), u8(byte(i))))
	}
	add(c.Compare(rt.OpEq, sum, b(miniMax-1)))
	add(c.Compare(rt.OpGt, c.Len(s), n(3)))
	add(c.Compare(rt.OpEq, c.Index(s, n(0)), u8('x')))
	add(c.Compare(rt.OpEq, s, c.Str("dowse")))
	add(c.Compare(rt.OpLt, s, c.Str("m")))
	add(c.Compare(rt.OpGt, c.Binary(rt.OpAdd, c.Binary(rt.OpMul, x, c.Const(rt.KInt64, 3)), c.Const(rt.KInt64, 7)), c.Const(rt.KInt64, 100)))
	add(c.Compare(rt.OpEq, c.Binary(rt.OpRem, x, c.Const(rt.KInt64, 5)), c.Const(rt.KInt64, 2)))
	add(c.Compare(rt.OpLt, c.Binary(rt.OpShr, x, u8(3)), c.Const(rt.KInt64, 1000)))
	return p
}

// path returns the conditions as taken on in.
func (p *miniProgram) path(c *sym.Context, in []rt.Value) []*sym.Expr {
	out := make([]*sym.Expr, len(p.conds))
	for i, e := range p.conds {
		ok, err := sym.Holds(e, in)
		if err != nil {
			ok = false
		}
		if ok {
			out[i] = e
		} else {
			out[i] = c.Not(e)
		}
	}
	return out
}

// explore runs a bounded generational search over the mini program and
// returns the number of queries.
func explore(tb testing.TB, s Solver, c *sym.Context, p *miniProgram, runs int) int {
	seed := make([]rt.Value, len(p.leaves))
	// Inputs whose path takes a branch direction no earlier model took
	// run first, as in the explorer's coverage-guided search.
	var fresh, queue [][]rt.Value
	fresh = append(fresh, seed)
	taken := map[*sym.Expr]bool{}
	seen := map[string]bool{}
	queries := 0
	for r := 0; r < runs && len(fresh)+len(queue) > 0; r++ {
		var in []rt.Value
		if len(fresh) > 0 {
			in, fresh = fresh[0], fresh[1:]
		} else {
			in, queue = queue[0], queue[1:]
		}
		path := p.path(c, in)
		key := fmt.Sprint(path)
		if seen[key] {
			continue
		}
		seen[key] = true
		for i := range path {
			conds := append(path[:i:i], c.Not(path[i]))
			res, err := s.Solve(context.Background(), Query{Constraints: conds, Leaves: p.leaves, Seed: in})
			if err != nil {
				tb.Fatal(err)
			}
			queries++
			if res.Status != Sat {
				continue
			}
			isNew := false
			for _, e := range p.path(c, res.Model) {
				if !taken[e] {
					taken[e], isNew = true, true
				}
			}
			if isNew {
				fresh = append(fresh, res.Model)
			} else {
				queue = append(queue, res.Model)
			}
		}
	}
	return queries
}

// coreTimer records the duration of each query that reaches the core.
type coreTimer struct {
	next Solver
	ds   []time.Duration
}

func (s *coreTimer) Solve(ctx context.Context, q Query) (Result, error) {
	start := time.Now()
	r, err := s.next.Solve(ctx, q)
	s.ds = append(s.ds, time.Since(start))
	return r, err
}

// BenchmarkPathQueries measures the default chain on the query mix of a
// generational search: every prefix of a path with its last branch negated.
func BenchmarkPathQueries(b *testing.B) {
	for _, reuse := range []int{1, DefaultContextQueries} {
		b.Run(fmt.Sprintf("context-queries=%d", reuse), func(b *testing.B) {
			m := &Metrics{}
			var times []time.Duration
			queries := 0
			for i := 0; i < b.N; i++ {
				c := sym.NewContext()
				core := NewZ3(Options{ContextQueries: reuse, Metrics: m})
				timer := &coreTimer{next: core}
				chain := NewIndependence(NewCaching(timer, m, 0, 0), m)
				queries += explore(b, chain, c, newMiniProgram(c), 40)
				core.Close()
				times = append(times, timer.ds...)
			}
			el := b.Elapsed()
			st := m.Snapshot()
			slices.Sort(times)
			b.ReportMetric(float64(el.Microseconds())/float64(queries), "µs/query")
			b.ReportMetric(float64(st.CoreTime.Microseconds())/float64(max(st.CoreQueries, 1)), "µs/core-query")
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "µs-p50/core-query")
			b.ReportMetric(float64(times[len(times)*9/10].Microseconds()), "µs-p90/core-query")
			b.ReportMetric(100*st.HitRate(), "%group-hits")
			b.ReportMetric(100*float64(st.CoreQueries)/float64(queries), "%queries-to-core")
			b.ReportMetric(100*float64(st.Sliced)/float64(max(st.Constraints, 1)), "%kept-by-slicing")
			b.ReportMetric(100*float64(st.CoreTime)/float64(el), "%time-in-core")
		})
	}
}

// BenchmarkCoreOnly solves the same mix with the Z3 core alone.
func BenchmarkCoreOnly(b *testing.B) {
	queries := 0
	for i := 0; i < b.N; i++ {
		c := sym.NewContext()
		core := NewZ3(Options{})
		queries += explore(b, core, c, newMiniProgram(c), 40)
		core.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(queries), "µs/query")
}

// TestMiniExploration checks that the benchmark's search covers both
// directions of every branch of the mini program, which needs the header
// magic, the checksum, the string and the arithmetic conditions solved.
func TestMiniExploration(t *testing.T) {
	c := sym.NewContext()
	p := newMiniProgram(c)
	chain := New(Config{})
	defer chain.Close()
	covered := make([][2]bool, len(p.conds))
	rec := &pathRecorder{next: chain, p: p, c: c, covered: covered}
	start := time.Now()
	n := explore(t, rec, c, p, 200)
	for i, cv := range covered {
		if !cv[0] || !cv[1] {
			t.Errorf("branch %d (%s) covered %v", i, sym.Format(p.conds[i], p.leaves), cv)
		}
	}
	st := chain.Stats()
	t.Logf("%d queries in %v: %+v", n, time.Since(start), st)
}

// pathRecorder records which branch directions the models reach.
type pathRecorder struct {
	next    Solver
	p       *miniProgram
	c       *sym.Context
	covered [][2]bool
}

func (r *pathRecorder) Solve(ctx context.Context, q Query) (Result, error) {
	res, err := r.next.Solve(ctx, q)
	for _, in := range [][]rt.Value{q.Seed, res.Model} {
		if in == nil {
			continue
		}
		for i, e := range r.p.path(r.c, in) {
			r.covered[i][boolIndex(e == r.p.conds[i])] = true
		}
	}
	return res, err
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
