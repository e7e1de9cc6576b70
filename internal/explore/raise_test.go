package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/rt"
)

func TestTranslate(t *testing.T) {
	from := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 10},
		{Path: "len(b)", K: rt.KInt, IsLen: true, Max: 2},
		{Path: "b[0]", K: rt.KUint8},
		{Path: "b[1]", K: rt.KUint8},
	}
	to := []rt.Leaf{
		{Path: "s", K: rt.KString, Max: 4},
		{Path: "len(b)", K: rt.KInt, IsLen: true, Max: 3},
		{Path: "b[0]", K: rt.KUint8},
		{Path: "b[1]", K: rt.KUint8},
		{Path: "b[2]", K: rt.KUint8},
	}
	in := []rt.Value{{Str: "abcdefgh"}, {Bits: 2}, {Bits: 7}, {Bits: 9}}
	want := []rt.Value{{Str: "abcd"}, {Bits: 2}, {Bits: 7}, {Bits: 9}, {}}
	if got := translate(from, to, in); !slices.Equal(got, want) {
		t.Errorf("translate = %v, want %v (by path, strings cut to the bound, new leaves zero)", got, want)
	}
	in[1].Bits = 40 // a length beyond the new bound is clipped
	if got := translate(from, to, in); got[1].Bits != 3 {
		t.Errorf("len(b) = %d, want 3", got[1].Bits)
	}
}

func TestRaisedBound(t *testing.T) {
	limited := []BoundLimited{{Need: 12}}
	for _, c := range []struct {
		name   string
		rep    Report
		maxLen int
		plenty bool
		want   int
	}{
		{"a branch needs 12: the relaxed bound searched", Report{BoundLimited: limited}, 10, false, 42},
		{"a branch needs more than the relaxed bound", Report{BoundLimited: []BoundLimited{{Need: 50}}}, 10, false, 50},
		{"relaxed bound beyond the cap", Report{BoundLimited: limited}, 40, false, 64},
		{"capped", Report{BoundLimited: []BoundLimited{{Need: 300}}}, 10, false, 64},
		{"at the cap", Report{BoundLimited: limited}, 64, false, 0},
		{"time ran out", Report{BoundLimited: limited, StopReason: ReasonMaxTime}, 10, false, 0},
		{"nothing needs longer inputs", Report{}, 10, true, 0},
		{"reached outcomes, plenty of time", Report{Longer: limited}, 10, true, 42},
		{"reached outcomes, little time", Report{Longer: limited}, 10, false, 0},
	} {
		if got := raisedBound(&c.rep, c.maxLen, 64, c.plenty); got != c.want {
			t.Errorf("%s: raisedBound = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestSeedsNeed(t *testing.T) {
	seeds := [][]any{{"abc", int64(1)}, {[]byte("0123456789ab")}, {string(make([]byte, 100))}}
	if got := seedsNeed(seeds, 64); got != 12 {
		t.Errorf("seedsNeed = %d, want 12 (the longest seed within the cap)", got)
	}
}

// square fails on x*x == 603729 (x = ±777), which a solver that gives up
// on every query and the mutations of a few seconds do not find.
var square = &program{
	name:   "square",
	leaves: intLeaves("x"),
	run: func(t *tracer) {
		x := t.in(0)
		if t.cmp(1, rt.OpEq, t.bin(rt.OpMul, x, x), t.konst(603729)) {
			t.fail("777")
		}
	},
}

func TestHybridPhase(t *testing.T) {
	giveUp := func(query.Query) bool { return true }
	var seeded [][]rt.Value
	r := Raise{From: 4, Cap: 4, FuzzShare: 0.6, MinFuzzTime: time.Second,
		Start: func(int) (Executor, func(), error) { return &fakeExec{p: square}, func() {}, nil },
		Fuzz: func(_ context.Context, leaves []rt.Leaf, passing [][]rt.Value, d time.Duration) ([][]any, error) {
			if d < time.Second {
				t.Errorf("the fuzzer gets %v, want most of the 1.8 s left", d)
			}
			seeded = passing
			return [][]any{{int64(777)}, {int64(1)}}, nil
		},
	}
	cfg := Config{MaxTime: 3 * time.Second, Seed: 1}
	rep, err := ExploreRaising(context.Background(), cfg, Target{Name: "square", Fuzz: true}, r, &bruteSolver{r: 4, unknown: giveUp})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stop %q after %v, %d runs", rep.StopReason, rep.Elapsed, rep.Runs)
	if len(seeded) == 0 {
		t.Errorf("the fuzzer was not seeded with the passing inputs")
	}
	if rep.Fuzzer == nil || rep.Fuzzer.Inputs != 2 || rep.Fuzzer.Seeds != len(seeded) {
		t.Fatalf("Fuzzer = %+v, want 2 inputs from %d seeds", rep.Fuzzer, len(seeded))
	}
	if len(rep.Failures) != 1 || rep.Failures[0].Inputs[0].Bits != 777 {
		t.Fatalf("failures %+v, want the fuzzer's x = 777", rep.Failures)
	}
	if rep.Paths != 2 {
		t.Errorf("paths %d, want 2: the one found before the fuzzer and its", rep.Paths)
	}
	if rep.Fuzzer.Paths != 1 || rep.FuzzedPaths != 1 {
		t.Errorf("fuzzed paths %d (report %d), want 1: x = 1 takes a path found before", rep.Fuzzer.Paths, rep.FuzzedPaths)
	}

	// An exhaustive search, or one under a run bound, never calls it.
	called := false
	r.Fuzz = func(context.Context, []rt.Leaf, [][]rt.Value, time.Duration) ([][]any, error) {
		called = true
		return nil, nil
	}
	if _, err := ExploreRaising(context.Background(), cfg, Target{Name: "square", Fuzz: true}, r, &bruteSolver{r: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := ExploreRaising(context.Background(), Config{MaxTime: 3 * time.Second, MaxRuns: 5}, Target{Name: "square", Fuzz: true}, r, &bruteSolver{r: 4, unknown: giveUp}); err != nil {
		t.Fatal(err)
	}
	// Nor one whose share of the time is below the least.
	r.MinFuzzTime = 2 * time.Second
	if _, err := ExploreRaising(context.Background(), cfg, Target{Name: "square", Fuzz: true}, r, &bruteSolver{r: 4, unknown: giveUp}); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Errorf("the fuzzer ran after an exhaustive search, one that met -max-runs or one with too little time")
	}
}
