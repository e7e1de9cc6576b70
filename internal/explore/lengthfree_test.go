package explore

import (
	"testing"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// scanThenCheck scans its input (a loop over the length n, which pins n
// in every later path condition) and then fails on x0 == 7 only for
// n == 4: from the zero input, the run that reaches x0 == 7 has n == 0,
// and n == 4 is infeasible under its prefix.
var scanThenCheck = &program{name: "PutScanThenCheck", leaves: []rt.Leaf{
	{Path: "len(b)", K: rt.KInt64, IsLen: true, Max: 5},
	{Path: "x0", Param: 1, K: rt.KInt64},
}, run: func(t *tracer) {
	n, x0 := t.in(0), t.in(1)
	for i := t.konst(0); t.cmp(1, rt.OpLt, i, n); i = t.bin(rt.OpAdd, i, t.konst(1)) {
	}
	if t.cmp(3, rt.OpEq, x0, t.konst(7)) {
		if t.cmp(4, rt.OpEq, n, t.konst(4)) {
			t.fail("x0 == 7 at length 4")
		}
	}
}}

// TestLengthFree checks that an infeasible negation whose prefix pins a
// length is asked again without the length conditions, and that the
// relaxed run changes no verdict: the full search is exhaustive, with
// every path and no divergence counted.
func TestLengthFree(t *testing.T) {
	p := scanThenCheck
	// Zero input, its two children, then the run of x0 == 7 at n == 0
	// is expanded first (it covered more): its negation of n == 4 is
	// infeasible under n <= 0, and the length-free query finds the
	// failure as the fourth run. Stepping the length up one run at a
	// time takes about ten runs.
	rep := explore(t, p, Config{MaxRuns: 4, NoMutation: true}, &fakeExec{p: p, workers: 1}, &bruteSolver{r: 8})
	if len(rep.Failures) != 1 {
		t.Fatalf("%d failures in %d runs, want 1 (length-free runs %d)", len(rep.Failures), rep.Runs, rep.LengthFreeRuns)
	}
	if rep.LengthFreeRuns != 1 || rep.LengthFreePaths != 1 {
		t.Errorf("length-free runs %d, paths %d; want 1, 1", rep.LengthFreeRuns, rep.LengthFreePaths)
	}

	rep = explore(t, p, Config{NoMutation: true}, &fakeExec{p: p, workers: 1}, &bruteSolver{r: 8})
	// Lengths 0..5, each with x0 != 7 and x0 == 7 (n == 4 failing).
	if rep.Paths != 12 || !rep.Exhaustive || rep.Divergences != 0 {
		t.Errorf("paths %d, exhaustive %v, divergences %d; want 12, true, 0", rep.Paths, rep.Exhaustive, rep.Divergences)
	}
	if len(rep.Failures) != 1 {
		t.Errorf("%d failures, want 1", len(rep.Failures))
	}

	// A length-free query the solver gives up on is no reason the search
	// is incomplete: the query it relaxes was decided.
	// (Every path starts with the loop's test of the length, which only
	// a length-free query drops.)
	relaxed := func(q query.Query) bool {
		return !lengthsOnly(q.Constraints[0], p.leaves, map[uint64]refs{})
	}
	rep = explore(t, p, Config{NoMutation: true}, &fakeExec{p: p, workers: 1}, &bruteSolver{r: 8, unknown: relaxed})
	if rep.UnknownAnswers == 0 || rep.LengthFreeRuns != 0 {
		t.Fatalf("%d unknown answers, %d length-free runs; want the length-free queries unknown", rep.UnknownAnswers, rep.LengthFreeRuns)
	}
	if rep.Paths != 12 || !rep.Exhaustive || len(rep.Incomplete) != 0 {
		t.Errorf("paths %d, exhaustive %v, incomplete %v; want 12, true, none", rep.Paths, rep.Exhaustive, rep.Incomplete)
	}
}

func TestLengthsOnly(t *testing.T) {
	c := sym.NewContext()
	leaves := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 10},
		{Path: "len(b)", Param: 1, K: rt.KInt, IsLen: true, Max: 3},
		{Path: "b[0]", Param: 1, K: rt.KUint8},
	}
	s, n, b0 := c.Input(0, rt.KString), c.Input(1, rt.KInt), c.Input(2, rt.KUint8)
	five := c.Const(rt.KInt, 5)
	lenS := c.Len(s)
	s0 := c.Index(s, c.Const(rt.KInt, 0))
	tests := []struct {
		name string
		cond *sym.Expr
		want bool
	}{
		{"loop exit on a string", c.Not(c.Compare(rt.OpLt, five, lenS)), true},
		{"loop exit on a slice", c.Compare(rt.OpLe, n, five), true},
		{"two lengths", c.Compare(rt.OpLt, lenS, c.Binary(rt.OpAdd, n, five)), true},
		{"a byte", c.Compare(rt.OpEq, s0, c.Const(rt.KUint8, 'a')), false},
		{"a length and a byte", c.And(c.Compare(rt.OpLt, c.Const(rt.KInt, 0), lenS), c.Compare(rt.OpEq, s0, c.Const(rt.KUint8, 'a'))), false},
		{"a slice element", c.Compare(rt.OpEq, b0, c.Const(rt.KUint8, 1)), false},
		{"the string itself", c.Compare(rt.OpEq, s, c.Str("x")), false},
		{"no input", c.True(), false},
	}
	for _, tt := range tests {
		if got := lengthsOnly(tt.cond, leaves, map[uint64]refs{}); got != tt.want {
			t.Errorf("%s: lengthsOnly(%s) = %v, want %v", tt.name, sym.Format(tt.cond, leaves), got, tt.want)
		}
	}
}
