package explore

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/rt"
)

// The fake programs. Sites are numbered by hand.

var triangle = &program{name: "PutClassify", leaves: intLeaves("a", "b", "c"), run: func(t *tracer) {
	a, b, c := t.in(0), t.in(1), t.in(2)
	zero := t.konst(0)
	if t.cmp(1, rt.OpLe, a, zero) || t.cmp(2, rt.OpLe, b, zero) || t.cmp(3, rt.OpLe, c, zero) {
		return
	}
	if t.cmp(4, rt.OpLe, t.bin(rt.OpAdd, a, b), c) || t.cmp(5, rt.OpLe, t.bin(rt.OpAdd, a, c), b) || t.cmp(6, rt.OpLe, t.bin(rt.OpAdd, b, c), a) {
		return
	}
	if t.cmp(7, rt.OpEq, a, b) && t.cmp(8, rt.OpEq, b, c) {
		return
	}
	if t.cmp(9, rt.OpEq, a, b) || t.cmp(10, rt.OpEq, b, c) || t.cmp(11, rt.OpEq, a, c) {
		return
	}
}}

var find = &program{name: "PutFind", leaves: intLeaves("x", "y"), run: func(t *tracer) {
	x, y := t.in(0), t.in(1)
	if t.cmp(1, rt.OpLt, x, t.konst(-3)) {
		t.skip()
	}
	if t.cmp(2, rt.OpEq, t.bin(rt.OpMul, x, t.konst(3)), t.bin(rt.OpAdd, y, t.konst(2))) {
		if t.cmp(3, rt.OpGt, x, t.konst(1)) {
			t.fail("found it")
		}
	}
	if t.cmp(4, rt.OpLt, y, t.konst(-2)) {
		panic("y too small")
	}
}}

var loop = &program{name: "PutLoop", leaves: intLeaves("n"), run: func(t *tracer) {
	n := t.in(0)
	for i := t.konst(0); t.cmp(1, rt.OpLt, i, n); i = t.bin(rt.OpAdd, i, t.konst(1)) {
	}
}}

// oraclePaths counts the distinct complete paths of p over [-r, r] per
// input.
func oraclePaths(p *program, r int64) int {
	seen := map[prefix]bool{}
	in := make([]rt.Value, len(p.leaves))
	var rec func(i int)
	rec = func(i int) {
		if i == len(in) {
			seen[pathKey(p.exec(in, 0))] = true
			return
		}
		for v := -r; v <= r; v++ {
			in[i] = rt.Value{Bits: uint64(v)}
			rec(i + 1)
		}
	}
	rec(0)
	return len(seen)
}

func explore(t *testing.T, p *program, cfg Config, ex Executor, s query.Solver) *Report {
	t.Helper()
	rep, err := Explore(context.Background(), cfg, Target{Name: p.name}, ex, s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestExploreFindsAllPaths(t *testing.T) {
	const r = 4
	for _, p := range []*program{triangle, find, loop} {
		want := oraclePaths(p, r)
		for _, strategy := range Strategies {
			t.Run(p.name+"/"+string(strategy), func(t *testing.T) {
				rep := explore(t, p, Config{Strategy: strategy, Seed: 1}, &fakeExec{p: p, workers: 1}, &bruteSolver{r: r})
				if rep.Paths != want {
					t.Errorf("paths = %d, want %d", rep.Paths, want)
				}
				if !rep.Exhaustive || rep.StopReason != StopExhausted || len(rep.Incomplete) != 0 {
					t.Errorf("exhaustive = %v, stop = %q, incomplete = %v", rep.Exhaustive, rep.StopReason, rep.Incomplete)
				}
				if rep.Divergences != 0 {
					t.Errorf("%d divergences", rep.Divergences)
				}
			})
		}
	}
}

// TestExploreDeterministic checks that neither the number of workers nor
// their timing changes what is found, or in which order.
func TestExploreDeterministic(t *testing.T) {
	for _, strategy := range Strategies {
		t.Run(string(strategy), func(t *testing.T) {
			var first string
			for _, workers := range []int{1, 4, 8} {
				for range 2 {
					ex := &fakeExec{p: triangle, workers: workers, jitter: true}
					rep := explore(t, triangle, Config{Strategy: strategy, Seed: 42}, ex, &bruteSolver{r: 3})
					got := fmt.Sprintf("%+v\n%+v\n%v %d %d", rep.Rows, rep.Failures, rep.Covered, rep.Runs, rep.Paths)
					if first == "" {
						first = got
					} else if got != first {
						t.Fatalf("workers=%d: report differs:\n%s\nfirst:\n%s", workers, got, first)
					}
				}
			}
		})
	}
}

func TestExploreFailures(t *testing.T) {
	rep := explore(t, find, Config{}, &fakeExec{p: find}, &bruteSolver{r: 4})
	var got []string
	for _, f := range rep.Failures {
		got = append(got, fmt.Sprintf("%s %q at %q: %s | %s", f.Status, f.Messages, f.PanicAt, f.Input, f.PathCondition))
	}
	want := []string{
		`panic ["y too small"] at "fake.go:1": in0=0, in1=-4 | in0 >= -3 && in0 * 3 != in1 + 2 && in1 < -2`,
		`fail ["found it"] at "": in0=2, in1=4 | in0 >= -3 && in0 * 3 == in1 + 2 && in0 > 1 && in1 >= -2`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range rep.Failures {
		if f.Row < 0 || !reflect.DeepEqual(rep.Rows[f.Row].Inputs, f.Inputs) {
			t.Errorf("failure %+v does not point at its row", f)
		}
		if !satisfiesText(f) {
			t.Errorf("failure input %s does not take its path", f.Input)
		}
	}
	// Skips count as paths; a skipped path is a row only if it reaches a
	// branch outcome no other row reaches.
	skips := rep.Statuses[rt.StatusSkip]
	if skips == 0 || len(rep.Rows) > rep.Paths {
		t.Errorf("skips = %d, rows = %d, paths = %d", skips, len(rep.Rows), rep.Paths)
	}
	for _, r := range rep.Rows {
		if r.Status != rt.StatusSkip {
			// The path condition is written when the report is finished,
			// for every row kept.
			if len(r.Outcomes) > 0 && r.PathCondition == "" {
				t.Errorf("row %+v has no path condition", r)
			}
			continue
		}
		if r.PathCondition != "" {
			t.Errorf("skip row %+v has a path condition", r)
		}
	}
}

// satisfiesText checks a failure by running the program again.
func satisfiesText(f Failure) bool {
	res := find.exec(f.Inputs, 0)
	return res.Status == f.Status
}

// lying reports x > 0 as the condition of a branch on x > 2.
var lying = &program{name: "PutLying", leaves: intLeaves("x"), run: func(t *tracer) {
	x := t.in(0)
	s := t.mk(rt.Node{Op: rt.OpGt, K: rt.KBool, K2: rt.KInt64, A: x.s, B: t.shadow(t.konst(0))})
	t.br(1, x.v > 2, s)
}}

// concrete concretizes its input.
var concrete = &program{name: "PutConcrete", leaves: intLeaves("x"), run: func(t *tracer) {
	x := t.in(0)
	t.res.Concretized = append(t.res.Concretized, rt.Concretization{Site: 9, Why: "float conversion"})
	t.br(1, x.v > 2, 0)
}}

// malformed records an arena whose node refers to a later one.
var malformed = &program{name: "PutMalformed", leaves: intLeaves("x"), run: func(t *tracer) {
	x := t.in(0)
	s := t.mk(rt.Node{Op: rt.OpGt, K: rt.KBool, K2: rt.KInt64, A: x.s, B: x.s + 5})
	t.br(1, x.v > 0, s)
}}

// nonBool records a branch whose condition is an integer term, well
// formed on its own: a shadow attached to the wrong value.
var nonBool = &program{name: "PutNonBool", leaves: intLeaves("x"), run: func(t *tracer) {
	x := t.in(0)
	t.br(1, x.v > 0, x.s)
	t.br(2, x.v > 1, x.s)
}}

func TestExploreBounds(t *testing.T) {
	tests := []struct {
		name       string
		p          *program
		cfg        Config
		solver     query.Solver
		die        func([]rt.Value) (rt.Status, bool)
		stop       string
		incomplete []string
		check      func(t *testing.T, rep *Report)
	}{
		{
			name: "max-runs", p: triangle, cfg: Config{MaxRuns: 5},
			stop: ReasonMaxRuns, incomplete: []string{ReasonMaxRuns},
			check: func(t *testing.T, rep *Report) {
				if rep.Runs != 5 {
					t.Errorf("runs = %d, want 5", rep.Runs)
				}
			},
		},
		{
			name: "max-branches", p: loop, cfg: Config{MaxBranches: 3},
			stop: ReasonMaxBranches, incomplete: []string{ReasonMaxBranches},
			check: func(t *testing.T, rep *Report) {
				// n <= 0, n == 1, n == 2 complete; n >= 3 truncated.
				if rep.Paths != 3 || rep.Statuses[rt.StatusBound] != 1 {
					t.Errorf("paths = %d, bound runs = %d", rep.Paths, rep.Statuses[rt.StatusBound])
				}
			},
		},
		{
			name: "solver-timeout", p: find,
			solver: &bruteSolver{r: 4, unknown: func(q query.Query) bool { return len(q.Constraints) == 3 }},
			stop:   ReasonSolverTimeout, incomplete: []string{ReasonSolverTimeout},
			check: func(t *testing.T, rep *Report) {
				if len(rep.Unsolved) == 0 || rep.UnknownAnswers != len(rep.Unsolved) {
					t.Fatalf("unsolved %v, unknown answers %d", rep.Unsolved, rep.UnknownAnswers)
				}
				u := rep.Unsolved[0]
				if strings.Count(u.PathCondition, "&&") != 2 || u.Why != "time-out" {
					t.Errorf("unsolved %+v", u)
				}
			},
		},
		{
			name: "no-solver", p: find, solver: query.Solver(nil),
			stop: ReasonNoSolver, incomplete: []string{ReasonNoSolver},
			check: func(t *testing.T, rep *Report) {
				if rep.Runs != 1 || rep.Paths != 1 || len(rep.Unsolved) == 0 {
					t.Errorf("runs %d paths %d unsolved %v", rep.Runs, rep.Paths, rep.Unsolved)
				}
			},
		},
		{
			name: "divergence", p: lying,
			stop: ReasonDivergence, incomplete: []string{ReasonDivergence},
			check: func(t *testing.T, rep *Report) {
				if rep.Divergences != 1 || !reflect.DeepEqual(rep.DivergenceSites, []uint32{1}) {
					t.Errorf("divergences %d at %v", rep.Divergences, rep.DivergenceSites)
				}
			},
		},
		{
			name: "concretization", p: concrete,
			stop: ReasonConcretized, incomplete: []string{ReasonConcretized},
			check: func(t *testing.T, rep *Report) {
				if rep.Concretizations != 1 {
					t.Errorf("concretizations = %d", rep.Concretizations)
				}
			},
		},
		{
			name: "worker-exit and run-timeout", p: find,
			die: func(in []rt.Value) (rt.Status, bool) {
				switch int64(in[1].Bits) {
				case -4:
					return rt.StatusExit, true
				case 4:
					return rt.StatusTimeout, true
				}
				return 0, false
			},
			stop: ReasonRunTimeout, incomplete: []string{ReasonRunTimeout, ReasonWorkerExit},
			check: func(t *testing.T, rep *Report) {
				var died []string
				for _, f := range rep.Failures {
					if f.Row < 0 {
						died = append(died, fmt.Sprintf("%s %s %q", f.Status, f.Input, f.Output))
					}
				}
				// The time-out is a bound, not a failure.
				if len(died) == 0 || slices.ContainsFunc(died, func(d string) bool { return strings.HasPrefix(d, "timeout") }) || rep.ResourceBounded == 0 {
					t.Errorf("died failures: %v, %d runs on a resource bound; want the exits only", died, rep.ResourceBounded)
				}
			},
		},
		{
			name: "internal-error", p: malformed,
			stop: ReasonInternal, incomplete: []string{ReasonInternal},
			check: func(t *testing.T, rep *Report) {
				if len(rep.Errors) != 1 || rep.Runs != 1 || rep.Paths != 1 {
					t.Errorf("errors %q, runs %d, paths %d", rep.Errors, rep.Runs, rep.Paths)
				}
			},
		},
		{
			name: "non-bool-condition", p: nonBool,
			stop: ReasonInternal, incomplete: []string{ReasonInternal},
			check: func(t *testing.T, rep *Report) {
				if len(rep.Errors) != 1 || rep.Runs != 1 || rep.Paths != 1 {
					t.Errorf("errors %q, runs %d, paths %d", rep.Errors, rep.Runs, rep.Paths)
				}
			},
		},
		{
			name: "max-time", p: triangle, cfg: Config{MaxTime: 1},
			stop: ReasonMaxTime, incomplete: []string{ReasonMaxTime},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.solver
			if s == nil && tt.name != "no-solver" {
				s = &bruteSolver{r: 4}
			}
			rep := explore(t, tt.p, tt.cfg, &fakeExec{p: tt.p, workers: 2, die: tt.die}, s)
			if rep.StopReason != tt.stop || !reflect.DeepEqual(rep.Incomplete, tt.incomplete) || rep.Exhaustive {
				t.Errorf("stop = %q, incomplete = %v, exhaustive = %v; want %q, %v, false",
					rep.StopReason, rep.Incomplete, rep.Exhaustive, tt.stop, tt.incomplete)
			}
			if tt.check != nil {
				tt.check(t, rep)
			}
		})
	}
}

func TestSeedInputs(t *testing.T) {
	leaves := []rt.Leaf{
		{Path: "n", K: rt.KInt8},
		{Path: "s", K: rt.KString, Max: 3},
		{Path: "len(b)", K: rt.KInt64, IsLen: true, Max: 2},
		{Path: "b[0]", K: rt.KUint8},
		{Path: "b[1]", K: rt.KUint8},
		{Path: "ok", K: rt.KBool},
	}
	seeds := [][]any{
		{int64(-1), "ab", []byte{7}, true},
		{int64(1), "long", []byte{}, false},    // string too long
		{int64(1), "", []byte{1, 2, 3}, false}, // slice too long
		{int64(1), ""},                         // too few
		{int64(-1), "ab", []byte{7}, true},     // duplicate
	}
	got := SeedInputs(leaves, seeds)
	want := [][]rt.Value{{{Bits: 0xff}, {Str: "ab"}, {Bits: 1}, {Bits: 7}, {Bits: 0}, {Bits: 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SeedInputs = %v, want %v", got, want)
	}
}

func TestInputText(t *testing.T) {
	l := &rt.Layout{
		Params: []rt.Param{{Name: "elems", Shape: 0}, {Name: "", Shape: 3}, {Name: "p", Shape: 4}, {Name: "ok", Shape: 5}},
		Shapes: []rt.Shape{
			{Kind: rt.ShapeSlice, Elem: 1},
			{Kind: rt.ShapeStruct, Fields: []rt.Field{{Name: "X", Shape: 2}}},
			{Kind: rt.ShapeScalar, K: rt.KInt8},
			{Kind: rt.ShapeScalar, K: rt.KString},
			{Kind: rt.ShapePointer, Elem: 1},
			{Kind: rt.ShapeScalar, K: rt.KBool},
		},
		MaxLen: 2, Depth: 1,
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in   []rt.Value
		want string
	}{
		{[]rt.Value{{Bits: 1}, {Bits: 0xfe}, {Bits: 5}, {Str: "a\n"}, {Bits: 0}, {Bits: 3}, {Bits: 1}},
			`len(elems)=1, elems[0].X=-2, p1="a\n", p != nil=false, ok=true`},
		{[]rt.Value{{Bits: 2}, {Bits: 1}, {Bits: 5}, {Str: ""}, {Bits: 1}, {Bits: 3}, {Bits: 0}},
			`len(elems)=2, elems[0].X=1, elems[1].X=5, p1="", p != nil=true, p.X=3, ok=false`},
	} {
		if got := InputText(leaves, tt.in); got != tt.want {
			t.Errorf("InputText = %s, want %s", got, tt.want)
		}
	}
}

// TestInputTextAlternatives checks that the leaves of alternatives not
// taken are left out: the other dynamic types of an interface, the other
// methods of a built value's call, and the calls after "no more calls".
func TestInputTextAlternatives(t *testing.T) {
	l := &rt.Layout{
		Params: []rt.Param{{Name: "c", Shape: 0}, {Name: "v", Shape: 2}},
		Shapes: []rt.Shape{
			{Kind: rt.ShapeBuilt, Build: &rt.Build{
				Ctor: rt.Func{Expr: "New", Name: "New", ParamNames: []string{"n"}, Params: []int{1}},
				Methods: []rt.Func{
					{Expr: "(*C).Add", Name: "Add", ParamNames: []string{"k"}, Params: []int{1}},
					{Expr: "(*C).Scale", Name: "Scale", ParamNames: []string{"f", "g"}, Params: []int{1, 1}},
				},
				Steps: 2,
			}},
			{Kind: rt.ShapeScalar, K: rt.KInt, Type: "int"},
			{Kind: rt.ShapeAny, Outs: []int{1, 3}},
			{Kind: rt.ShapeScalar, K: rt.KString, Type: "string"},
		},
		MaxLen: 2, Depth: 1,
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	// c: n, call[0], Add(k), Scale(f), Scale(g), call[1], Add(k), Scale(f), Scale(g); v: type, (int), (string)
	for _, tt := range []struct {
		in   []rt.Value
		want string
	}{
		{[]rt.Value{{Bits: 3}, {Bits: 2}, {Bits: 4}, {Bits: 5}, {Bits: 6}, {Bits: 1}, {Bits: 7}, {Bits: 8}, {Bits: 9}, {Bits: 2}, {Bits: 10}, {Str: "s"}},
			`c.New(n)=3, c.call[0]=2, c.call[0].Scale(f)=5, c.call[0].Scale(g)=6, c.call[1]=1, c.call[1].Add(k)=7, v.(type)=2, v.(string)="s"`},
		{[]rt.Value{{Bits: 3}, {Bits: 0}, {Bits: 4}, {Bits: 5}, {Bits: 6}, {Bits: 1}, {Bits: 7}, {Bits: 8}, {Bits: 9}, {Bits: 1}, {Bits: 10}, {Str: "s"}},
			`c.New(n)=3, c.call[0]=0, v.(type)=1, v.(int)=10`},
	} {
		if got := InputText(leaves, tt.in); got != tt.want {
			t.Errorf("InputText =\n%s, want\n%s", got, tt.want)
		}
	}
}

// boundedNode is a fake target with a mock value the node bound makes
// nil: its choice leaf (in1) is not read, and the run reports it
// (rt.Result.Nilled); the target branches on in0 alone.
var boundedNode = &program{
	name:   "boundedNode",
	leaves: intLeaves("x", "choice"),
	run: func(t *tracer) {
		if t.inputs[1].Bits != 0 {
			t.res.Nilled = []int{1}
		}
		t.res.NodeBounded = true
		if t.cmp(1, rt.OpEq, t.in(0), t.konst(5)) {
			t.fail("five")
		}
	},
}

// TestNodeBoundRows checks that the inputs kept for rows and failures
// hold 0 (nil) at the leaves the node bound made nil in their runs, so
// that a generated test, where no bound applies, builds what the run
// saw; and that the report says the bound restricted the search.
func TestNodeBoundRows(t *testing.T) {
	// The initial input, the first to reach x == 5, picks a mock
	// (choice 3) the bound makes nil.
	target := Target{Name: boundedNode.name, Inputs: [][]rt.Value{{{Bits: 5}, {Bits: 3}}}}
	rep, err := Explore(context.Background(), Config{Seed: 1}, target, &fakeExec{p: boundedNode, workers: 1}, &bruteSolver{r: 6})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Paths != 2 || len(rep.Failures) != 1 {
		t.Fatalf("%d paths, %d failures; want 2 and 1", rep.Paths, len(rep.Failures))
	}
	for _, row := range rep.Rows {
		if row.Inputs[1].Bits != 0 {
			t.Errorf("row %v keeps the choice the bound made nil", row.Inputs)
		}
	}
	if f := rep.Failures[0]; f.Inputs[1].Bits != 0 {
		t.Errorf("failure %v keeps the choice the bound made nil", f.Inputs)
	}
	if !rep.NodeBounded {
		t.Error("the report does not say the node bound restricted the search")
	}
}

func TestResourceBound(t *testing.T) {
	died := func(st rt.Status, msg, output string) RunOutcome {
		return RunOutcome{Died: true, Output: output, Result: rt.Result{Status: st, Messages: []string{msg}}}
	}
	building := died(rt.StatusExit, "worker exited (exit status 2)", "fatal error: runtime: out of memory\n")
	building.Building = true
	tests := []struct {
		name   string
		o      RunOutcome
		reason string
	}{
		{"run time bound", died(rt.StatusTimeout, "run exceeded 10s", ""), ReasonRunTimeout},
		{"heap beyond RLIMIT_DATA", died(rt.StatusExit, "worker exited (exit status 2)", "fatal error: runtime: out of memory\n\nruntime stack:\n"), ReasonMaxMemory},
		{"a throw in the allocator", died(rt.StatusExit, "worker exited (exit status 2)", "\nruntime stack:\nruntime.throw({0x5fa38f?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1229 +0x48\nruntime.persistentalloc1(0x3fe0, 0x0, 0x7abb40)\n"), ReasonMaxMemory},
		{"a large block", died(rt.StatusExit, "worker exited (exit status 2)", "runtime: out of memory: cannot allocate 3221225472-byte block (3997696 in use)\nfatal error: out of memory\n"), ReasonMaxMemory},
		{"a mapping refused", died(rt.StatusExit, "worker exited (exit status 2)", "fatal error: runtime: cannot allocate memory\nSIGSEGV: segmentation violation\n"), ReasonMaxMemory},
		{"a fault in the collector", died(rt.StatusExit, "worker exited (exit status 2)", "SIGSEGV: segmentation violation\nPC=0x43199d m=2 sigcode=1 addr=0x0\n\ngoroutine 0 gp=0x359aaacecb40 m=2 mp=0x359aaad28808 [idle]:\nruntime.(*spanQueue).tryDrain(0x359a00000400?, 0x43a125?, 0x7872c8?)\n"), ReasonMaxMemory},
		{"a fault in cgo code", died(rt.StatusExit, "worker exited (exit status 2)", "SIGSEGV: segmentation violation\nPC=0x4a1b2c m=0 sigcode=1 addr=0x0\nsignal arrived during cgo execution\n\ngoroutine 7 gp=0xc000 m=0 mp=0x7886c0 [syscall]:\nexample.com/p._Cfunc_crash()\n"), ""},
		{"killed from outside", died(rt.StatusExit, "worker exited (signal: killed)", ""), ReasonWorkerKilled},
		{"a crash of the target", died(rt.StatusExit, "worker exited (exit status 2)", "fatal error: concurrent map writes\n"), ""},
		{"os.Exit", died(rt.StatusExit, "worker exited (exit status 3)", "bye\n"), ""},
		{"while building the input", building, ""},
		{"a failure", RunOutcome{Result: rt.Result{Status: rt.StatusFail}}, ""},
	}
	for _, tt := range tests {
		reason, ok := resourceBound(tt.o)
		if reason != tt.reason || ok != (tt.reason != "") {
			t.Errorf("%s: resourceBound = %q, %v; want %q", tt.name, reason, ok, tt.reason)
		}
	}
}
