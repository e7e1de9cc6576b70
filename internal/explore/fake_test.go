package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// A fake target is a Go function that traces its own branches through a
// tracer, the way instrumented code does through the runtime.

// tracer records one run of a fake target.
type tracer struct {
	inputs      []rt.Value
	nodes       []rt.Node
	events      []rt.Event
	maxBranches int
	res         rt.Result
}

type halt struct{}

func newTracer(in []rt.Value, maxBranches int) *tracer {
	return &tracer{inputs: in, nodes: make([]rt.Node, 1), maxBranches: maxBranches}
}

func (t *tracer) mk(n rt.Node) rt.S {
	t.nodes = append(t.nodes, n)
	return rt.S(len(t.nodes) - 1)
}

// val is a traced integer: its concrete value and its shadow.
type val struct {
	v int64
	s rt.S
}

func (t *tracer) in(i int) val {
	return val{int64(t.inputs[i].Bits), t.mk(rt.Node{Op: rt.OpInput, K: rt.KInt64, Val: uint64(i)})}
}

func (t *tracer) konst(v int64) val { return val{v, 0} }

func (t *tracer) shadow(x val) rt.S {
	if x.s != 0 {
		return x.s
	}
	return t.mk(rt.Node{Op: rt.OpConst, K: rt.KInt64, Val: uint64(x.v)})
}

func (t *tracer) bin(op rt.Op, a, b val) val {
	var v int64
	switch op {
	case rt.OpAdd:
		v = a.v + b.v
	case rt.OpSub:
		v = a.v - b.v
	case rt.OpMul:
		v = a.v * b.v
	}
	if a.s == 0 && b.s == 0 {
		return val{v, 0}
	}
	return val{v, t.mk(rt.Node{Op: op, K: rt.KInt64, A: t.shadow(a), B: t.shadow(b)})}
}

// cmp compares and branches on the result at site.
func (t *tracer) cmp(site uint32, op rt.Op, a, b val) bool {
	var c bool
	switch op {
	case rt.OpEq:
		c = a.v == b.v
	case rt.OpNe:
		c = a.v != b.v
	case rt.OpLt:
		c = a.v < b.v
	case rt.OpLe:
		c = a.v <= b.v
	case rt.OpGt:
		c = a.v > b.v
	case rt.OpGe:
		c = a.v >= b.v
	}
	var s rt.S
	if a.s != 0 || b.s != 0 {
		s = t.mk(rt.Node{Op: op, K: rt.KBool, K2: rt.KInt64, A: t.shadow(a), B: t.shadow(b)})
	}
	return t.br(site, c, s)
}

func (t *tracer) br(site uint32, c bool, s rt.S) bool {
	if t.maxBranches > 0 && len(t.events) >= t.maxBranches {
		t.res.Truncated = true
		t.res.Status = rt.StatusBound
		panic(halt{})
	}
	t.events = append(t.events, rt.Event{Site: site, Taken: c, Cond: s})
	return c
}

func (t *tracer) fail(msg string) {
	t.res.Status = rt.StatusFail
	t.res.Messages = append(t.res.Messages, msg)
}

func (t *tracer) skip() {
	t.res.Status = rt.StatusSkip
	panic(halt{})
}

// program is a fake target.
type program struct {
	name   string
	leaves []rt.Leaf
	run    func(t *tracer)
}

func intLeaves(names ...string) []rt.Leaf {
	var ls []rt.Leaf
	for i := range names {
		ls = append(ls, rt.Leaf{Param: i, Path: fmt.Sprintf("in%d", i), K: rt.KInt64})
	}
	return ls
}

// exec runs p on in like a worker does.
func (p *program) exec(in []rt.Value, maxBranches int) (res rt.Result) {
	t := newTracer(in, maxBranches)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(halt); !ok {
				t.res.Status = rt.StatusPanic
				t.res.Messages = append(t.res.Messages, fmt.Sprint(r))
				t.res.PanicAt = "fake.go:1"
			}
		}
		t.res.Events = t.events
		t.res.Nodes = t.nodes
		res = t.res
	}()
	p.run(t)
	return
}

// fakeExec is an Executor running a program in process, in parallel with
// random delays, so that tests see whether timing leaks into results.
type fakeExec struct {
	p       *program
	workers int
	jitter  bool
	// die makes the runs on the inputs it accepts end their worker.
	die func(in []rt.Value) (rt.Status, bool)

	mu   sync.Mutex
	runs [][]rt.Value
}

func (f *fakeExec) Leaves(context.Context) ([]rt.Leaf, error) { return f.p.leaves, nil }
func (f *fakeExec) Close() error                              { return nil }

func (f *fakeExec) Run(ctx context.Context, reqs []rt.Request) ([]RunOutcome, error) {
	outs := make([]RunOutcome, len(reqs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(f.workers, 1))
	for i := range reqs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if f.jitter {
				time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			}
			req := &reqs[i]
			if ctx.Err() != nil {
				outs[i].Skipped = true
				return
			}
			f.mu.Lock()
			f.runs = append(f.runs, req.Inputs)
			f.mu.Unlock()
			if f.die != nil {
				if st, ok := f.die(req.Inputs); ok {
					outs[i] = RunOutcome{Died: true, Output: "boom\n", Result: rt.Result{Seq: req.Seq, Status: st, Messages: []string{"worker exited"}}}
					return
				}
			}
			outs[i] = RunOutcome{Result: f.p.exec(req.Inputs, req.MaxBranches)}
			outs[i].Result.Seq = req.Seq
		}()
	}
	wg.Wait()
	return outs, nil
}

// bruteSolver solves queries by trying every input in [-r, r] per leaf
// (lengths in [0, Max]), the seed's values first.
type bruteSolver struct {
	r       int64
	unknown func(q query.Query) bool // queries to give up on
	cached  map[string]query.Result
}

func (b *bruteSolver) Solve(ctx context.Context, q query.Query) (query.Result, error) {
	key := fmt.Sprint(q.Constraints, q.Seed)
	if a, ok := b.cached[key]; ok {
		a.Cached = true
		return a, nil
	}
	a := b.solve(q)
	if b.cached == nil {
		b.cached = map[string]query.Result{}
	}
	b.cached[key] = a
	return a, nil
}

func (b *bruteSolver) solve(q query.Query) query.Result {
	if b.unknown != nil && b.unknown(q) {
		return query.Result{Status: query.Unknown, TimedOut: true, Why: "time-out"}
	}
	cands := make([][]int64, len(q.Leaves))
	for i, l := range q.Leaves {
		seed := int64(q.Seed[i].Bits)
		cands[i] = append(cands[i], seed)
		lo, hi := -b.r, b.r
		if l.IsLen {
			lo, hi = 0, int64(l.Max)
		}
		for v := lo; v <= hi; v++ {
			if v != seed {
				cands[i] = append(cands[i], v)
			}
		}
	}
	idx := make([]int, len(cands))
	vals := make([]rt.Value, len(cands))
	for {
		for i := range idx {
			vals[i] = rt.Value{Bits: uint64(cands[i][idx[i]])}
		}
		if satisfies(q, vals) {
			return query.Result{Status: query.Sat, Model: append([]rt.Value(nil), vals...)}
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(cands[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return query.Result{Status: query.Unsat}
		}
	}
}

func satisfies(q query.Query, in []rt.Value) bool {
	ev := sym.NewEvaluator(in)
	for _, c := range q.Constraints {
		if ok, err := ev.Holds(c); err != nil || !ok {
			return false
		}
	}
	return true
}
